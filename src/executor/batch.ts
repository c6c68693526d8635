// batch: consecutive independent file steps (writes, or mkdirs, on unrelated paths) run as one
// batch: their step records reach the disk in one fsync, their temp files are written and fsynced
// concurrently, then each step begins, runs and its resource is verified and ends in plan order,
// and the directories they changed are fsynced once each (docs/apply.md, "Batches" and "Why a
// crash at any moment recovers"). A resource fails, rolls back and aborts the run as it does alone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import * as Plan from '../core/Plan.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Batchable, StepFamily } from '../interpreters/steps.js'
import * as Run from '../observe/run.js'
import * as Registry from '../types/registry.js'
import * as Pool from './pool.js'
import { rollback, type Done } from './rollback.js'
import { failed, outcomeOf, prepareStep, succeeded, type RunState } from './runState.js'
import * as Writer from './writer.js'
import * as Append from '../core/Append.js'

/** Temp files written, and directories fsynced, at once. */
const inFlight = 32

/** A resource waiting in a batch: its turn's steps, and each step's batch facts. */
interface Member {
  readonly r: Plan.ResourcePlan
  readonly expected: Plan.ResourcePlan
  readonly notes: ReadonlyArray<string>
  readonly steps: ReadonlyArray<{ readonly step: Plan.Step; readonly family: StepFamily; readonly facts: Batchable }>
}

/** A step prepared in a batch: its journal record's fields and what staging it gave. */
interface Prepared {
  readonly seq: number
  readonly step: Plan.Step
  readonly family: StepFamily
  readonly facts: Batchable
  readonly what: string
  readonly done: Done
  staged?: E.Either<Fault.Fault, void>
}

/** Gathers resources into a batch and runs it. */
export interface Collector {
  /** Takes the resource into the batch (running the batch first when it does not fit); false when it must run on its own. */
  readonly add: (r: Plan.ResourcePlan) => Promise<boolean>
  /** Runs the gathered resources, if any. */
  readonly flush: () => Promise<void>
}

/** The ancestors of a path, nearest first ("/" left out: every path is below it). */
const ancestors = (p: string): string[] => {
  const out: string[] = []
  for (let a = PosixPath.dirname(p); a !== '/'; a = PosixPath.dirname(a)) out.push(a)
  return out
}

/**
 * A collector of at most `cap` steps a batch; `alone` runs a resource on its own (a batch of one
 * step is run that way too: it would gain nothing).
 */
export const collector = (st: RunState, cap: number, alone: (r: Plan.ResourcePlan) => Promise<void>): Collector => {
  let members: Member[] = []
  const waiting = new Set<string>() // the ids of `members`
  let kind: string | undefined
  let count = 0
  const paths = new Set<string>()
  const above = new Set<string>() // the ancestors of `paths`
  const unrelated = (p: string): boolean => !paths.has(p) && !above.has(p) && !ancestors(p).some((a) => paths.has(a))

  /**
   * Whether a required resource has had its turn and got what it was to: it changed, or was stable
   * already. One still waiting in the batch has not; one that failed or was skipped is decided by
   * the resource's own turn, run on its own (it may be skipped as an unmet requirement).
   */
  const met = (id: string): boolean => {
    const outcome = outcomeOf(st, id)
    return outcome === 'changed' || outcome === 'stable'
  }

  /**
   * The resource as a batch member, if it can be one: a planned file resource whose requirements
   * are met already, no subscriptions or health checks, every step batchable.
   */
  const candidate = async (r: Plan.ResourcePlan): Promise<Member | undefined> => {
    if (cap <= 1 || Plan.isSkipped(r) || Plan.isFailed(r) || !(r.require ?? []).every(met) || (r.subscribe ?? []).length > 0 || (r.healthChecks ?? []).length > 0) return undefined
    const type = Registry.ofKind(r.kind)
    if (type.needs(r).length > 0) return undefined
    const steps: Array<Member['steps'][number]> = []
    for (const step of r.steps) {
      const family = st.familyFor(step._tag)
      const facts = family.batchable?.(step)
      if (facts === undefined || (facts.staged && (family.stage === undefined || family.runStaged === undefined))) return undefined
      steps.push({ step, family, facts })
    }
    if (new Set(steps.map((s) => s.facts.kind)).size > 1 || steps.length > cap) return undefined
    // a planned resource's turn is its planned steps (a deferred one, which works them out, has needs)
    const turn = await Run.run(type.turn(r, { accounts: st.accounts, changed: (id) => outcomeOf(st, id) === 'changed' || st.options.changedBefore?.(id) === true }), st.requests)
    if (E.isLeft(turn) || turn.right.steps !== r.steps) return undefined
    return { r, expected: turn.right.expected, notes: turn.right.notes, steps }
  }

  const fits = (m: Member): boolean =>
    (m.steps.length === 0 || kind === undefined || m.steps[0]!.facts.kind === kind) && count + m.steps.length <= cap && m.steps.every((s) => unrelated(s.facts.path))

  /** A mkdir joins only where its parent is a directory already: it then creates one directory, whose undo no other step's overlaps. */
  const parentsThere = async (m: Member): Promise<boolean> => {
    for (const s of m.steps) {
      if (s.facts.staged) continue
      const parent = await st.machine.probe(PosixPath.dirname(s.facts.path), { contentLimit: 0 })()
      if (E.isLeft(parent) || parent.right._tag !== 'Directory') return false
    }
    return true
  }

  const take = (m: Member): void => {
    members.push(m)
    waiting.add(m.r.id)
    for (const s of m.steps) {
      kind ??= s.facts.kind
      count += 1
      paths.add(s.facts.path)
      for (const a of ancestors(s.facts.path)) above.add(a)
    }
  }

  const flush = async (): Promise<void> => {
    const batch = members
    members = []
    waiting.clear()
    kind = undefined
    count = 0
    paths.clear()
    above.clear()
    if (batch.filter((m) => m.steps.length > 0).length <= 1) {
      for (const m of batch) {
        // as the run does between resources: a failure that stopped it (--atomic) skips the rest
        if (st.abort !== undefined) st.outcomes.push({ id: m.r.id, outcome: 'skipped', messages: [st.abort] })
        else await alone(m.r)
      }
    } else await runBatch(st, batch)
  }

  return {
    add: async (r) => {
      // a requirement still waiting in this batch gets its turn first: the resource may then start the next batch, instead of running alone
      if ((r.require ?? []).some((id) => waiting.has(id))) await flush()
      const m = await candidate(r)
      if (m === undefined) return false
      // a resource with nothing to do starts no batch; in one, it keeps its place in the report
      if (m.steps.length === 0 && members.length === 0) return false
      if (!fits(m)) await flush()
      if (st.abort !== undefined) return false
      if (!(await parentsThere(m))) return false
      take(m)
      return true
    },
    flush,
  }
}

/** Runs a batch (see the module's head): prepare and journal, stage, then each resource in turn, then fsync the directories. */
const runBatch = async (st: RunState, members: ReadonlyArray<Member>): Promise<void> => {
  // The batch's files are in few directories: each is walked to once for the whole batch.
  const release = st.machine.hold()
  try {
    await runHeld(st, members)
  } finally {
    release()
  }
}

const runHeld = async (st: RunState, members: ReadonlyArray<Member>): Promise<void> => {
  const { machine, journal } = st
  // 1. Every step's undo prepared (backups copied) and its record noted, then one durable append.
  const prepared = new Map<Member, { readonly steps: Prepared[]; readonly error?: string }>()
  // every path probed in one pass (a failed probe is asked again, alone, by its prepare)
  const probes = await machine.probeAll(members.flatMap((m) => m.steps.map((s) => ({ path: s.facts.path }))))()
  let at = 0
  for (const m of members) {
    const steps: Prepared[] = []
    let error: string | undefined
    const first = at
    at += m.steps.length
    for (const [k, { step, family, facts }] of m.steps.entries()) {
      const before = probes[first + k]!
      const ready = await prepareStep(st, m.r.id, step, family, E.isRight(before) ? before.right : undefined)
      if (E.isLeft(ready)) {
        error = ready.left
        break
      }
      const { seq, ...done } = ready.right
      steps.push({ seq, step, family, facts, what: done.what, done })
    }
    // a resource whose backup failed journals nothing ahead: it fails at its turn, having begun nothing
    if (error !== undefined) prepared.set(m, { steps: [], error })
    else {
      prepared.set(m, { steps })
      if (steps.length > 0) journal.note({ _tag: 'resource', id: m.r.id })
      for (const p of steps) journal.note({ _tag: 'step', seq: p.seq, id: m.r.id, what: p.what, undo: p.done.undo, ...(p.done.temp !== undefined ? { temp: p.done.temp } : {}), batch: true })
    }
  }
  await journal.flush()
  // 2. The staged halves (temp files written and fsynced), concurrently: no managed path changes.
  const staged = [...prepared.entries()].flatMap(([m, p]) => p.steps.filter((s) => s.facts.staged).map((s) => ({ m, s })))
  await Pool.all(staged, inFlight, async ({ m, s }) => {
    s.staged = await s.family.stage!(s.step, { id: m.r.id, now: st.now.get(m.r.id), output: [], ...(s.done.temp !== undefined ? { temp: s.done.temp } : {}) })
  })
  // 3. Each resource in plan order: its steps begin (a `begin` record a process crash finds) and run, then it is verified and ends.
  const touched = new Set<string>()
  const begun = new Set<number>()
  try {
    await turns(st, members, prepared, touched, begun)
  } catch (e) {
    // the journal failed: the run stops here, and what has not begun leaves no temp file behind
    if (e instanceof Writer.JournalError) for (const p of prepared.values()) for (const s of p.steps) if (!begun.has(s.seq) && s.done.temp !== undefined) await machine.remove(s.done.temp, { recursive: false })()
    throw e
  }
  // 4. The directories the batch changed, each fsynced once, before any later record reaches the disk
  // (one a rollback removed needs none).
  const synced = await Pool.all([...touched], inFlight, (d) => machine.syncDirectory(d)())
  const bad = synced.find((r) => E.isLeft(r) && r.left._tag !== 'NotFound' && r.left._tag !== 'NotADirectory')
  if (bad !== undefined && E.isLeft(bad)) throw new Writer.JournalError(bad.left, 'cannot make the batch durable')
}

/** Removes the temp file of a step that will not begin; when that fails, the journal is kept so that recovery removes it. */
const dropTemp = async (st: RunState, s: Prepared): Promise<void> => {
  if (s.done.temp === undefined) return
  const r = await st.machine.remove(s.done.temp, { recursive: false })()
  if (E.isLeft(r) && r.left._tag !== 'NotFound') st.unrecovered = true
}

/** Steps a group holds at most: their `begin` records go out in one append, their resources are verified together. */
const groupSize = 128

/** A batch's members in groups of at most `groupSize` steps, in plan order. */
const groupsOf = (members: ReadonlyArray<Member>): ReadonlyArray<ReadonlyArray<Member>> => {
  const groups: Member[][] = [[]]
  let steps = 0
  for (const m of members) {
    if (steps + m.steps.length > groupSize && steps > 0) {
      groups.push([])
      steps = 0
    }
    groups.at(-1)!.push(m)
    steps += m.steps.length
  }
  return groups
}

/** What running a member's steps gave: the steps that began, and the error that stopped it. */
interface Ran {
  readonly done: Done[]
  error: string | undefined
}

/**
 * The resources of a batch in plan order, once their steps are prepared and staged (the batch's
 * third part), a group at a time: the group's `begin` records and the ends of the group before go
 * out in one append (not fsynced: a process crash finds them); then each step runs in plan order;
 * then the group's resources are verified together, and each ends, or fails and is rolled back.
 */
const turns = async (st: RunState, members: ReadonlyArray<Member>, prepared: ReadonlyMap<Member, { readonly steps: Prepared[]; readonly error?: string }>, touched: Set<string>, begun: Set<number>): Promise<void> => {
  const { options, journal } = st
  /** A failure that stops the run (--atomic, fail_on_error) stops the steps after it before its outcome is worked out. */
  let stopped = false
  /** The steps that ran (or began running), of every group so far. */
  const ranSteps = new Set<Done>()
  for (const group of groupsOf(members)) {
    const ran = new Map<Member, Ran>()
    if (st.abort === undefined && !stopped) {
      const seqs = group.flatMap((m) => prepared.get(m)!.steps.map((s) => s.seq))
      for (const seq of seqs) journal.note({ _tag: 'begin', seq })
      await journal.push()
      for (const seq of seqs) begun.add(seq)
    }
    for (const m of group) {
      const p = prepared.get(m)!
      if (st.abort !== undefined || stopped || m.steps.length === 0) continue
      if (p.error !== undefined) journal.note({ _tag: 'resource', id: m.r.id })
      const r: Ran = { done: [], error: p.error }
      ran.set(m, r)
      for (const s of p.steps) {
        if (r.error !== undefined) break
        r.done.push(s.done)
        ranSteps.add(s.done)
        if (options.afterStepStart !== undefined) await options.afterStepStart(s.seq)
        const env = { id: m.r.id, now: st.now.get(m.r.id), output: [], ...(s.done.temp !== undefined ? { temp: s.done.temp } : {}) }
        // a step whose staging failed does not run: its directory is not changed, nor fsynced for it
        const unstaged = s.staged !== undefined && E.isLeft(s.staged)
        if (!unstaged) touched.add(s.facts.directory)
        const result = unstaged ? s.staged! : s.facts.staged ? await s.family.runStaged!(s.step, env) : await s.family.run(s.step, env)
        if (E.isLeft(result)) r.error = `${s.what} failed: ${s.family.failure(result.left)}`
        else journal.note({ _tag: 'done', seq: s.seq })
      }
      if (r.error !== undefined && (options.atomic || st.plan.failOnError)) stopped = true
    }
    // verified together: one pass of probes for the group
    const checked = [...ran.entries()].filter(([, r]) => r.error === undefined)
    const misses = await Run.runAll(
      checked.map(([m]) => Registry.ofKind(m.r.kind).verify(m.expected)),
      st.requests,
    )
    checked.forEach(([, r], i) => {
      if (misses[i]!.length > 0) r.error = `did not reach the desired state: ${misses[i]!.join('; ')}`
    })
    // A failure that stops the run (--atomic) rolls back what ran before it, directories made
    // included: the temp files of the batch's steps that will not run go first, so that none of
    // those directories still holds one (their members' outcomes would remove them only after).
    if ((options.atomic || st.plan.failOnError) && [...ran.values()].some((r) => r.error !== undefined)) {
      for (const q of prepared.values()) for (const s of q.steps) if (!ranSteps.has(s.done)) await dropTemp(st, s)
    }
    for (const m of group) await outcome(st, m, prepared.get(m)!, ran.get(m))
  }
}

/** A member's outcome, in plan order: skipped (its temp files removed, what ran undone), stable, failed or changed. */
const outcome = async (st: RunState, m: Member, p: { readonly steps: Prepared[] }, r: Ran | undefined): Promise<void> => {
  if (st.abort !== undefined) {
    for (const s of p.steps) await dropTemp(st, s)
    // a step that ran before the failure that stops the run was known (a resource found unverified after it): undone
    const undone = r === undefined ? undefined : await rollback(st.machine, r.done)
    if (undone !== undefined) {
      Append.append(st.rolledBack, undone.ok)
      if (undone.broken) st.unrecovered = true
    }
    st.outcomes.push({ id: m.r.id, outcome: 'skipped', messages: [st.abort, ...(undone !== undefined && undone.ok.length > 0 ? ['it had run with its batch and was rolled back'] : []), ...(undone?.failed ?? [])] })
    return
  }
  if (m.steps.length === 0) {
    st.outcomes.push({ id: m.r.id, outcome: 'stable', messages: [...m.notes] })
    return
  }
  if (r === undefined) throw new Error(`invariant: ${m.r.id} did not run and the run goes on`)
  for (const s of p.steps.slice(r.done.length)) await dropTemp(st, s)
  if (r.error === undefined) succeeded(st, m.r.id, r.done, 'changed', [...m.notes, ...m.steps.map((s) => s.step.reason)])
  else await failed(st, m.r, r.error, r.done, m.notes, [])
}
