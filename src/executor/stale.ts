// stale: observes every planned resource again and lists what drifted since the plan was made.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Runtime from '../interpreters/libral/Runtime.js'
import * as Resource from '../libral/Resource.js'
import * as Status from '../types/file/Status.js'
import { concurrency, mapLimit } from './observe.js'

/** What the check found: each drift as a diagnostic, and what libral providers found now (the update's starting point). */
export interface Checked {
  readonly drift: ReadonlyArray<Diagnostic.Diagnostic>
  readonly found: ReadonlyMap<string, Resource.Found>
}

/** Checks the plan against the machine (and its libral providers: one list each). */
export const check = async (machine: Machine, plan: Plan.Plan, accounts: Accounts, libral?: Runtime.Runtime): Promise<Checked> => {
  const files = plan.resources.filter(Plan.isFile)
  const results = await mapLimit(files, concurrency, async (r) => {
    const p = await machine.probe(r.name)()
    if (E.isLeft(p)) return Diagnostic.make('Stale', `cannot observe ${r.name}: ${Fault.render(p.left)}`, { resource: r.id })
    const s = Status.fromProbe(p.right)
    if (Status.digest(s) === r.observed.digest) return undefined
    return Diagnostic.make('Stale', `changed since the plan was made: was ${r.observed.summary}, now ${Status.summary(s, accounts)}`, { resource: r.id })
  })
  const drift = results.filter((d): d is Diagnostic.Diagnostic => d !== undefined)
  const found = new Map<string, Resource.Found>()
  const libralPlans = plan.resources.filter(Plan.isLibral)
  if (libralPlans.length === 0) return { drift, found }
  if (libral === undefined) throw new Error('invariant: a plan with libral resources is checked without its providers')
  for (const provider of [...new Set(libralPlans.map((r) => r.provider))]) {
    const mine = libralPlans.filter((r) => r.provider === provider)
    const seen = await libral.session.observe(libral.target(provider), mine.map((r) => r.name))
    if (E.isLeft(seen)) {
      drift.push(Diagnostic.make('Stale', `cannot observe ${provider} resources: ${Fault.render(seen.left)}`, { resource: mine[0]!.id }))
      continue
    }
    for (const r of mine) {
      const now = seen.right.get(r.name)!
      found.set(r.id, now)
      if (Resource.digest(now) !== r.observed.digest) {
        drift.push(Diagnostic.make('Stale', `changed since the plan was made: was ${r.observed.summary}, now ${Resource.summary(now)}`, { resource: r.id }))
      }
    }
  }
  return { drift, found }
}
