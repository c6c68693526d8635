// run: the steps of a checked plan, resource by resource in plan order: each resource's turn, its
// steps journaled and run (a run of independent file steps as one batch: batch.ts), verification,
// health checks, and the end of the run (commit, generation, clearing the journal).
import * as E from 'fp-ts/lib/Either.js'
import * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import * as Undo from '../interpreters/files/undo.js'
import type * as Families from '../interpreters/families.js'
import type { Machine } from '../interpreters/Machine.js'
import { familyOf, type StepFamily } from '../interpreters/steps.js'
import * as Run from '../observe/run.js'
import * as Registry from '../types/registry.js'
import * as Batch from './batch.js'
import { checkHealth, gossOf } from './checks.js'
import * as Generations from './generations.js'
import type { Options } from './Options.js'
import * as Recover from './recover.js'
import type { Report } from './Report.js'
import type { Done } from './rollback.js'
import { failed, outcomeOf, prepareStep, succeeded, type RunState } from './runState.js'
import * as Writer from './writer.js'
import * as Append from '../core/Append.js'

/** The plan's interpreters, and what the staleness check found of each resource now (its steps' starting point). */
export interface Opened {
  readonly opened: Families.Opened
  readonly now: ReadonlyMap<string, unknown>
}

/** Runs a checked plan's steps (the lock is held, the backups directory exists); throws Writer.JournalError when the journal cannot be written. */
export const run = async (machine: Machine, plan: Plan.Plan, options: Options, state: ReturnType<typeof Recover.paths>, interpreters: Opened, accounts: Accounts): Promise<Report> => {
  // asked for each step before it runs or joins a batch: the families hear of it (a step may change what they share)
  const familyFor = (tag: string): StepFamily => {
    const name = familyOf(tag)
    const f = interpreters.opened.steps(name)
    if (f === undefined) throw new Error(`invariant: no interpreter of ${tag} steps`)
    interpreters.opened.stepping(name)
    return f
  }
  const st: RunState = {
    machine,
    plan,
    options,
    state,
    journal: Writer.make(machine, state.journal),
    requests: interpreters.opened.requests,
    accounts,
    now: interpreters.now,
    familyFor,
    goss: gossOf(machine, interpreters.opened),
    outcomes: [],
    applied: [],
    rolledBack: [],
    irreversible: [],
    seq: 0,
    abort: undefined,
    unrecovered: false,
  }
  st.journal.note({ _tag: 'run', plan: plan.hash, atomic: options.atomic, pid: machine.pid() })
  // Resources skipped for an unmet requirement: requiring one of them is an unmet requirement too.
  const unmet = new Set<string>()
  const batch = Batch.collector(st, options.batch ?? 1, (r) => resource(st, r, unmet))
  for (const [index, r] of plan.resources.entries()) {
    options.onResource?.(index + 1, plan.resources.length, r.id)
    // a resource that can join the batch being gathered (or start one) waits there; anything else runs the batch first
    if (st.abort === undefined && (await batch.add(r))) continue
    await batch.flush()
    if (st.abort !== undefined) {
      st.outcomes.push({ id: r.id, outcome: 'skipped', messages: [st.abort] })
      continue
    }
    await resource(st, r, unmet)
  }
  await batch.flush()
  return finish(st)
}

/** One resource's turn, its steps one by one (each its own durable point), verification and health checks. */
const resource = async (st: RunState, r: Plan.ResourcePlan, unmet: Set<string>): Promise<void> => {
  const { machine, options, journal } = st
  // A deferred value needs the resources whose files it reads: it is not worked out from a failed one.
  const needs = [...(r.require ?? []), ...(Plan.isSkipped(r) || Plan.isFailed(r) ? [] : Registry.ofKind(r.kind).needs(r))]
  const unmetBy = needs.find((id) => unmet.has(id) || outcomeOf(st, id) === 'failed')
  if (unmetBy !== undefined) {
    unmet.add(r.id)
    st.outcomes.push({ id: r.id, outcome: 'skipped', messages: [`unmet requirement: ${unmetBy} ${unmet.has(unmetBy) ? 'was skipped for an unmet requirement' : 'failed'}`] })
    return
  }
  if (Plan.isSkipped(r)) {
    st.outcomes.push({ id: r.id, outcome: 'skipped', messages: [r.skipped] })
    return
  }
  // Its type decides its steps at its turn: a deferred value is worked out now, a command asks its guards again.
  const type = Registry.ofKind(r.kind)
  let steps: ReadonlyArray<Plan.Step> = r.steps
  let expected: Plan.ResourcePlan = r
  // A resource that could not be planned fails at its turn, like one whose step fails.
  let error: string | undefined = r.failed
  const notes: string[] = [] // why it runs as it does: shown before its steps' reasons
  const after: string[] = [] // what running it showed (output, health checks): shown after them
  const turn = error !== undefined ? E.right({ steps: [], expected: r, notes: [] }) : await Run.run(type.turn(r, { accounts: st.accounts, changed: (id) => outcomeOf(st, id) === 'changed' || options.changedBefore?.(id) === true }), st.requests)
  if (E.isLeft(turn)) error = turn.left.description
  else {
    steps = turn.right.steps
    expected = turn.right.expected
    Append.append(notes, turn.right.notes)
  }
  if (steps.length === 0 && error === undefined) {
    // A stable resource is checked too: health checks say whether what it manages works.
    error = await checkHealth(r, machine, options, after, st.goss)
    if (error === undefined) {
      st.outcomes.push({ id: r.id, outcome: 'stable', messages: [...notes, ...after] })
      return
    }
  }
  journal.note({ _tag: 'resource', id: r.id })
  const done: Done[] = []
  let unchanged = 0 // steps whose interpreter found nothing to change (a Holo plugin's "not changed")
  for (const step of error === undefined ? steps : []) {
    const family = st.familyFor(step._tag)
    const prepared = await prepareStep(st, r.id, step, family)
    if (E.isLeft(prepared)) {
      error = prepared.left
      break
    }
    const { seq, what, undo, temp } = prepared.right
    // The one durable point before a mutation: this record, with every record noted since the last.
    await journal.sync({ _tag: 'step', seq, id: r.id, what, undo, ...(temp !== undefined ? { temp } : {}) })
    done.push({ id: r.id, what, undo, temp })
    if (options.afterStepStart !== undefined) await options.afterStepStart(seq)
    const result = await family.run(step, { id: r.id, now: st.now.get(r.id), output: after, ...(temp !== undefined ? { temp } : {}) })
    if (E.isLeft(result)) {
      error = `${what} failed: ${family.failure(result.left)}`
      // A command or provider update that started may have done something: it is listed as run, and there is nothing to roll back.
      if (Undo.irreversible(undo)) {
        done.pop()
        st.irreversible.push(`${r.id}: ${what} (it failed)`)
      }
      break
    }
    journal.note({ _tag: 'done', seq })
    if ((result.right as { readonly unchanged?: unknown } | undefined)?.unchanged === true) unchanged += 1
    if (Undo.irreversible(undo)) st.irreversible.push(`${r.id}: ${what}`)
  }
  if (error === undefined) {
    const misses = await Run.run(type.verify(expected), st.requests)
    if (misses.length > 0) error = `did not reach the desired state: ${misses.join('; ')}`
  }
  if (error === undefined && steps.length > 0) error = await checkHealth(r, machine, options, after, st.goss)
  if (error === undefined) {
    succeeded(st, r.id, done, unchanged === steps.length ? 'stable' : 'changed', unchanged === steps.length ? [...notes, ...after] : [...notes, ...steps.map((s) => s.reason), ...after])
    return
  }
  await failed(st, r, error, done, notes, after)
}

/** The end of a run: the commit (or the journal kept for recovery), the generation, and the report. */
const finish = async (st: RunState): Promise<Report> => {
  const { machine, options, journal, outcomes, rolledBack, irreversible } = st
  if (st.unrecovered) {
    // An undo failed: the journal (no commit) and the backups stay, and the next apply retries it.
    const kept = `the rollback did not finish: the journal and backups are kept in ${options.stateDir}, and the next apply retries it`
    const last = outcomes.filter((o) => o.outcome === 'failed').at(-1)
    if (last !== undefined) last.messages.push(kept)
    // the resources that ended keep their changes when recovery retries the rest: their end records must be on disk
    await journal.flush()
    return { noop: false, recovered: [], resources: outcomes, rolledBack, irreversible }
  }
  // A run that changed nothing never wrote its journal, and has nothing to commit.
  if (journal.written()) await journal.sync({ _tag: 'commit' })
  // After the commit, before the backups go: the generation keeps the before-images they hold.
  const changed = outcomes.flatMap((o) => (o.outcome === 'changed' ? [o.id] : []))
  const generation = await Generations.record(machine, options.stateDir, options.generations ?? {}, { plan: st.plan, applied: st.applied, changed, irreversible, ...(options.redact !== undefined ? { redact: options.redact } : {}) })
  await Recover.clear(machine, options.stateDir)
  return { noop: false, recovered: [], resources: outcomes, rolledBack, irreversible, ...Generations.reported(generation) }
}
