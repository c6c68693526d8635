// Options: what an apply is given: where its state lives, how it runs, and the hooks and
// interpreters callers (the CLI, ensure, tests) pass in.
import type * as Plan from '../core/Plan.js'
import type * as Families from '../interpreters/families.js'
import type * as Session from '../interpreters/libral/Session.js'
import type { Manager as PackageManager } from '../interpreters/packages/Manager.js'
import type * as Runner from '../interpreters/Runner.js'
import type { Manager as ServiceManager } from '../interpreters/services/Manager.js'
import type * as HealthM from '../types/Health.js'
import type * as Generations from './generations.js'
import type * as Health from './health.js'

/** The options of an apply. */
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
  /**
   * At most this many consecutive independent file steps (writes, or mkdirs, on unrelated paths)
   * share one durable point, their temp files written concurrently and their directories fsynced
   * once (docs/apply.md, "Batches"); unset or 1: every step is its own durable point.
   */
  readonly batch?: number
}

/** The batch size `plait apply` uses: large enough that a batch's fsyncs are few, small enough to bound what a crash leaves to settle. */
export const batchSize = 4096

/** The default state directory. */
export const defaultStateDir = '/var/lib/plait'
