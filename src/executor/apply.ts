// apply: runs a saved plan: integrity and root checks, lock, recovery, staleness, steps, verify, rollback.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Plan from '../core/Plan.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Accounts } from '../core/Probe.js'
import * as Families from '../interpreters/families.js'
import * as Generations from './generations.js'
import * as Undo from '../interpreters/files/undo.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Session from '../interpreters/libral/Session.js'
import type { Manager as PackageManager } from '../interpreters/packages/Manager.js'
import type { Manager as ServiceManager } from '../interpreters/services/Manager.js'
import type * as Runner from '../interpreters/Runner.js'
import { familyOf, type StepFamily } from '../interpreters/steps.js'
import * as Run from '../observe/run.js'
import * as Registry from '../types/registry.js'
import * as HealthM from '../types/Health.js'
import * as Health from './health.js'
import * as Journal from './Journal.js'
import * as Lock from './lock.js'
import * as Recover from './recover.js'
import type { Outcome, Report, ResourceReport } from './Report.js'
import * as Stale from './stale.js'
import * as Writer from './writer.js'

export interface Options {
  /** The state directory (a machine path) holding the lock, the journal and backups. */
  readonly stateDir: string
  /** Roll back every reversible step of the run when any resource fails. */
  readonly atomic: boolean
  /** Run every check and no mutation. */
  readonly noop: boolean
  /** Called right after step `seq` (1-based, counted over the run) starts; crash tests hook in here. */
  readonly afterStepStart?: (seq: number) => void | Promise<void>
  /** Called as resource `index` (1-based) of `total` takes its turn; the CLI's progress line hooks in here. */
  readonly onResource?: (index: number, total: number, id: string) => void
  /** Called once an unfinished run has been rolled back, before the plan is made or checked. */
  readonly onRecovered?: (undone: ReadonlyArray<string>) => void
  /** Called with the plan once it is known to be made for this root, before the staleness check. */
  readonly onPlan?: (plan: Plan.Plan) => void
  /** Runs exec commands, guards and health checks (default: real processes, with cwd below the machine's root). */
  readonly runner?: Runner.Runner
  /** Waits between health check tries (tests pass one that does not). */
  readonly sleep?: Health.Sleep
  /** Makes the session that runs the plan's libral providers (default: a quiet one with PLAIT_ROOT_DIR set to a non-"/" root). */
  readonly libral?: () => Promise<Session.Session>
  /** The service manager of service steps and queries (default: systemctl; tests give the memory one). */
  readonly services?: ServiceManager
  /** The package manager of package steps and queries (default: apt below the machine's root; tests give the memory one). */
  readonly packages?: PackageManager
  /** The Holo host of holo steps and queries (default: the real one), and whether they force-apply (`plait apply --force`). */
  readonly holo?: Families.ApplyServices['holo']
  /** How the generation of a run that changes something is recorded (docs/generations.md). */
  readonly generations?: Generations.Settings
  /** Takes sensitive values out of what the journal records of a step (a plan with secrets runs in clear, in memory only). */
  readonly redact?: (text: string) => string
  /** Compares the plan's observed digests with those seen now (a plan with sensitive values keys some: cli/sensitive.ts); default: equal. */
  readonly sameDigest?: Plan.SameDigest
  /** Resources that changed before this run (a `plait ensure` session's earlier commands): a subscriber refreshes for them too. */
  readonly changedBefore?: (id: string) => boolean
  /** Called with the results of a resource's health checks once they ran (`plait ensure api pipe` reports them as CCM's `health_check`). */
  readonly onHealth?: (id: string, results: ReadonlyArray<HealthM.Result>) => void
}

/** The default state directory. */
export const defaultStateDir = '/var/lib/plait'

interface Done {
  readonly id: string
  readonly what: string
  readonly undo: Journal.Undo
  readonly temp: string | undefined
}

/** Opens the interpreters the plan needs (its libral providers are loaded and checked against the plan). */
const openInterpreters = (machine: Machine, plan: Plan.Plan, options: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Families.Opened>> =>
  Families.open(machine, plan, {
    ...(options.runner !== undefined ? { runner: options.runner } : {}),
    ...(options.libral !== undefined ? { libral: options.libral } : {}),
    ...(options.services !== undefined ? { services: options.services } : {}),
    ...(options.packages !== undefined ? { packages: options.packages } : {}),
    ...(options.holo !== undefined ? { holo: options.holo } : {}),
  })

const rootCheck = (plan: Plan.Plan, machine: Machine): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan> =>
  plan.root === machine.root
    ? E.right(plan)
    : E.left([Diagnostic.make('PlanFile', `the plan was made for root ${plan.root}, but this apply targets ${machine.root}`, { hint: 'apply with the same --root the plan was made with' })])

/**
 * An executor opened on a machine: it holds the run lock, and has rolled back the unfinished run
 * an earlier apply left. It is given a plan made after that (a plan made before recovery would have
 * seen the half-applied state, and be refused as stale), and never makes one itself.
 */
export interface Executor {
  /** What recovery undid when the executor was opened. */
  readonly recovered: ReadonlyArray<string>
  /** Applies a verified plan (see PlanFile.parse): root check, staleness, steps, verification, rollback. */
  readonly apply: (plan: Plan.Plan) => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>>
  /** Releases the run lock. */
  readonly close: () => Promise<void>
}

/** Opens the executor: the state directory, the run lock, and the rollback of an unfinished run. */
export const open = async (machine: Machine, options: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Executor>> => {
  const state = Recover.paths(options.stateDir)
  const made = await ensureStateDir(machine, options.stateDir)
  if (E.isLeft(made)) return E.left([Diagnostic.make('Apply', `cannot create the state directory ${options.stateDir}: ${Fault.render(made.left)}`)])
  const lock = await Lock.acquire(machine, state.lock)
  if (E.isLeft(lock)) return E.left([lock.left])
  const recovered = await Recover.recover(machine, options.stateDir)
  if (E.isLeft(recovered)) {
    await lock.right.release()
    return E.left([recovered.left])
  }
  if (recovered.right.length > 0) options.onRecovered?.(recovered.right)
  return E.right({
    recovered: recovered.right,
    close: lock.right.release,
    apply: async (given) => {
      const plan = rootCheck(given, machine)
      if (E.isLeft(plan)) return plan
      const accounts = await machine.accounts()()
      if (E.isLeft(accounts)) return E.left([Diagnostic.make('Observe', `cannot read the user database: ${Fault.render(accounts.left)}`)])
      options.onPlan?.(plan.right)
      const opened = await openInterpreters(machine, plan.right, options)
      if (E.isLeft(opened)) return opened
      const checked = await Stale.check(plan.right, accounts.right, opened.right.requests, options.sameDigest)
      const drift = checked.drift
      if (drift.length > 0) {
        return E.left([
          ...drift,
          Diagnostic.make('Stale', `refusing a stale plan: ${drift.length} resource${drift.length === 1 ? '' : 's'} changed since it was made`, {
            hint: recovered.right.length > 0 ? 'an unfinished run was rolled back first, which may be what changed; make and review a new plan' : 'make and review a new plan',
          }),
        ])
      }
      const bk = await machine.mkdirp(state.backups, { ...made.right, mode: 0o700 })()
      if (E.isLeft(bk)) return E.left([Diagnostic.make('Apply', `cannot create ${state.backups}: ${Fault.render(bk.left)}`)])
      try {
        const report = await run(machine, plan.right, options, state, { opened: opened.right, now: checked.now }, accounts.right)
        return E.right({ ...report, recovered: recovered.right })
      } catch (e) {
        if (e instanceof Writer.JournalError) {
          return E.left([Diagnostic.make('Apply', `${e.message}; the run stopped, and the next apply rolls back what it began`)])
        }
        throw e
      }
    },
  })
}

/**
 * Applies a verified plan: with `noop`, every check and no mutation (no lock is taken); otherwise
 * the executor is opened, given the plan, and closed.
 */
export const apply = async (machine: Machine, plan: Plan.Plan, options: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>> => {
  const root = rootCheck(plan, machine)
  if (E.isLeft(root)) return root
  if (options.noop) {
    const accounts = await machine.accounts()()
    if (E.isLeft(accounts)) return E.left([Diagnostic.make('Observe', `cannot read the user database: ${Fault.render(accounts.left)}`)])
    options.onPlan?.(plan)
    return noopRun(machine, plan, options, accounts.right)
  }
  const executor = await open(machine, options)
  if (E.isLeft(executor)) return executor
  try {
    return await executor.right.apply(plan)
  } finally {
    await executor.right.close()
  }
}

/**
 * Creates the state directory (mode 0700) if it is missing, and any missing parents (mode 0755),
 * owned like the root directory. Existing directories are left exactly as they are: the state
 * directory may sit inside a tree the manifest manages. Returns the owner it used.
 */
const ensureStateDir = async (machine: Machine, stateDir: string): Promise<E.Either<Fault.Fault, { uid: number; gid: number }>> => {
  const rootEntry = await machine.probe('/')()
  const owner = E.isRight(rootEntry) && rootEntry.right._tag === 'Directory' ? { uid: rootEntry.right.entry.uid, gid: rootEntry.right.entry.gid } : { uid: 0, gid: 0 }
  const lineage: string[] = []
  for (let a = stateDir; a !== '/'; a = PosixPath.dirname(a)) lineage.unshift(a)
  for (const a of lineage) {
    const p = await machine.probe(a, { contentLimit: 0 })()
    if (E.isRight(p) && p.right._tag === 'Directory') continue
    const m = await machine.mkdirp(a, { ...owner, mode: a === stateDir ? 0o700 : 0o755 })()
    if (E.isLeft(m)) return m
  }
  return E.right(owner)
}

const noopRun = async (machine: Machine, plan: Plan.Plan, options: Options, accounts: import('../core/Probe.js').Accounts): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>> => {
  const unfinished = await Recover.pending(machine, options.stateDir)
  const opened = await openInterpreters(machine, plan, options)
  if (E.isLeft(opened)) return opened
  const drift = (await Stale.check(plan, accounts, opened.right.requests, options.sameDigest)).drift
  if (drift.length > 0) {
    const hint =
      unfinished === undefined
        ? 'make and review a new plan'
        : `an unfinished run (pid ${unfinished.pid}) left ${unfinished.steps.length} step(s) to roll back, which is likely what drifted; a real apply recovers first`
    return E.left([...drift, Diagnostic.make('Stale', 'the plan is stale', { hint })])
  }
  // As CCM's noop: health checks run (a check that is not OK fails the resource), and what requires a failed resource is skipped.
  const resources: ResourceReport[] = []
  const unmet = new Set<string>()
  let abort: string | undefined
  for (const r of plan.resources) {
    const needs = [...(r.require ?? []), ...(Plan.isSkipped(r) || Plan.isFailed(r) ? [] : Registry.ofKind(r.kind).needs(r))]
    const unmetBy = needs.find((id) => unmet.has(id) || resources.find((o) => o.id === id)?.outcome === 'failed')
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
      const bad = await checkHealth(r, machine, options, health)
      resources.push(bad !== undefined ? { id: r.id, outcome: 'failed', messages: [bad, ...messages, ...health] } : { id: r.id, outcome: messages.length > 0 ? 'changed' : 'stable', messages: [...messages, ...health] })
    }
    if (abort === undefined && plan.failOnError && resources.at(-1)?.outcome === 'failed') abort = `not run: ${r.id} failed and fail_on_error is set`
  }
  const recovered = unfinished === undefined ? [] : [`an unfinished run of pid ${unfinished.pid} would be rolled back first (${unfinished.steps.length} steps)`]
  return E.right({ noop: true, recovered, resources, rolledBack: [], irreversible: [] })
}

/** The plan's interpreters, and what the staleness check found of each resource now (its steps' starting point). */
interface Opened {
  readonly opened: Families.Opened
  readonly now: ReadonlyMap<string, unknown>
}

const run = async (machine: Machine, plan: Plan.Plan, options: Options, state: ReturnType<typeof Recover.paths>, interpreters: Opened, accounts: Accounts): Promise<Report> => {
  const requests = interpreters.opened.requests
  const familyFor = (tag: string): StepFamily => {
    const f = interpreters.opened.steps(familyOf(tag))
    if (f === undefined) throw new Error(`invariant: no interpreter of ${tag} steps`)
    return f
  }
  const journal = Writer.make(machine, state.journal)
  const write = journal.note
  const outcomes: { id: string; outcome: Outcome; messages: string[] }[] = []
  const applied: Done[] = []
  const rolledBack: string[] = []
  const irreversible: string[] = []
  let seq = 0
  let abort: string | undefined
  /** An undo failed: the journal and backups must outlive this run, for recovery to retry. */
  let unrecovered = false
  write({ _tag: 'run', plan: plan.hash, atomic: options.atomic, pid: machine.pid() })
  // Resources skipped for an unmet requirement: requiring one of them is an unmet requirement too.
  const unmet = new Set<string>()
  const outcomeOf = (id: string): Outcome | undefined => outcomes.find((o) => o.id === id)?.outcome
  for (const [index, r] of plan.resources.entries()) {
    options.onResource?.(index + 1, plan.resources.length, r.id)
    if (abort !== undefined) {
      outcomes.push({ id: r.id, outcome: 'skipped', messages: [abort] })
      continue
    }
    // A deferred value needs the resources whose files it reads: it is not worked out from a failed one.
    const needs = [...(r.require ?? []), ...(Plan.isSkipped(r) || Plan.isFailed(r) ? [] : Registry.ofKind(r.kind).needs(r))]
    const unmetBy = needs.find((id) => unmet.has(id) || outcomeOf(id) === 'failed')
    if (unmetBy !== undefined) {
      unmet.add(r.id)
      outcomes.push({ id: r.id, outcome: 'skipped', messages: [`unmet requirement: ${unmetBy} ${unmet.has(unmetBy) ? 'was skipped for an unmet requirement' : 'failed'}`] })
      continue
    }
    if (Plan.isSkipped(r)) {
      outcomes.push({ id: r.id, outcome: 'skipped', messages: [r.skipped] })
      continue
    }
    // Its type decides its steps at its turn: a deferred value is worked out now, a command asks its guards again.
    const type = Registry.ofKind(r.kind)
    let steps: ReadonlyArray<Plan.Step> = r.steps
    let expected: Plan.ResourcePlan = r
    // A resource that could not be planned fails at its turn, like one whose step fails.
    let error: string | undefined = r.failed
    const notes: string[] = [] // why it runs as it does: shown before its steps' reasons
    const after: string[] = [] // what running it showed (output, health checks): shown after them
    const turn = error !== undefined ? E.right({ steps: [], expected: r, notes: [] }) : await Run.run(type.turn(r, { accounts, changed: (id) => outcomeOf(id) === 'changed' || options.changedBefore?.(id) === true }), requests)
    if (E.isLeft(turn)) error = turn.left.description
    else {
      steps = turn.right.steps
      expected = turn.right.expected
      notes.push(...turn.right.notes)
    }
    if (steps.length === 0 && error === undefined) {
      // A stable resource is checked too: health checks say whether what it manages works.
      error = await checkHealth(r, machine, options, after)
      if (error === undefined) {
        outcomes.push({ id: r.id, outcome: 'stable', messages: [...notes, ...after] })
        continue
      }
    }
    write({ _tag: 'resource', id: r.id })
    const done: Done[] = []
    let unchanged = 0 // steps whose interpreter found nothing to change (a Holo plugin's "not changed")
    for (const step of error === undefined ? steps : []) {
      seq += 1
      const family = familyFor(step._tag)
      const what = options.redact?.(family.describe(step)) ?? family.describe(step)
      const undo = await family.prepare(step, `${state.backups}/${seq}`)
      if (E.isLeft(undo)) {
        error = `cannot back up before ${what}: ${Fault.render(undo.left)}`
        break
      }
      const temp = family.temp?.(step, machine.pid(), seq)
      // The one durable point before a mutation: this record, with every record noted since the last.
      await journal.sync({ _tag: 'step', seq, id: r.id, what, undo: undo.right, ...(temp !== undefined ? { temp } : {}) })
      done.push({ id: r.id, what, undo: undo.right, temp })
      if (options.afterStepStart !== undefined) await options.afterStepStart(seq)
      const result = await family.run(step, { id: r.id, now: interpreters.now.get(r.id), output: after, ...(temp !== undefined ? { temp } : {}) })
      if (E.isLeft(result)) {
        error = `${what} failed: ${family.failure(result.left)}`
        // A command or provider update that started may have done something: it is listed as run, and there is nothing to roll back.
        if (Undo.irreversible(undo.right)) {
          done.pop()
          irreversible.push(`${r.id}: ${what} (it failed)`)
        }
        break
      }
      write({ _tag: 'done', seq })
      if ((result.right as { readonly unchanged?: unknown } | undefined)?.unchanged === true) unchanged += 1
      if (Undo.irreversible(undo.right)) irreversible.push(`${r.id}: ${what}`)
    }
    if (error === undefined) {
      const misses = await Run.run(type.verify(expected), requests)
      if (misses.length > 0) error = `did not reach the desired state: ${misses.join('; ')}`
    }
    if (error === undefined && steps.length > 0) error = await checkHealth(r, machine, options, after)
    if (error === undefined) {
      write({ _tag: 'end', id: r.id, ok: true })
      applied.push(...done)
      outcomes.push(unchanged === steps.length ? { id: r.id, outcome: 'stable', messages: [...notes, ...after] } : { id: r.id, outcome: 'changed', messages: [...notes, ...steps.map((s) => s.reason), ...after] })
      continue
    }
    const messages = [error, ...notes, ...after]
    const undone = await rollback(machine, done)
    rolledBack.push(...undone.ok)
    messages.push(...(undone.failed.length > 0 ? undone.failed : undone.ok.length > 0 ? ['rolled back to how it was'] : []))
    // A resource whose undo failed does not end: its steps stay in the journal for recovery to retry.
    if (undone.broken) unrecovered = true
    else write({ _tag: 'end', id: r.id, ok: false })
    outcomes.push({ id: r.id, outcome: 'failed', messages })
    if (options.atomic) {
      const all = await rollback(machine, applied)
      rolledBack.push(...all.ok)
      const touched = new Set(applied.map((d) => d.id))
      for (const o of outcomes) {
        if (!touched.has(o.id)) continue
        if (all.failedIds.has(o.id)) o.messages.push(`the atomic rollback could not undo it; see ${r.id}`)
        else o.outcome = 'rolled back'
      }
      messages.push(...all.failed)
      if (all.broken) unrecovered = true
      abort = `not run: ${r.id} failed and the run is atomic`
    } else if (plan.failOnError) {
      abort = `not run: ${r.id} failed and fail_on_error is set`
    }
  }
  if (unrecovered) {
    // An undo failed: the journal (no commit) and the backups stay, and the next apply retries it.
    const kept = `the rollback did not finish: the journal and backups are kept in ${options.stateDir}, and the next apply retries it`
    const last = outcomes.filter((o) => o.outcome === 'failed').at(-1)
    if (last !== undefined) (last.messages as string[]).push(kept)
    // the resources that ended keep their changes when recovery retries the rest: their end records must be on disk
    await journal.flush()
    return { noop: false, recovered: [], resources: outcomes, rolledBack, irreversible }
  }
  // A run that changed nothing never wrote its journal, and has nothing to commit.
  if (journal.written()) await journal.sync({ _tag: 'commit' })
  // After the commit, before the backups go: the generation keeps the before-images they hold.
  const changed = outcomes.flatMap((o) => (o.outcome === 'changed' ? [o.id] : []))
  const generation = await Generations.record(machine, options.stateDir, options.generations ?? {}, { plan, applied, changed, irreversible, ...(options.redact !== undefined ? { redact: options.redact } : {}) })
  await Recover.clear(machine, options.stateDir)
  return { noop: false, recovered: [], resources: outcomes, rolledBack, irreversible, ...Generations.reported(generation) }
}

/** Undoes steps, newest first; `broken` when an undo failed (not merely irreversible): recovery must retry. */
const rollback = async (machine: Machine, done: ReadonlyArray<Done>): Promise<{ ok: string[]; failed: string[]; failedIds: Set<string>; broken: boolean }> => {
  const ok: string[] = []
  const failed: string[] = []
  const failedIds = new Set<string>()
  let broken = false
  for (const d of [...done].reverse()) {
    const r = await Undo.run(machine, d.undo, d.temp)
    if (E.isLeft(r)) broken = true
    const problem = E.isLeft(r) ? `could not undo ${d.what}: ${Fault.render(r.left)}` : r.right === 'irreversible' ? `cannot undo ${d.what}: it is irreversible` : undefined
    if (problem !== undefined) {
      failed.push(problem)
      failedIds.add(d.id)
    } else if (E.isRight(r) && r.right === 'undone') ok.push(`${d.id}: undid ${d.what}`)
  }
  return { ok, failed, failedIds, broken }
}

/** Runs a resource's health checks (adding each result to `notes`); the failure, if one is not OK. */
const checkHealth = async (r: Plan.ResourcePlan, machine: Machine, options: Options, notes: string[]): Promise<string | undefined> => {
  if (r.healthChecks === undefined || r.healthChecks.length === 0) return undefined
  const results = await Health.runAll(r.healthChecks, await runnerOf(machine, options), options.sleep, { machine, ...(options.services !== undefined ? { services: options.services } : {}), ...(options.packages !== undefined ? { packages: options.packages } : {}) })
  options.onHealth?.(r.id, results)
  const bad = results.filter((x) => x.status !== 'OK')
  notes.push(...results.filter((x) => x.status === 'OK').map(HealthM.render))
  return bad.length === 0 ? undefined : bad.map(HealthM.render).join('; ')
}

/** The runner of exec commands: the given one, or real processes (loaded only when a plan runs a command). */
const runnerOf = async (machine: Machine, options: Options): Promise<Runner.Runner> =>
  options.runner ?? (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
