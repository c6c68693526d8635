// run: the interpreter of observation programs. Each round takes the pending requests of every
// program, groups them by family, asks each family its batch (equal keys once, unless the family
// runs every request, as commands do), and feeds the answers back, until every program is done.
// Families are asked one after another, in the order their first request appears, so a batch of
// guard commands runs in manifest order and never beside another family's work.
import type { Families, Observation, Request } from '../core/Observation.js'
import * as Obs from '../core/Observation.js'

// running

/** Answers one round of requests. */
const round = async (requests: ReadonlyArray<Request>, families: Families): Promise<unknown[]> => {
  const answers = new Array<unknown>(requests.length)
  const order: string[] = []
  const byFamily = new Map<string, number[]>()
  requests.forEach((r, i) => {
    let list = byFamily.get(r.family)
    if (list === undefined) {
      list = []
      byFamily.set(r.family, list)
      order.push(r.family)
    }
    list.push(i)
  })
  for (const name of order) {
    const family = families(name)
    if (family === undefined) throw new Error(`invariant: no interpreter of ${name} requests in this run`)
    const indices = byFamily.get(name)!
    if (!family.merge) {
      const got = await family.answer(indices.map((i) => requests[i]!.body))
      indices.forEach((i, k) => (answers[i] = got[k]))
      continue
    }
    const slot = new Map<string, number>()
    const bodies: unknown[] = []
    for (const i of indices) {
      const key = requests[i]!.key
      if (!slot.has(key)) {
        slot.set(key, bodies.length)
        bodies.push(requests[i]!.body)
      }
    }
    const got = await family.answer(bodies)
    for (const i of indices) answers[i] = got[slot.get(requests[i]!.key)!]
  }
  return answers
}

/** Runs one program to its end. */
export const run = async <A>(program: Observation<A>, families: Families): Promise<A> => {
  let p = program
  while (p._tag === 'Ask') p = p.next(await round(p.requests, families))
  return p.value
}

/** Runs programs side by side (their requests batched round by round); results in their order. */
export const runAll = async <A>(programs: ReadonlyArray<Observation<A>>, families: Families): Promise<ReadonlyArray<A>> => run(Obs.all(programs), families)
