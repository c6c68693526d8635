// Commands: the exact command of each provider operation (the spec's APT and DNF sections), as
// Command values, for the action Decision chose. Every name and version has passed Name (and the
// provider's version parser) before it gets here, and comes after `--`, so none can be an option.
//
// Beyond the spec, each found by running the tools:
// - apt under a root: AptRoot's APT_CONFIG, `-o Dir=ROOT/`, and dpkg's --root and --log;
// - dnf's `name-version` is written `name-EPOCH:version[-release]`: a name holds no `:`, so dnf
//   cannot read part of the version as part of the name (`foo-1.0` as the package `foo-1`);
// - dnf 4's `install` leaves an installed package alone unless a version is named, so an upgrade
//   to "whatever is newest" (ensure latest, no candidate seen) is `dnf upgrade`.
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../../core/Command.js'
import * as AptRoot from './AptRoot.js'
import type * as Decision from './Decision.js'
import * as DnfRoot from './DnfRoot.js'
import type * as Invalid from './Invalid.js'
import * as RpmVersion from './RpmVersion.js'

// model

/** The version an install asks apt or dnf for. */
export type Target =
  | { readonly _tag: 'Newest' }
  /** The candidate seen at plan time (ensure latest): never a downgrade. */
  | { readonly _tag: 'Latest'; readonly version: string }
  /** The version `ensure` names: up or down. */
  | { readonly _tag: 'Exact'; readonly version: string }

/** The environment of every apt and dpkg command (the spec's table): nothing may prompt. */
export const aptEnvironment: ReadonlyArray<string> = ['DEBIAN_FRONTEND=noninteractive', 'APT_LISTBUGS_FRONTEND=none', 'APT_LISTCHANGES_FRONTEND=none']

// constructors

/** `apt-get install`, keeping changed configuration files; downgrades allowed only for an exact version. */
export const aptInstall = (name: string, target: Target, root: AptRoot.AptRoot | undefined, timeoutMs: number): Command => ({
  argv: [
    'apt-get',
    'install',
    '-y',
    '-q',
    '-o',
    'DPkg::Options::=--force-confold',
    ...(target._tag === 'Exact' ? ['--allow-downgrades'] : []),
    ...AptRoot.aptOptions(root),
    ...AptRoot.dpkgOptions(root),
    '--',
    target._tag === 'Newest' ? name : `${name}=${target.version}`,
  ],
  environment: [...aptEnvironment, ...AptRoot.environment(root)],
  timeoutMs,
})

/** `apt-get remove`: configuration files stay (not purge). */
export const aptRemove = (name: string, root: AptRoot.AptRoot | undefined, timeoutMs: number): Command => ({
  argv: ['apt-get', '-q', '-y', 'remove', ...AptRoot.aptOptions(root), ...AptRoot.dpkgOptions(root), '--', name],
  environment: [...aptEnvironment, ...AptRoot.environment(root)],
  timeoutMs,
})

/** dnf's spelling of a package at a version: `name-EPOCH:version[-release]`, or the malformed version. */
export const dnfSpec = (name: string, version: string): E.Either<Invalid.Invalid, string> =>
  E.map((v: RpmVersion.Evr) => `${name}-${v.epoch}:${v.version}${v.release === undefined ? '' : `-${v.release}`}`)(RpmVersion.parse(version))

const dnf = (verb: string, word: string, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): Command => ({
  argv: ['dnf', verb, '-y', ...DnfRoot.options(root), '--', word],
  environment: [],
  timeoutMs,
})

/** `dnf install` (the newest, or a version: up or down), `dnf upgrade` to the newest of an installed package, `dnf downgrade`, `dnf remove`. */
export const dnfCommand = (verb: 'install' | 'upgrade' | 'downgrade' | 'remove', name: string, version: string | undefined, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): E.Either<Invalid.Invalid, Command> =>
  version === undefined ? E.right(dnf(verb, name, root, timeoutMs)) : E.map((spec: string) => dnf(verb, spec, root, timeoutMs))(dnfSpec(name, version))

// interop

/** apt's command for Decision's action; undefined for Nothing. */
export const forApt = (name: string, ensure: Decision.Ensure, a: Decision.Action, root: AptRoot.AptRoot | undefined, timeoutMs: number): Command | undefined => {
  switch (a._tag) {
    case 'Nothing':
      return undefined
    case 'Remove':
      return aptRemove(name, root, timeoutMs)
    case 'Install':
    case 'Upgrade':
    case 'Downgrade': {
      const target: Target = a.to === undefined ? { _tag: 'Newest' } : ensure._tag === 'Version' ? { _tag: 'Exact', version: a.to } : { _tag: 'Latest', version: a.to }
      return aptInstall(name, target, root, timeoutMs)
    }
  }
}

/** dnf's command for Decision's action; undefined for Nothing. */
export const forDnf = (name: string, a: Decision.Action, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): E.Either<Invalid.Invalid, Command | undefined> => {
  switch (a._tag) {
    case 'Nothing':
      return E.right(undefined)
    case 'Remove':
      return dnfCommand('remove', name, undefined, root, timeoutMs)
    case 'Install':
      return dnfCommand('install', name, a.to, root, timeoutMs)
    case 'Upgrade':
      return dnfCommand(a.to === undefined ? 'upgrade' : 'install', name, a.to, root, timeoutMs)
    case 'Downgrade':
      return dnfCommand('downgrade', name, a.to, root, timeoutMs)
  }
}
