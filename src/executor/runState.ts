// runState: what a run keeps as it goes (outcomes, applied steps, the journal) and how a resource
// ends: recorded as ended, or failed and rolled back (all of the run's steps, with --atomic). The
// run loop (run.ts) and batches (batch.ts) end their resources through here.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type { Families } from '../core/Observation.js'
import type * as Plan from '../core/Plan.js'
import type { Accounts, Probe } from '../core/Probe.js'
import type { Machine } from '../interpreters/Machine.js'
import type { StepFamily } from '../interpreters/steps.js'
import type * as Health from './health.js'
import type { Options } from './Options.js'
import type * as Recover from './recover.js'
import type { Outcome } from './Report.js'
import { rollback, type Done } from './rollback.js'
import type * as Writer from './writer.js'
import * as Append from '../core/Append.js'

/** A resource's outcome as the run goes (messages grow when an atomic rollback reaches it). */
export interface Entry {
  readonly id: string
  outcome: Outcome
  readonly messages: string[]
}

/** The state of one run. */
export interface RunState {
  readonly machine: Machine
  readonly plan: Plan.Plan
  readonly options: Options
  readonly state: ReturnType<typeof Recover.paths>
  readonly journal: Writer.Writer
  readonly requests: Families
  readonly accounts: Accounts
  /** What the staleness check found of each resource (its steps' starting point). */
  readonly now: ReadonlyMap<string, unknown>
  /** The interpreter of a step tag's family (an invariant: the plan's families were opened). */
  readonly familyFor: (tag: string) => StepFamily
  /** What its health checks' goss rules are checked with (the families' managers, shared). */
  readonly goss: Health.Goss
  readonly outcomes: Entry[]
  /** Steps of the resources that ended well, in the order they ran: what --atomic undoes. */
  readonly applied: Done[]
  readonly rolledBack: string[]
  readonly irreversible: string[]
  /** The last step's number (1-based over the run). */
  seq: number
  /** Why the rest of the run is skipped (a failure with --atomic or fail_on_error). */
  abort: string | undefined
  /** An undo failed: the journal and backups must outlive this run, for recovery to retry. */
  unrecovered: boolean
}

/** Each run's outcomes by id, the first of each, and how many of them are indexed (they are only ever appended). */
const indexes = new WeakMap<ReadonlyArray<Entry>, { readonly byId: Map<string, Entry>; upTo: number }>()

/**
 * The outcome of a resource so far (by id): the first entry of it, as a search from the start
 * finds it. Indexed, entries appended since the last call first: each resource asks of those it
 * requires, so a search of the whole list each time made a run of N resources cost N² (a chain of
 * 100,000 requirements, 5 billion comparisons).
 */
export const outcomeOf = (st: RunState, id: string): Outcome | undefined => {
  let index = indexes.get(st.outcomes)
  if (index === undefined) indexes.set(st.outcomes, (index = { byId: new Map(), upTo: 0 }))
  for (; index.upTo < st.outcomes.length; index.upTo++) {
    const entry = st.outcomes[index.upTo]!
    if (!index.byId.has(entry.id)) index.byId.set(entry.id, entry)
  }
  // an entry's outcome may change after it is indexed (--atomic makes it "rolled back"): read it now
  return index.byId.get(id)?.outcome
}

/**
 * Numbers the next step of the run and prepares its undo (a backup of what it will replace, `before`
 * when its path was probed already): the step as the journal records it (`what` redacted), or why
 * it cannot be backed up.
 */
export const prepareStep = async (st: RunState, id: string, step: Plan.Step, family: StepFamily, before?: Probe): Promise<E.Either<string, Done & { readonly seq: number }>> => {
  st.seq += 1
  const seq = st.seq
  const what = st.options.redact?.(family.describe(step)) ?? family.describe(step)
  const undo = await family.prepare(step, `${st.state.backups}/${seq}`, before)
  if (E.isLeft(undo)) return E.left(`cannot back up before ${what}: ${Fault.render(undo.left)}`)
  return E.right({ seq, id, what, undo: undo.right, temp: family.temp?.(step, st.machine.pid(), seq) })
}

/** A resource ended well: its `end` is noted and its steps join what --atomic would undo. */
export const succeeded = (st: RunState, id: string, done: ReadonlyArray<Done>, outcome: 'changed' | 'stable', messages: string[]): void => {
  st.journal.note({ _tag: 'end', id, ok: true })
  Append.append(st.applied, done)
  st.outcomes.push({ id, outcome, messages })
}

/**
 * A resource failed with `error`: its begun steps (`done`) are undone, newest first; with --atomic
 * every step of the run is, and the rest of the run is skipped (with fail_on_error too).
 */
export const failed = async (st: RunState, r: Plan.ResourcePlan, error: string, done: ReadonlyArray<Done>, notes: ReadonlyArray<string>, after: ReadonlyArray<string>): Promise<void> => {
  const messages = [error, ...notes, ...after]
  const undone = await rollback(st.machine, done)
  Append.append(st.rolledBack, undone.ok)
  Append.append(messages, undone.failed.length > 0 ? undone.failed : undone.ok.length > 0 ? ['rolled back to how it was'] : [])
  // A resource whose undo failed does not end: its steps stay in the journal for recovery to retry.
  if (undone.broken) st.unrecovered = true
  else st.journal.note({ _tag: 'end', id: r.id, ok: false })
  st.outcomes.push({ id: r.id, outcome: 'failed', messages })
  if (st.options.atomic) {
    const all = await rollback(st.machine, st.applied)
    Append.append(st.rolledBack, all.ok)
    const touched = new Set(st.applied.map((d) => d.id))
    for (const o of st.outcomes) {
      if (!touched.has(o.id)) continue
      if (all.failedIds.has(o.id)) o.messages.push(`the atomic rollback could not undo it; see ${r.id}`)
      else o.outcome = 'rolled back'
    }
    Append.append(messages, all.failed)
    if (all.broken) st.unrecovered = true
    st.abort = `not run: ${r.id} failed and the run is atomic`
  } else if (st.plan.failOnError) {
    st.abort = `not run: ${r.id} failed and fail_on_error is set`
  }
}
