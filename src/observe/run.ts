// run: the interpreter of observation programs. Each round takes the pending requests of every
// program, groups them by family, asks each family its batch (equal keys once, unless the family
// runs every request, as commands do), and feeds the answers back, until every program is done.
// Families are asked one after another, in the order their first request appears, so a batch of
// guard commands runs in manifest order and never beside another family's work.
import type { Families, Family, Observation, Request } from '../core/Observation.js'
import * as Obs from '../core/Observation.js'

// running

/** The family of a request, or a bug in the caller that opened the run without it. */
const familyOf = (families: Families, name: string): Family => {
  const family = families(name)
  if (family === undefined) throw new Error(`invariant: no interpreter of ${name} requests in this run`)
  return family
}

/** Answers the requests at `indices` (all of one family), writing each answer at its request's index. */
const answerSome = async (requests: ReadonlyArray<Request>, indices: ReadonlyArray<number>, family: Family, answers: unknown[]): Promise<void> => {
  if (!family.merge) {
    const got = await family.answer(indices.map((i) => requests[i]!.body))
    for (let k = 0; k < indices.length; k++) answers[indices[k]!] = got[k]
    return
  }
  const slot = new Map<string, number>()
  const slots = new Array<number>(indices.length)
  const bodies: unknown[] = []
  for (let k = 0; k < indices.length; k++) {
    const r = requests[indices[k]!]!
    let s = slot.get(r.key)
    if (s === undefined) {
      s = bodies.length
      slot.set(r.key, s)
      bodies.push(r.body)
    }
    slots[k] = s
  }
  const got = await family.answer(bodies)
  for (let k = 0; k < indices.length; k++) answers[indices[k]!] = got[slots[k]!]
}

/** Answers one round of requests. */
const round = async (requests: ReadonlyArray<Request>, families: Families): Promise<ReadonlyArray<unknown>> => {
  if (requests.length === 0) return []
  const answers = new Array<unknown>(requests.length)
  // Most rounds ask one family (a plan of files asks only probes): no grouping then.
  const first = requests[0]!.family
  let one = true
  for (let i = 1; i < requests.length && one; i++) one = requests[i]!.family === first
  if (one) {
    const family = familyOf(families, first)
    if (!family.merge) return family.answer(requests.map((r) => r.body))
    await answerSome(requests, requests.map((_, i) => i), family, answers)
    return answers
  }
  const order: string[] = []
  const byFamily = new Map<string, number[]>()
  for (let i = 0; i < requests.length; i++) {
    const name = requests[i]!.family
    let list = byFamily.get(name)
    if (list === undefined) {
      list = []
      byFamily.set(name, list)
      order.push(name)
    }
    list.push(i)
  }
  for (const name of order) await answerSome(requests, byFamily.get(name)!, familyOf(families, name), answers)
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
