// stale: observes every planned resource again and lists what drifted since the plan was made.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Status from '../types/file/Status.js'
import { concurrency, mapLimit } from './observe.js'

/** Returns one Stale diagnostic per drifted resource (empty when the machine is as planned). */
export const check = async (machine: Machine, plan: Plan.Plan, accounts: Accounts): Promise<ReadonlyArray<Diagnostic.Diagnostic>> => {
  const results = await mapLimit(plan.resources, concurrency, async (r) => {
    const p = await machine.probe(r.name)()
    if (E.isLeft(p)) return Diagnostic.make('Stale', `cannot observe ${r.name}: ${Fault.render(p.left)}`, { resource: r.id })
    const s = Status.fromProbe(p.right)
    if (Status.digest(s) === r.observed.digest) return undefined
    return Diagnostic.make('Stale', `changed since the plan was made: was ${r.observed.summary}, now ${Status.summary(s, accounts)}`, { resource: r.id })
  })
  return results.filter((d): d is Diagnostic.Diagnostic => d !== undefined)
}
