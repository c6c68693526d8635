// Regex: the patterns `matches` takes, compiled by our RE2 engine (../Re2.ts): Go's syntax, Go's
// error messages and linear-time matching, so a manifest's pattern means what it means in CCM
// and cannot make plan time out by backtracking.
import * as E from 'fp-ts/lib/Either.js'
import * as Re2 from '../../re2/Re2.js'

/**
 * What the cache may hold: at most `patterns` entries and `states` NFA states in all (a state
 * costs about ten bytes, so some 40 MB). A pattern is charged its states, at least one, since
 * a pattern of Go's largest size has millions of them: bounding the count of patterns alone
 * let a few dozen of those exhaust the heap. A pattern bigger than `onePattern` is compiled and
 * used but not kept, so that one giant does not push out every pattern a manifest reuses.
 */
export const cacheBounds = Object.freeze({ patterns: 500, states: 1 << 22, onePattern: 1 << 20 })

// Least recently used first (a hit moves its entry to the end); `held` is the sum of the costs.
const cache = new Map<string, E.Either<string, Re2.Regex>>()
let held = 0

const cost = (out: E.Either<string, Re2.Regex>): number => (E.isRight(out) ? Math.max(out.right.size, 1) : 1)

/** Compiles an RE2 pattern, or Go's error ("error parsing regexp: ..."). */
export const compile = (pattern: string): E.Either<string, Re2.Regex> => {
  const hit = cache.get(pattern)
  if (hit !== undefined) {
    cache.delete(pattern)
    cache.set(pattern, hit)
    return hit
  }
  const out = Re2.compileRegex(pattern)
  const n = cost(out)
  if (n > cacheBounds.onePattern) return out
  for (const [oldest, value] of cache) {
    if (cache.size < cacheBounds.patterns && held + n <= cacheBounds.states) break
    cache.delete(oldest)
    held -= cost(value)
  }
  cache.set(pattern, out)
  held += n
  return out
}

/** Whether a pattern is in the cache, and what the cache holds (for tests). */
export const inspect = (pattern: string): { readonly cached: boolean; readonly patterns: number; readonly states: number } =>
  Object.freeze({ cached: cache.has(pattern), patterns: cache.size, states: held })
