// noop: `plait apply --noop`: every check of a run and no mutation: staleness, what each resource
// would do, and its health checks run as CCM's noop runs them. No lock is taken.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Registry from '../types/registry.js'
import { checkHealth, gossOf } from './checks.js'
import * as Interpreters from './interpreters.js'
import type { Options } from './Options.js'
import * as Recover from './recover.js'
import type { Report, ResourceReport } from './Report.js'
import * as Stale from './stale.js'

/** Checks a plan against the machine as a run would, changing nothing; reports what each resource would do. */
export const noopRun = async (machine: Machine, plan: Plan.Plan, options: Options, accounts: Accounts): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>> => {
  const unfinished = await Recover.pending(machine, options.stateDir)
  const opened = await Interpreters.open(machine, plan, options)
  if (E.isLeft(opened)) return opened
  let drift: ReadonlyArray<Diagnostic.Diagnostic>
  try {
    drift = (await Stale.check(plan, accounts, opened.right.requests, options.sameDigest)).drift
  } finally {
    await opened.right.end()
  }
  if (drift.length > 0) {
    const hint =
      unfinished === undefined
        ? 'make and review a new plan'
        : `an unfinished run (pid ${unfinished.pid}) left ${unfinished.steps.length} step(s) to roll back, which is likely what drifted; a real apply recovers first`
    return E.left([...drift, Diagnostic.make('Stale', 'the plan is stale', { hint })])
  }
  // As CCM's noop: health checks run (a check that is not OK fails the resource), and what requires a failed resource is skipped.
  const goss = gossOf(machine, opened.right)
  const resources: ResourceReport[] = []
  const unmet = new Set<string>()
  // the ids reported failed so far: looked up, not searched for in `resources` (a chain of N requirements cost N²)
  const failed = new Set<string>()
  let abort: string | undefined
  for (const r of plan.resources) {
    const needs = [...(r.require ?? []), ...(Plan.isSkipped(r) || Plan.isFailed(r) ? [] : Registry.ofKind(r.kind).needs(r))]
    const unmetBy = needs.find((id) => unmet.has(id) || failed.has(id))
    if (abort !== undefined) resources.push({ id: r.id, outcome: 'skipped', messages: [abort] })
    else if (unmetBy !== undefined) {
      unmet.add(r.id)
      resources.push({ id: r.id, outcome: 'skipped', messages: [`unmet requirement: ${unmetBy} ${unmet.has(unmetBy) ? 'was skipped for an unmet requirement' : 'failed'}`] })
    } else if (Plan.isSkipped(r)) resources.push({ id: r.id, outcome: 'skipped', messages: [r.skipped] })
    else if (Plan.isFailed(r)) resources.push({ id: r.id, outcome: 'failed', messages: [r.failed] })
    else {
      const pending = Registry.pending(r)
      const messages = pending !== undefined ? [pending] : r.steps.map((s) => s.noop)
      const health: string[] = []
      const bad = await checkHealth(r, machine, options, health, goss)
      resources.push(bad !== undefined ? { id: r.id, outcome: 'failed', messages: [bad, ...messages, ...health] } : { id: r.id, outcome: messages.length > 0 ? 'changed' : 'stable', messages: [...messages, ...health] })
    }
    if (resources.at(-1)?.outcome === 'failed') failed.add(r.id)
    if (abort === undefined && plan.failOnError && resources.at(-1)?.outcome === 'failed') abort = `not run: ${r.id} failed and fail_on_error is set`
  }
  const recovered = unfinished === undefined ? [] : [`an unfinished run of pid ${unfinished.pid} would be rolled back first (${unfinished.steps.length} steps)`]
  return E.right({ noop: true, recovered, resources, rolledBack: [], irreversible: [] })
}
