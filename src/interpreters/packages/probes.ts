// probes: the interpreter of `package` requests (what the package manager says of a package). A
// batch is one status query for all its packages (see Manager); a manager that cannot answer is
// the same Left for every package of the batch.
import * as E from 'fp-ts/lib/Either.js'
import type { Family } from '../../core/Observation.js'
import type { Manager } from './Manager.js'

/** The `package` family over a manager (made on the first request). */
export const family = (manager: () => Manager): Family => ({
  merge: true,
  answer: async (bodies) => {
    const names = (bodies as ReadonlyArray<{ readonly name: string }>).map((b) => b.name)
    const r = await manager().status(names)
    return E.isLeft(r) ? names.map(() => r) : r.right.map((o) => E.right(o))
  },
})
