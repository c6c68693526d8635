// probes: the interpreter of `libral` requests (what a provider finds of a resource name). A batch
// asks each provider once, in the order of their full names: one `list` for all its names, or one
// `find` when it is asked about a single name and can find (see Session.observe). A failed run of a
// provider is the same Left for each of its names.
import * as E from 'fp-ts/lib/Either.js'
import type { Family } from '../../core/Observation.js'
import type { Target } from './invoke.js'
import type { Session } from './Session.js'

/** The `libral` family over a session; a request names its provider's target (plan) or `target` resolves it by full name (apply). */
export const family = (session: () => Promise<Session>, target?: (qname: string) => Target): Family => ({
  merge: true,
  answer: async (bodies) => {
    const asked = bodies as ReadonlyArray<{ readonly provider: string; readonly name: string; readonly target?: Target }>
    const s = await session()
    const out = new Array<unknown>(asked.length)
    for (const provider of [...new Set(asked.map((b) => b.provider))].sort()) {
      const mine = asked.flatMap((b, i) => (b.provider === provider ? [i] : []))
      const t = asked[mine[0]!]!.target ?? target?.(provider)
      if (t === undefined) throw new Error(`invariant: provider ${provider} is asked about without its target`)
      const seen = await s.observe(t, mine.map((i) => asked[i]!.name))
      for (const i of mine) out[i] = E.isLeft(seen) ? seen : E.right({ found: seen.right.get(asked[i]!.name)!, meta: t.meta })
    }
    return out
  },
})
