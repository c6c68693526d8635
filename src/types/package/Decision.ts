// Decision: the package type's decision table (the spec's "Apply Logic" and "Decision Table"):
// what `ensure` asks, what is installed and what the package manager would install decide one
// action, with its reason and the spec's noop message. It compares versions through the
// provider's order (DebianVersion for apt, RpmVersion for dnf), so it serves both.
//
// `ensure: latest` is planned against the candidate observed at plan time: an installed package
// at (or above) the candidate plans nothing, so a converged machine plans nothing; where no
// candidate could be observed the spec's rule holds (upgrade always runs) and the reason says why.
import * as E from 'fp-ts/lib/Either.js'
import type { Ordering } from 'fp-ts/lib/Ordering.js'
import * as Invalid from './Invalid.js'
import * as Name from './Name.js'

// model

export type Ensure = { readonly _tag: 'Present' } | { readonly _tag: 'Absent' } | { readonly _tag: 'Latest' } | { readonly _tag: 'Version'; readonly version: string }

/** What is installed: a version, or nothing (every dpkg state but `installed` is nothing). */
export type Installed = { readonly _tag: 'Installed'; readonly version: string } | { readonly _tag: 'NotInstalled' }

/** What the package manager would install now (apt's candidate, dnf's newest available). */
export type Candidate =
  | { readonly _tag: 'Candidate'; readonly version: string }
  /** The package manager was asked and offers no version. */
  | { readonly _tag: 'NoCandidate' }
  /** It was not asked (ensure is not latest) or could not answer. */
  | { readonly _tag: 'Unobserved' }

/** Orders an installed version against a wanted one, in the provider's order; Left for a malformed version. */
export type Compare = (installed: string, wanted: string) => E.Either<Invalid.Invalid, Ordering>

/**
 * One action. `to` is the version asked of the package manager; undefined means "whatever it
 * picks" (ensure present, or latest when no candidate was seen). `seen` is the candidate observed
 * at plan time, shown to people when `to` is undefined.
 */
export type Action =
  | { readonly _tag: 'Nothing'; readonly reason: string }
  | { readonly _tag: 'Install'; readonly to: string | undefined; readonly seen: string | undefined; readonly reason: string; readonly noop: string }
  | { readonly _tag: 'Upgrade'; readonly from: string; readonly to: string | undefined; readonly reason: string; readonly noop: string }
  | { readonly _tag: 'Downgrade'; readonly from: string; readonly to: string; readonly reason: string; readonly noop: string }
  | { readonly _tag: 'Remove'; readonly from: string; readonly reason: string; readonly noop: string }

// constructors

export const present: Ensure = Object.freeze({ _tag: 'Present' })
export const absent: Ensure = Object.freeze({ _tag: 'Absent' })
export const latest: Ensure = Object.freeze({ _tag: 'Latest' })
export const installed = (version: string): Installed => Object.freeze({ _tag: 'Installed', version })
export const notInstalled: Installed = Object.freeze({ _tag: 'NotInstalled' })

/** Reads an `ensure` value: present, absent, latest, or a version the provider's parser accepts. */
export const ensureOf = (text: string, parseVersion: (v: string) => E.Either<Invalid.Invalid, unknown>): E.Either<Invalid.Invalid, Ensure> => {
  if (text === 'present') return E.right(present)
  if (text === 'absent') return E.right(absent)
  if (text === 'latest') return E.right(latest)
  const checked = Name.checkVersion(text)
  if (E.isLeft(checked)) return checked
  const parsed = parseVersion(text)
  return E.isLeft(parsed) ? parsed : E.right(Object.freeze({ _tag: 'Version', version: text }))
}

const nothing = (reason: string): Action => Object.freeze({ _tag: 'Nothing', reason })

/** The action that brings what is installed to what `ensure` asks. */
export const decide = (ensure: Ensure, now: Installed, candidate: Candidate, compare: Compare): E.Either<Invalid.Invalid, Action> => {
  switch (ensure._tag) {
    case 'Absent':
      return E.right(now._tag === 'NotInstalled' ? nothing('not installed') : Object.freeze({ _tag: 'Remove', from: now.version, reason: `installed at ${now.version}, ensure is absent`, noop: 'Would have uninstalled' }))
    case 'Present':
      return E.right(now._tag === 'Installed' ? nothing(`installed at ${now.version}`) : install(false, candidate, 'not installed'))
    case 'Latest': {
      if (now._tag === 'NotInstalled') return E.right(install(true, candidate, 'not installed, ensure is latest'))
      if (candidate._tag === 'NoCandidate') return E.right(nothing(`installed at ${now.version}; no version is available to upgrade to`))
      if (candidate._tag === 'Unobserved') {
        return E.right(Object.freeze({ _tag: 'Upgrade', from: now.version, to: undefined, reason: `installed at ${now.version}; the newest available version could not be observed, so the package manager decides`, noop: 'Would have upgraded to latest' }))
      }
      return E.map((o: Ordering): Action =>
        o < 0
          ? Object.freeze({ _tag: 'Upgrade', from: now.version, to: candidate.version, reason: `installed at ${now.version}, the newest available is ${candidate.version}`, noop: 'Would have upgraded to latest' })
          : nothing(`installed at ${now.version}, the newest available is ${candidate.version}`),
      )(compare(now.version, candidate.version))
    }
    case 'Version': {
      const want = ensure.version
      if (now._tag === 'NotInstalled') return E.right(Object.freeze({ _tag: 'Install', to: want, seen: undefined, reason: `not installed, ensure is ${want}`, noop: `Would have installed version ${want}` }))
      return E.map((o: Ordering): Action =>
        o < 0
          ? Object.freeze({ _tag: 'Upgrade', from: now.version, to: want, reason: `installed at ${now.version}, older than ${want}`, noop: `Would have upgraded to ${want}` })
          : o > 0
            ? Object.freeze({ _tag: 'Downgrade', from: now.version, to: want, reason: `installed at ${now.version}, newer than ${want}`, noop: `Would have downgraded to ${want}` })
            : nothing(`installed at ${now.version}`),
      )(compare(now.version, want))
    }
  }
}

/** Install the newest version: the candidate seen when `pin` (ensure latest) and one was seen, else the package manager's pick. */
const install = (pin: boolean, candidate: Candidate, why: string): Action => {
  const seen = candidate._tag === 'Candidate' ? candidate.version : undefined
  const more = seen !== undefined ? `; the newest available is ${seen}` : candidate._tag === 'NoCandidate' ? '; no version is available, so installing will fail' : ''
  return Object.freeze({ _tag: 'Install', to: pin ? seen : undefined, seen, reason: `${why}${more}`, noop: 'Would have installed latest' })
}

// guards

/** The spec's desired-state validation: present and latest need any version, absent none, a version that one. */
export const isDesired = (ensure: Ensure, now: Installed, compare: Compare): E.Either<Invalid.Invalid, boolean> => {
  switch (ensure._tag) {
    case 'Absent':
      return E.right(now._tag === 'NotInstalled')
    case 'Present':
    case 'Latest':
      return E.right(now._tag === 'Installed')
    case 'Version':
      return now._tag === 'NotInstalled' ? E.right(false) : E.map((o: Ordering) => o === 0)(compare(now.version, ensure.version))
  }
}

// interop

/** The action as a plan shows it: "install hello 2.10-3", "upgrade hello 1.0-1 → 1.0-2", "remove hello 1.0-1". */
export const summary = (name: string, a: Action): string => {
  switch (a._tag) {
    case 'Nothing':
      return `nothing to do for ${name}`
    case 'Install':
      return `install ${name}${a.to === undefined ? (a.seen === undefined ? '' : ` (${a.seen} at plan time)`) : ` ${a.to}`}`
    case 'Upgrade':
      return `upgrade ${name} ${a.from} → ${a.to ?? 'latest'}`
    case 'Downgrade':
      return `downgrade ${name} ${a.from} → ${a.to}`
    case 'Remove':
      return `remove ${name} ${a.from}`
  }
}
