// probes: the interpreter of `service` requests (what systemd says of a unit). A batch is one
// status query for all its units (one `systemctl show` for the whole round); a manager that
// cannot answer is the same Left for every unit of the batch.
import * as E from 'fp-ts/lib/Either.js'
import type { Family } from '../../core/Observation.js'
import type { Manager } from './Manager.js'

/** The `service` family over a manager (made on the first request). */
export const family = (manager: () => Manager): Family => ({
  merge: true,
  answer: async (bodies) => {
    const names = (bodies as ReadonlyArray<{ readonly name: string }>).map((b) => b.name)
    const r = await manager().status(names)
    return E.isLeft(r) ? names.map(() => r) : r.right.map((u) => E.right(u))
  },
})
