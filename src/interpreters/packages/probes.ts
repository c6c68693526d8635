// probes: the interpreter of `package` requests (what the package manager says of a package). A
// batch is one status query per provider named for all its packages (see Manager); a manager that
// cannot answer is the same Left for every package of its query.
import * as E from 'fp-ts/lib/Either.js'
import type { Family } from '../../core/Observation.js'
import type { Manager, Provider } from './Manager.js'

/** The `package` family over a manager (made on the first request). */
export const family = (manager: () => Manager): Family => ({
  merge: true,
  answer: async (bodies) => {
    const asked = bodies as ReadonlyArray<{ readonly name: string; readonly provider?: Provider }>
    const answers: unknown[] = new Array(asked.length)
    const providers = [...new Set(asked.map((b) => b.provider ?? 'auto'))]
    for (const provider of providers) {
      const at = asked.flatMap((b, i) => ((b.provider ?? 'auto') === provider ? [i] : []))
      const r = await manager().status(at.map((i) => asked[i]!.name), provider)
      at.forEach((i, k) => (answers[i] = E.isLeft(r) ? r : E.right(r.right[k])))
    }
    return answers
  },
})
