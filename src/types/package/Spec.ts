// Spec: the package resource's properties, decoded and validated from a manifest entry (CCM's
// package type: `ensure` present, absent, latest or a version; the apt and dnf providers, or the
// one the machine has when none is named). The name must be one the provider takes literally
// (Name.checkFor) and a version one its ordering can read (DebianVersion for apt, RpmVersion for
// dnf, both when no provider is named, as either may answer), so nothing a manifest says can
// reach a package manager as an option or pattern.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type { Position } from '../../core/Position.js'
import * as ResourceId from '../../core/ResourceId.js'
import type { RawResource, Scope } from '../../manifest/Manifest.js'
import * as Fields from '../Fields.js'
import * as DebianVersion from './DebianVersion.js'
import * as Decision from './Decision.js'
import * as Invalid from './Invalid.js'
import * as Name from './Name.js'
import * as RpmVersion from './RpmVersion.js'

// model

export interface PackageSpec {
  readonly _tag: 'package'
  readonly id: string
  /** The package's name (checked by Name.checkFor for the provider). */
  readonly name: string
  readonly at: Position
  /** As the manifest wrote it: present (the default), absent, latest, or a version. */
  readonly ensure: string
  /** The provider the manifest named; `auto`: none, the machine's (apt where found, else dnf). */
  readonly provider: Provider
}

export type Provider = 'apt' | 'dnf' | 'auto'

/** The properties a package resource accepts. */
export const keys = ['ensure', 'provider'] as const

/** The providers a manifest may name. */
export const providers = ['apt', 'dnf'] as const

// validation

/** Why a package name cannot be used (undefined: it can). */
export const nameProblem = (name: string, provider: Provider = 'auto'): string | undefined => {
  const r = Name.checkFor(provider, name)
  return E.isLeft(r) ? Invalid.message(r.left) : undefined
}

/** A version's parser for the provider: Debian's for apt, rpm's for dnf, both (Debian's refusal first) for auto. */
const parserOf =
  (provider: Provider) =>
  (v: string): E.Either<Invalid.Invalid, unknown> => {
    if (provider === 'dnf') return RpmVersion.parse(v)
    const d = DebianVersion.parse(v)
    return provider === 'apt' || E.isLeft(d) ? d : RpmVersion.parse(v)
  }

/** Reads an `ensure` text as the decision table does, with the provider's version syntax. */
export const ensureOf = (text: string, provider: Provider = 'auto'): E.Either<Invalid.Invalid, Decision.Ensure> => Decision.ensureOf(text, parserOf(provider))

const hints: Readonly<Record<Provider, string>> = {
  apt: 'apt package names are lower-case letters, digits and + - . (an optional :arch), as `apt-cache policy` lists them',
  dnf: 'rpm package names are letters, digits and . _ + -, as `rpm -q` lists them',
  auto: 'without a provider, a name must suit apt and dnf: lower-case letters, digits and + - . (name provider: apt for an :arch qualifier)',
}

// decoding

/** Decodes a package entry; every problem is reported with its position. */
export const decode = (raw: RawResource, scope: Scope): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, PackageSpec> => {
  const id = ResourceId.make(raw.type, raw.name)
  const { problems, fail, str } = Fields.make(id, scope)
  // the provider first: it decides which names and versions are valid
  let provider: Provider = 'auto'
  for (const e of raw.props) {
    if (e.key !== 'provider') continue
    const v = str(e)
    if (v === 'apt' || v === 'dnf') provider = v
    else if (v !== undefined) fail('Validation', `unknown package provider ${Invalid.quote(v)}`, e.value.at, `package providers: ${providers.join(', ')} (leave provider out for the machine's)`)
  }
  const nameWhy = nameProblem(raw.name, provider)
  if (nameWhy !== undefined) fail('Validation', nameWhy, raw.nameAt, hints[provider])
  let ensure = 'present'
  for (const e of raw.props) {
    switch (e.key) {
      case 'ensure': {
        const v = str(e)
        if (v === undefined) break
        const r = ensureOf(v, provider)
        if (E.isLeft(r)) fail('Validation', `ensure is not present, absent, latest or a valid version: ${Invalid.message(r.left)}`, e.value.at, 'ensure is present (the default), absent, latest, or an exact version such as "2.10-3" (apt) or "1.24.0-1.el9" (dnf)')
        else ensure = v
        break
      }
      case 'provider':
        break
      default:
        fail('UnknownKey', `unknown property "${e.key}" for a package resource`, e.keyAt, `allowed: ${keys.join(', ')}`)
    }
  }
  if (problems.length > 0) return E.left(problems)
  return E.right({ _tag: 'package', id, name: raw.name, at: raw.nameAt, ensure, provider })
}
