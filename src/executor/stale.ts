// stale: observes every planned resource again, through its type's check, and lists what drifted
// since the plan was made.
import * as Diagnostic from '../core/Diagnostic.js'
import type { Families } from '../core/Observation.js'
import * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import * as Run from '../observe/run.js'
import * as Registry from '../types/registry.js'

/** What the check found: each drift as a diagnostic, and what it found now of each resource (its steps' starting point). */
export interface Checked {
  readonly drift: ReadonlyArray<Diagnostic.Diagnostic>
  readonly now: ReadonlyMap<string, unknown>
}

/** Checks the plan's resources against the machine and its plugins (their requests batched: one list per provider); `same` compares digests (Plan.SameDigest). */
export const check = async (plan: Plan.Plan, accounts: Accounts, families: Families, same: Plan.SameDigest = Plan.sameDigest): Promise<Checked> => {
  const checked = plan.resources.filter((r) => !Plan.isSkipped(r) && !Plan.isFailed(r))
  const results = await Run.runAll(
    checked.map((r) => Registry.ofKind(r.kind).check(r, accounts, same)),
    families,
  )
  const drift: Diagnostic.Diagnostic[] = []
  const now = new Map<string, unknown>()
  const shared = new Set<object>()
  results.forEach((c, i) => {
    const r = checked[i]!
    if (c.now !== undefined) now.set(r.id, c.now)
    if (c.drift === undefined) return
    // A failure shared by several resources (a provider that could not list) is reported once, at the first.
    if (c.shared !== undefined) {
      if (shared.has(c.shared)) return
      shared.add(c.shared)
    }
    drift.push(Diagnostic.make('Stale', c.drift, { resource: r.id }))
  })
  return { drift, now }
}
