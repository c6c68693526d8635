// Spec: the package resource's properties, decoded and validated from a manifest entry (CCM's
// package type: `ensure` present, absent, latest or a version; the apt provider). The name must be
// one apt and dpkg take literally (Name.checkApt) and a version one Debian's ordering can read
// (DebianVersion), so nothing a manifest says can reach a package manager as an option or pattern.
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

// model

export interface PackageSpec {
  readonly _tag: 'package'
  readonly id: string
  /** The package's name (checked by Name.checkApt). */
  readonly name: string
  readonly at: Position
  /** As the manifest wrote it: present (the default), absent, latest, or a version. */
  readonly ensure: string
  readonly provider: 'apt'
}

/** The properties a package resource accepts. */
export const keys = ['ensure', 'provider'] as const

/** A provider CCM has that this plait does not have yet: named as not available, not as unknown. */
const notHere = 'dnf'

// validation

/** Why a package name cannot be used (undefined: it can). */
export const nameProblem = (name: string): string | undefined => {
  const r = Name.checkApt(name)
  return E.isLeft(r) ? Invalid.message(r.left) : undefined
}

/** Reads an `ensure` text as the decision table does, with Debian's version syntax. */
export const ensureOf = (text: string): E.Either<Invalid.Invalid, Decision.Ensure> => Decision.ensureOf(text, DebianVersion.parse)

// decoding

/** Decodes a package entry; every problem is reported with its position. */
export const decode = (raw: RawResource, scope: Scope): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, PackageSpec> => {
  const id = ResourceId.make(raw.type, raw.name)
  const { problems, fail, str } = Fields.make(id, scope)
  const nameWhy = nameProblem(raw.name)
  if (nameWhy !== undefined) fail('Validation', nameWhy, raw.nameAt, 'apt package names are lower-case letters, digits and + - . (an optional :arch), as `apt-cache policy` lists them')
  let ensure = 'present'
  for (const e of raw.props) {
    switch (e.key) {
      case 'ensure': {
        const v = str(e)
        if (v === undefined) break
        const r = ensureOf(v)
        if (E.isLeft(r)) fail('Validation', `ensure is not present, absent, latest or a valid version: ${Invalid.message(r.left)}`, e.value.at, 'ensure is present (the default), absent, latest, or an exact version such as "2.10-3"')
        else ensure = v
        break
      }
      case 'provider': {
        const v = str(e)
        if (v === notHere) fail('Validation', 'package provider "dnf" is not available here: this plait manages packages with apt only', e.value.at, 'leave provider out, or use apt')
        else if (v !== undefined && v !== 'apt') fail('Validation', `unknown package provider ${Invalid.quote(v)}`, e.value.at, 'package providers: apt')
        break
      }
      default:
        fail('UnknownKey', `unknown property "${e.key}" for a package resource`, e.keyAt, `allowed: ${keys.join(', ')}`)
    }
  }
  if (problems.length > 0) return E.left(problems)
  return E.right({ _tag: 'package', id, name: raw.name, at: raw.nameAt, ensure, provider: 'apt' })
}
