// Step: the package type's steps as the plan carries them: install, upgrade, downgrade or remove
// one package, with the versions the plan named, and the package manager's operation each one is.
// None can be undone (maintainer scripts ran; an older version may no longer be available).
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type * as Commands from './Commands.js'
import * as DebianVersion from './DebianVersion.js'
import type * as Decision from './Decision.js'
import * as Invalid from './Invalid.js'
import * as Name from './Name.js'
import * as RpmVersion from './RpmVersion.js'

// model

/** The step tags, as the plan carries them. */
export const tags = { 'package.install': null, 'package.upgrade': null, 'package.downgrade': null, 'package.remove': null } as const
export type Tag = keyof typeof tags

/**
 * One package manager action. `from`: the version installed at plan time (not for install);
 * `to`: the version asked for (undefined: whatever the package manager picks); `exact`: `to` is
 * the version `ensure` names (it may go down), not the candidate seen at plan time (never down);
 * `seen`: the candidate seen at plan time, shown when `to` is undefined; `provider`: the package
 * manager that answered at plan time and runs the step (absent: apt, as plans before dnf said).
 */
export const PackageStep = t.intersection([
  t.type({ _tag: t.keyof(tags), name: t.string, reason: t.string, noop: t.string }),
  t.partial({ from: t.string, to: t.string, exact: t.boolean, seen: t.string, provider: t.keyof({ apt: null, dnf: null }) }),
])
export type PackageStep = t.TypeOf<typeof PackageStep>

/**
 * What a package manager is asked to do for a step. `provider`: which one (absent: whichever the
 * manager is); `from`: the version installed at plan time (dnf upgrades and downgrades by it).
 */
export type Operation =
  | { readonly _tag: 'Install'; readonly name: string; readonly target: Commands.Target; readonly from?: string; readonly provider?: 'apt' | 'dnf' }
  | { readonly _tag: 'Remove'; readonly name: string; readonly provider?: 'apt' | 'dnf' }

// constructors

/** The step of a decision (undefined for Nothing). */
export const ofAction = (name: string, ensure: Decision.Ensure, a: Decision.Action, provider: 'apt' | 'dnf' = 'apt'): PackageStep | undefined => {
  const step = ofApt(name, ensure, a)
  return step === undefined || provider === 'apt' ? step : { ...step, provider }
}

const ofApt = (name: string, ensure: Decision.Ensure, a: Decision.Action): PackageStep | undefined => {
  const base = { name, reason: a.reason }
  switch (a._tag) {
    case 'Nothing':
      return undefined
    case 'Install':
      return { _tag: 'package.install', ...base, noop: a.noop, ...(a.to !== undefined ? { to: a.to } : {}), ...(ensure._tag === 'Version' ? { exact: true } : {}), ...(a.seen !== undefined ? { seen: a.seen } : {}) }
    case 'Upgrade':
      return { _tag: 'package.upgrade', ...base, noop: a.noop, from: a.from, ...(a.to !== undefined ? { to: a.to } : {}), ...(ensure._tag === 'Version' ? { exact: true } : {}) }
    case 'Downgrade':
      return { _tag: 'package.downgrade', ...base, noop: a.noop, from: a.from, to: a.to, exact: true }
    case 'Remove':
      return { _tag: 'package.remove', ...base, noop: a.noop, from: a.from }
  }
}

// validation

/**
 * Why a step cannot be an honest one (undefined: it can): a plan file is input too, so its name
 * and versions are held to what a manifest could give, and a downgrade must name its version.
 */
export const problem = (s: PackageStep): string | undefined => {
  const dnf = s.provider === 'dnf'
  const name = dnf ? Name.checkDnf(s.name) : Name.checkApt(s.name)
  if (E.isLeft(name)) return Invalid.message(name.left)
  for (const v of [s.from, s.to, s.seen]) {
    if (v === undefined) continue
    const checked = Name.checkVersion(v)
    if (E.isLeft(checked)) return Invalid.message(checked.left)
    const parsed = dnf ? RpmVersion.parse(v) : DebianVersion.parse(v)
    if (E.isLeft(parsed)) return Invalid.message(parsed.left)
  }
  if (s._tag === 'package.downgrade' && (s.to === undefined || s.exact !== true)) return 'a downgrade must name the exact version it goes to'
  return undefined
}

// interop

/** The operation of a step. */
export const operation = (s: PackageStep): Operation => {
  const provider = s.provider ?? 'apt'
  return s._tag === 'package.remove'
    ? { _tag: 'Remove', name: s.name, provider }
    : {
        _tag: 'Install',
        name: s.name,
        target: s.to === undefined ? { _tag: 'Newest' } : s.exact === true ? { _tag: 'Exact', version: s.to } : { _tag: 'Latest', version: s.to },
        ...(s.from !== undefined ? { from: s.from } : {}),
        provider,
      }
}

/** The step for people: "install hello 2.10-3", "upgrade hello 1.0-1 → 1.0-2", "remove hello 1.0-1". */
export const describe = (s: PackageStep): string => {
  switch (s._tag) {
    case 'package.install':
      return `install ${s.name}${s.to !== undefined ? ` ${s.to}` : s.seen !== undefined ? ` (${s.seen} at plan time)` : ''}`
    case 'package.upgrade':
      return `upgrade ${s.name} ${s.from ?? '?'} → ${s.to ?? 'latest'}`
    case 'package.downgrade':
      return `downgrade ${s.name} ${s.from ?? '?'} → ${s.to ?? '?'}`
    case 'package.remove':
      return `remove ${s.name}${s.from !== undefined ? ` ${s.from}` : ''}`
  }
}
