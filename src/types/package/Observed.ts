// Observed: what plait knows of a package once the package manager answered (pure): the provider
// that answered (whose version order the plan compares in), the version installed (only dpkg's
// `installed` state counts), dpkg's word for its state, the version the package manager would
// install now, the digest the staleness check compares, and a summary.
import * as Digest from '../../core/Digest.js'
import * as Decision from './Decision.js'
import type * as DpkgStatus from './DpkgStatus.js'
import type * as AptPolicy from './AptPolicy.js'
import type * as Nevra from './Nevra.js'
import type * as RpmQuery from './RpmQuery.js'
import * as RpmVersion from './RpmVersion.js'

// model

/** The package managers plait drives. */
export type Provider = 'apt' | 'dnf'

export interface Observed {
  /** Which package manager answered: apt's versions are Debian versions, dnf's rpm EVRs. */
  readonly provider: Provider
  readonly installed: Decision.Installed
  /** dpkg's state word (`installed`, `config-files`, ...); undefined when dpkg has no record of the package. */
  readonly state: string | undefined
  /** The version `apt-get install NAME` would install now; undefined when none is available. */
  readonly candidate: string | undefined
}

// constructors

/** What dpkg and apt said of one package (policy undefined: apt-cache does not know it). */
export const ofApt = (status: DpkgStatus.PackageStatus, policy: AptPolicy.Policy | undefined): Observed =>
  Object.freeze({
    provider: 'apt',
    installed: status._tag === 'Installed' ? Decision.installed(status.version) : Decision.notInstalled,
    state: status._tag === 'Installed' ? 'installed' : status.state,
    candidate: policy?.candidate,
  })

/** What rpm and dnf said of one package (available undefined: no repository offers it); versions as `[epoch:]version-release`. */
export const ofRpm = (status: RpmQuery.PackageStatus, available: Nevra.Nevra | undefined): Observed =>
  Object.freeze({
    provider: 'dnf',
    installed: status._tag === 'Installed' ? Decision.installed(RpmVersion.format(status.newest.evr)) : Decision.notInstalled,
    state: status._tag === 'Installed' ? 'installed' : undefined,
    candidate: available === undefined ? undefined : RpmVersion.format(available.evr),
  })

// interop

/** The candidate as the decision table reads it. */
export const candidateOf = (o: Observed): Decision.Candidate => (o.candidate === undefined ? { _tag: 'NoCandidate' } : { _tag: 'Candidate', version: o.candidate })

/** What the plan's decision depends on, digested (the candidate only for ensure latest): a change of it between plan and apply is drift. */
export const digest = (o: Observed, ensure: string): string =>
  Digest.ofValue({ installed: o.installed._tag === 'Installed' ? o.installed.version : null, candidate: ensure === 'latest' ? (o.candidate ?? null) : null })

/** One line for people: `installed at 1.0-1, 1.1-1 available` or `not installed (config-files), nothing available`. */
export const summary = (o: Observed): string => {
  const now = o.installed._tag === 'Installed' ? `installed at ${o.installed.version}` : `not installed${o.state === undefined || o.state === 'not-installed' ? '' : ` (${o.state})`}`
  return `${now}, ${o.candidate === undefined ? 'no version available' : `${o.candidate} available`}`
}

/** The same observation, as a value for tests and the memory double: installed at `version` (or not) with this candidate. */
export const of = (version: string | undefined, candidate: string | undefined, provider: Provider = 'apt'): Observed =>
  Object.freeze({ provider, installed: version === undefined ? Decision.notInstalled : Decision.installed(version), state: version === undefined ? undefined : 'installed', candidate })

