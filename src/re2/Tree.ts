// Tree: what a Go regular expression parses into (Syntax.ts makes it), its size as Go counts it,
// and Go's limits and error for patterns.
import type { Pred } from './Classes.js'

/** Zero-width assertions: ^ and $ (per line with m), \A, \z, \b, \B. */
export type Assertion = 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb'
/** A parsed pattern: characters as predicates, concatenation, alternation and repetition. */
export type Re =
  | { readonly t: 'empty' }
  | { readonly t: 'char'; readonly p: Pred }
  | { readonly t: 'assert'; readonly a: Assertion }
  | { readonly t: 'cat'; readonly xs: ReadonlyArray<Re> }
  | { readonly t: 'alt'; readonly xs: ReadonlyArray<Re> }
  | { readonly t: 'rep'; readonly x: Re; readonly min: number; readonly max: number; readonly counted: boolean }

/** The Perl flags in effect: i, m, s, U. */
export interface Flags {
  readonly fold: boolean
  readonly multiline: boolean
  readonly dotNL: boolean
  readonly ungreedy: boolean
}

/** Go's limits: a repeat count, the nesting depth, and the size of a compiled program. */
export const maxRepeat = 1000
export const maxNesting = 1000
export const maxSize = Math.floor((128 << 20) / 40)

export class RegexError extends Error {}

export const rxFail = (code: string, expr: string): never => {
  throw new RegexError(`error parsing regexp: ${code}: \`${expr}\``)
}

/**
 * The size of a tree, as Go counts it against its limit; with `empty` 0, the exact count of the
 * states our automaton makes of it (an empty tree makes none, where Go counts one).
 */
export const sizeOf = (re: Re, empty: 0 | 1 = 1): number => {
  switch (re.t) {
    case 'empty':
      return empty
    case 'char':
    case 'assert':
      return 1
    case 'cat':
      return re.xs.reduce((n, x) => n + sizeOf(x, empty), 0)
    case 'alt':
      return re.xs.reduce((n, x) => n + sizeOf(x, empty), re.xs.length - 1)
    case 'rep': {
      const one = sizeOf(re.x, empty)
      return re.max < 0 ? one * Math.max(re.min, 1) + 1 : one * re.max + (re.max - re.min)
    }
  }
}
