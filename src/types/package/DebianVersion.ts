// DebianVersion: a Debian package version, `[epoch:]upstream_version[-debian_revision]`, parsed by
// the Debian Policy Manual's rules (5.6.12) and ordered as dpkg orders it (`dpkg
// --compare-versions`): epochs numerically, then the upstream version, then the revision, each by
// the alternating non-digit/digit comparison in which `~` sorts before everything (even the end of
// the string) and letters sort before every other character.
import * as E from 'fp-ts/lib/Either.js'
import type * as Ord from 'fp-ts/lib/Ord.js'
import type { Ordering } from 'fp-ts/lib/Ordering.js'
import * as Invalid from './Invalid.js'

// model

export interface DebianVersion {
  /** A whole number from 0 to 2^31 - 1 (dpkg's limit); 0 when the version names none. */
  readonly epoch: number
  /** Non-empty; starts with a digit; letters, digits and `. + ~ -` (a `-` only when a revision follows). */
  readonly upstream: string
  /** Empty when the version has none; otherwise letters, digits and `. + ~`. */
  readonly revision: string
}

/** dpkg's largest epoch (INT_MAX). */
export const maxEpoch = 2147483647

// constructors

const what = 'Debian version'
const upstreamChars = /^[A-Za-z0-9.+~-]*$/
const revisionChars = /^[A-Za-z0-9.+~]*$/

/** Parses a version by the policy's rules, or says which rule it breaks. */
export const parse = (text: string): E.Either<Invalid.Invalid, DebianVersion> => {
  const bad = (reason: string) => E.left(Invalid.invalid(what, text, reason))
  if (text === '') return bad('is empty')
  if (/\s/u.test(text)) return bad('contains whitespace')
  const colon = text.indexOf(':')
  let epoch = 0
  let rest = text
  if (colon >= 0) {
    const e = text.slice(0, colon)
    if (e === '') return bad('has an empty epoch before ":"')
    if (!/^[0-9]+$/.test(e)) return bad('has an epoch that is not a whole number')
    const digits = e.replace(/^0+(?=.)/, '')
    if (digits.length > 10 || Number(digits) > maxEpoch) return bad(`has an epoch above ${maxEpoch}`)
    epoch = Number(digits)
    rest = text.slice(colon + 1)
  }
  const hyphen = rest.lastIndexOf('-')
  const upstream = hyphen >= 0 ? rest.slice(0, hyphen) : rest
  const revision = hyphen >= 0 ? rest.slice(hyphen + 1) : ''
  if (hyphen >= 0 && revision === '') return bad('has an empty revision after the last "-"')
  if (upstream === '') return bad('has an empty upstream version')
  if (!/^[0-9]/.test(upstream)) return bad('has an upstream version that does not start with a digit')
  if (!upstreamChars.test(upstream)) return bad(`has ${Invalid.offending(upstream, /[A-Za-z0-9.+~-]/)} in its upstream version, which allows only letters, digits and . + ~ -`)
  if (!revisionChars.test(revision)) return bad(`has ${Invalid.offending(revision, /[A-Za-z0-9.+~]/)} in its revision, which allows only letters, digits and . + ~`)
  return E.right(Object.freeze({ epoch, upstream, revision }))
}

// combinators

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/**
 * The weight of one character in a non-digit run: `~` lowest (below the end of the string, 0),
 * letters by their code, every other character after all letters.
 */
const weight = (s: string, i: number): number => {
  if (i >= s.length) return 0
  const c = s.charCodeAt(i)
  if (isDigit(c)) return 0
  if (isLetter(c)) return c
  if (c === 126) return -1
  return c + 256
}

const sign = (n: number): Ordering => (n < 0 ? -1 : n > 0 ? 1 : 0)

/** Orders two upstream versions (or two revisions) by the policy's alternating algorithm. */
export const comparePart = (a: string, b: string): Ordering => {
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    // the non-digit runs, character by character
    while ((i < a.length && !isDigit(a.charCodeAt(i))) || (j < b.length && !isDigit(b.charCodeAt(j)))) {
      const d = weight(a, i) - weight(b, j)
      if (d !== 0) return sign(d)
      i += 1
      j += 1
    }
    // the digit runs, as numbers of any length: leading zeros skipped, then the longer is larger
    while (a.charCodeAt(i) === 48) i += 1
    while (b.charCodeAt(j) === 48) j += 1
    let first = 0
    while (i < a.length && j < b.length && isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (first === 0) first = a.charCodeAt(i) - b.charCodeAt(j)
      i += 1
      j += 1
    }
    if (i < a.length && isDigit(a.charCodeAt(i))) return 1
    if (j < b.length && isDigit(b.charCodeAt(j))) return -1
    if (first !== 0) return sign(first)
  }
  return 0
}

/** Orders two versions as `dpkg --compare-versions` does: epoch, then upstream, then revision. */
export const compare = (a: DebianVersion, b: DebianVersion): Ordering => {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1
  const u = comparePart(a.upstream, b.upstream)
  return u !== 0 ? u : comparePart(a.revision, b.revision)
}

/** Orders two version texts, or says which of them is malformed. */
export const compareText: (a: string, b: string) => E.Either<Invalid.Invalid, Ordering> = Invalid.onTexts(parse, compare)

/** The order of versions as an fp-ts Ord (a total preorder: `1.0` and `1.00` are equivalent). */
export const ord: Ord.Ord<DebianVersion> = { equals: (a, b) => compare(a, b) === 0, compare }

// interop

/** The version as dpkg prints it: the epoch only when it is not 0, the revision only when it is not empty. */
export const format = (v: DebianVersion): string => `${v.epoch === 0 ? '' : `${v.epoch}:`}${v.upstream}${v.revision === '' ? '' : `-${v.revision}`}`
