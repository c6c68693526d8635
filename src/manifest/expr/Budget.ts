// Budget: how much an expression may compute. Every string a manifest's expressions build is
// bounded in length, every list in items, and every evaluation in steps, checked before the
// allocation where a result could grow by a factor (replace, join, +, split), so that a hostile
// or careless manifest is refused in milliseconds with a clear error instead of exhausting memory.
import * as E from 'fp-ts/lib/Either.js'

/** The longest string an expression may build (UTF-16 code units, about 16 MiB of text). */
export const maxString = 16 * 1024 * 1024

/** The most items a list an expression builds may hold (expr-lang's memory budget for ranges). */
export const maxItems = 1_000_000

/** The most evaluation steps (nodes evaluated) one expression or template may take. */
export const maxSteps = 1_000_000

/**
 * The most work one expression or template may do, beyond its steps: a step that builds a list of
 * a million items or compares two values of a million parts is one step, and a loop of a million
 * such steps would run for days. Each step is charged what it builds (a string's characters; a
 * list's items or a map's entries, `partWork` each) and what an operator reads of its operands
 * (`Shape`: every part, as deep equality and `in` walk them).
 */
export const maxWork = 256 * 1024 * 1024

/** The work of one item of a list or entry of a map (a character's is 1): making one (an int of a range, say) costs some 64 times a character's copy. */
export const partWork = 64

/** The deepest value an expression may build (as deep as data and facts may nest: core/Depth.maxData). */
export const maxDepth = 200

/** Refuses a string result of `length` before it is built. */
export const string = (what: string, length: number): E.Either<string, void> =>
  length > maxString ? E.left(`${what}: the result would be longer than the limit of ${maxString} characters`) : E.right(undefined)

/** Refuses a list result of `count` items before it is built. */
export const items = (what: string, count: number): E.Either<string, void> =>
  count > maxItems ? E.left(`${what}: the result would have more than the limit of ${maxItems} items`) : E.right(undefined)

/** Occurrences of `needle` in `s` (non-overlapping, as split and replace count them), up to `n` (n < 0: all). */
export const occurrences = (s: string, needle: string, n: number): number => {
  let count = 0
  for (let at = s.indexOf(needle); at >= 0 && (n < 0 || count < n); at = s.indexOf(needle, at + needle.length)) count += 1
  return count
}

/** Code points in a string, counted without building an array of them. */
export const codePoints = (s: string): number => {
  let count = 0
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i += 1
    }
    count += 1
  }
  return count
}
