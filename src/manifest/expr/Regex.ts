// Regex: the patterns `matches` takes, compiled by our RE2 engine (../Re2.ts): Go's syntax, Go's
// error messages and linear-time matching, so a manifest's pattern means what it means in CCM
// and cannot make plan time out by backtracking.
import * as E from 'fp-ts/lib/Either.js'
import * as Re2 from '../../re2/Re2.js'

const cache = new Map<string, E.Either<string, Re2.Regex>>()

/** Compiles an RE2 pattern, or Go's error ("error parsing regexp: ..."). */
export const compile = (pattern: string): E.Either<string, Re2.Regex> => {
  const hit = cache.get(pattern)
  if (hit !== undefined) return hit
  const out = Re2.compileRegex(pattern)
  if (cache.size > 500) cache.clear()
  cache.set(pattern, out)
  return out
}
