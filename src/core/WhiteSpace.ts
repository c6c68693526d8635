// WhiteSpace: sets of white-space characters, and trimming by them in time linear in the string.
// The regular expression `^[ws]+|[ws]+$` looks like a trim, but where the end branch fails it is
// tried again at every later position: a run of n white-space characters inside the string costs
// n²/2 steps (200,000 spaces: minutes). Here each end is walked once, inwards, and never past the
// other, so a string costs at most its length.
//
// Strings are read by UTF-16 code units. Every set here holds only characters of the Basic
// Multilingual Plane and no surrogates, so this trims exactly what the regular expression of the
// set trims, with or without the `u` flag.

// model

/** A set of white-space characters, as a test of one UTF-16 code unit. */
export type Chars = (unit: number) => boolean

// constructors

/**
 * Go's unicode.IsSpace, which strings.TrimSpace trims by: `\t \n \v \f \r`, space, U+0085 (NEL),
 * U+00A0 (NBSP) and the other White_Space characters (U+1680, U+2000–U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000). Unlike JavaScript's `\s`, it holds NEL and not U+FEFF.
 */
export const go: Chars = (u) =>
  u <= 0x20 ? u === 0x20 || (u >= 0x09 && u <= 0x0d) : u < 0x85 ? false : u <= 0xa0 ? u === 0x85 || u === 0xa0 : u === 0x1680 || (u >= 0x2000 && u <= 0x200a) || u === 0x2028 || u === 0x2029 || u === 0x202f || u === 0x205f || u === 0x3000

/** Go's regexp `\s` (Perl's class, ASCII only): `\t \n \f \r` and space, without `\v`. */
export const goRegexp: Chars = (u) => u === 0x20 || u === 0x09 || u === 0x0a || u === 0x0c || u === 0x0d

/** Space and tab: what bash's `read` splits words by (IFS), and what it strips from a line. */
export const blank: Chars = (u) => u === 0x20 || u === 0x09

// combinators

/** `s` without the characters of `set` at its start and its end. */
export const trim = (s: string, set: Chars): string => {
  let start = 0
  let end = s.length
  while (start < end && set(s.charCodeAt(start))) start++
  while (end > start && set(s.charCodeAt(end - 1))) end--
  return start === 0 && end === s.length ? s : s.slice(start, end)
}

/** `s` without the characters of `set` at its end. */
export const trimEnd = (s: string, set: Chars): string => {
  let end = s.length
  while (end > 0 && set(s.charCodeAt(end - 1))) end--
  return end === s.length ? s : s.slice(0, end)
}

/** Go's strings.TrimSpace. */
export const trimGo = (s: string): string => trim(s, go)
