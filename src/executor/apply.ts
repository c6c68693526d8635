// apply: runs a saved plan: integrity and root checks, lock, recovery, staleness, steps, verify, rollback.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Interpreters from './interpreters.js'
import * as Lock from './lock.js'
import { noopRun } from './noop.js'
import type { Options } from './Options.js'
import * as Recover from './recover.js'
import type { Report } from './Report.js'
import { run } from './run.js'
import * as Stale from './stale.js'
import * as Writer from './writer.js'

export type { Options } from './Options.js'
export { batchSize, defaultStateDir } from './Options.js'

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
      const opened = await Interpreters.open(machine, plan.right, options)
      if (E.isLeft(opened)) return opened
      try {
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
        const report = await run(machine, plan.right, options, state, { opened: opened.right, now: checked.now }, accounts.right)
        return E.right({ ...report, recovered: recovered.right })
      } catch (e) {
        if (e instanceof Writer.JournalError) {
          return E.left([Diagnostic.make('Apply', `${e.message}; the run stopped, and the next apply rolls back what it began`)])
        }
        throw e
      } finally {
        // what the families shared for the run (the Holo host and its lock) ends with it
        await opened.right.end()
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
  // a relative path would never reach "/" (the dirname of "." is "."): the command line refuses one, and so does this
  if (!PosixPath.isCleanAbsolute(stateDir) || stateDir === '/') return E.left(Fault.make('Failed', 'executor', 'mkdir', stateDir, 'the state directory must be a clean absolute machine path other than "/"'))
  const lineage: string[] = []
  for (let a = stateDir; a !== '/'; a = PosixPath.dirname(a)) lineage.push(a)
  lineage.reverse()
  for (const a of lineage) {
    const p = await machine.probe(a, { contentLimit: 0 })()
    if (E.isRight(p) && p.right._tag === 'Directory') continue
    const m = await machine.mkdirp(a, { ...owner, mode: a === stateDir ? 0o700 : 0o755 })()
    if (E.isLeft(m)) return m
  }
  return E.right(owner)
}
