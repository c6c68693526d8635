// RpmVersion: an rpm EVR, `[epoch:]version[-release]`, and rpm's own order of them (rpmvercmp over
// epoch, version and release, as `rpm.vercmp` and dnf decide what is newer).
//
// The spec's DNF section describes Puppet's generic comparison instead (leading zeros compared as
// text, so `01 < 1`; an optional "ignore trailing zeroes"). plait follows rpm: dnf installs and
// upgrades by rpm's order, so a plan that compared otherwise could call `1.01` older than `1.1`
// and plan a change dnf then makes no sense of. The tests check this module against rpm itself.
import * as E from 'fp-ts/lib/Either.js'
import type * as Ord from 'fp-ts/lib/Ord.js'
import type { Ordering } from 'fp-ts/lib/Ordering.js'
import * as Invalid from './Invalid.js'

// model

export interface Evr {
  /** Digits without leading zeros; "0" when the text names no epoch. */
  readonly epoch: string
  /** Non-empty: letters, digits and `. _ + ~ ^`. */
  readonly version: string
  /** Letters, digits and `. _ + ~ ^`, non-empty; undefined when the text names none. */
  readonly release: string | undefined
}

// constructors

const what = 'rpm version'
const part = /^[A-Za-z0-9._+~^]+$/
const partChar = /[A-Za-z0-9._+~^]/

/** Parses `[epoch:]version[-release]` as rpm splits it, refusing what rpm would not build. */
export const parse = (text: string): E.Either<Invalid.Invalid, Evr> => {
  const bad = (reason: string) => E.left(Invalid.invalid(what, text, reason))
  if (text === '') return bad('is empty')
  if (/\s/u.test(text)) return bad('contains whitespace')
  const colon = text.indexOf(':')
  let epoch = '0'
  let rest = text
  if (colon >= 0) {
    const e = text.slice(0, colon)
    if (e === '') return bad('has an empty epoch before ":"')
    if (!/^[0-9]+$/.test(e)) return bad('has an epoch that is not a whole number')
    epoch = e.replace(/^0+(?=.)/, '')
    rest = text.slice(colon + 1)
  }
  const hyphen = rest.lastIndexOf('-')
  const version = hyphen >= 0 ? rest.slice(0, hyphen) : rest
  const release = hyphen >= 0 ? rest.slice(hyphen + 1) : undefined
  if (version === '') return bad('has an empty version')
  if (release === '') return bad('has an empty release after the last "-"')
  const odd = (s: string) => Invalid.offending(s, partChar)
  if (!part.test(version)) return bad(`has ${odd(version)} in its version, which allows only letters, digits and . _ + ~ ^`)
  if (release !== undefined && !part.test(release)) return bad(`has ${odd(release)} in its release, which allows only letters, digits and . _ + ~ ^`)
  return E.right(Object.freeze({ epoch, version, release }))
}

// combinators

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const TILDE = 126
const CARET = 94

/**
 * rpm's rpmvercmp: split into runs of digits and runs of ASCII letters, everything else separating
 * them; digits runs compare as numbers (leading zeros ignored) and beat letter runs; letter runs
 * compare as bytes; `~` sorts before anything, even the end; `^` sorts after the end but before
 * anything else; then the text with runs left over is newer.
 */
export const compareSegments = (a: string, b: string): Ordering => {
  if (a === b) return 0
  let i = 0
  let j = 0
  const code = (s: string, k: number): number => (k < s.length ? s.charCodeAt(k) : 0)
  const sep = (c: number): boolean => c !== 0 && !isDigit(c) && !isLetter(c) && c !== TILDE && c !== CARET
  while (i < a.length || j < b.length) {
    while (sep(code(a, i))) i += 1
    while (sep(code(b, j))) j += 1
    const ca = code(a, i)
    const cb = code(b, j)
    if (ca === TILDE || cb === TILDE) {
      if (ca !== TILDE) return 1
      if (cb !== TILDE) return -1
      i += 1
      j += 1
      continue
    }
    if (ca === CARET || cb === CARET) {
      if (ca === 0) return -1
      if (cb === 0) return 1
      if (ca !== CARET) return 1
      if (cb !== CARET) return -1
      i += 1
      j += 1
      continue
    }
    if (ca === 0 || cb === 0) break
    const numeric = isDigit(ca)
    const inRun = numeric ? isDigit : isLetter
    let ei = i
    let ej = j
    while (ei < a.length && inRun(a.charCodeAt(ei))) ei += 1
    while (ej < b.length && inRun(b.charCodeAt(ej))) ej += 1
    // b's run is of the other kind: a number beats letters
    if (ej === j) return numeric ? 1 : -1
    let ra = a.slice(i, ei)
    let rb = b.slice(j, ej)
    if (numeric) {
      ra = ra.replace(/^0+/, '')
      rb = rb.replace(/^0+/, '')
      if (ra.length !== rb.length) return ra.length > rb.length ? 1 : -1
    }
    if (ra !== rb) return ra < rb ? -1 : 1
    i = ei
    j = ej
  }
  const endA = i >= a.length
  const endB = j >= b.length
  if (endA && endB) return 0
  return endA ? -1 : 1
}

/**
 * Orders two EVRs as `rpm.vercmp` does: epoch, version, then release, where an EVR that names no
 * release sorts before one that names any.
 */
export const compare = (a: Evr, b: Evr): Ordering => {
  const e = compareSegments(a.epoch, b.epoch)
  if (e !== 0) return e
  const v = compareSegments(a.version, b.version)
  if (v !== 0) return v
  if (a.release === undefined || b.release === undefined) return a.release === b.release ? 0 : a.release === undefined ? -1 : 1
  return compareSegments(a.release, b.release)
}

/**
 * Orders an installed EVR against a wanted one as dnf matches `name-version`: a wanted EVR that
 * names no release is met by any release of its version (so `ensure: "5.8"` is met by `5.8-9.el9`).
 */
export const compareWanted = (installed: Evr, wanted: Evr): Ordering =>
  wanted.release === undefined ? compare({ ...installed, release: undefined }, wanted) : compare(installed, wanted)

/** Orders two EVR texts, or says which of them is malformed. */
export const compareText: (a: string, b: string) => E.Either<Invalid.Invalid, Ordering> = Invalid.onTexts(parse, compare)

/** Orders an installed EVR text against a wanted one as `compareWanted` does, or says which is malformed. */
export const compareWantedText: (installed: string, wanted: string) => E.Either<Invalid.Invalid, Ordering> = Invalid.onTexts(parse, compareWanted)

/** The order of EVRs as an fp-ts Ord (a total preorder: `1.01` and `1.1` are equivalent). */
export const ord: Ord.Ord<Evr> = { equals: (a, b) => compare(a, b) === 0, compare }

// interop

/** The EVR as rpm and dnf print it: the epoch only when it is not 0. */
export const format = (v: Evr): string => `${v.epoch === '0' ? '' : `${v.epoch}:`}${v.version}${v.release === undefined ? '' : `-${v.release}`}`
