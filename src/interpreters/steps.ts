// steps: what the executor asks of the interpreter of a step family (`file.*` → Machine, `exec.*` →
// Runner, `libral.*` → the libral session; see families.ts for the table). The executor keeps the
// lock, the journal, the turn order, verification and rollback; a family runs its steps, prepares
// their undo (or says why there is none), and describes them.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type { Probe } from '../core/Probe.js'
import type { Undo } from '../core/Undo.js'

/** What running a step may use besides its family's interpreter. */
export interface StepEnv {
  /** The resource the step belongs to. */
  readonly id: string
  /** What the staleness check found of the resource (the starting point of a libral update). */
  readonly now: unknown
  /** Where a step's output worth reporting goes (a command's stdout with `logoutput`). */
  readonly output: string[]
  /** The temp file name the step writes through, if its family uses one (see `temp`). */
  readonly temp?: string
}

/** The interpreter of one step family. */
export interface StepFamily {
  /** The step in one line, for journals and reports. */
  readonly describe: (step: Plan.Step) => string
  /**
   * Its undo, recorded before it runs: a backup of what it replaces, what it creates, or
   * Irreversible with the reason. `before` is its path's probe when a batch probed it already.
   */
  readonly prepare: (step: Plan.Step, backup: string, before?: Probe) => Promise<E.Either<Fault, Undo>>
  /** The temp file a step writes through (journaled, so recovery can remove a half-written one). */
  readonly temp?: (step: Plan.Step, pid: number, seq: number) => string | undefined
  readonly run: (step: Plan.Step, env: StepEnv) => Promise<E.Either<Fault, unknown>>
  /**
   * For steps a batch may run together (docs/apply.md, "Batches"): the kind of batch a step joins
   * (steps of one kind on unrelated paths), or undefined for a step that runs on its own.
   */
  readonly batchable?: (step: Plan.Step) => Batchable | undefined
  /** A batch's work ahead of its steps, run concurrently for all of them: it changes no managed path (a write's temp file). */
  readonly stage?: (step: Plan.Step, env: StepEnv) => Promise<E.Either<Fault, void>>
  /** Runs a staged step (a write's rename over its target, not fsynced: the batch fsyncs `Batchable.directory` once). */
  readonly runStaged?: (step: Plan.Step, env: StepEnv) => Promise<E.Either<Fault, unknown>>
  /** How a failure of its steps reads in a report. */
  readonly failure: (fault: Fault) => string
}

/** What a batch needs to know of a step that may join one. */
export interface Batchable {
  /** Steps of one kind batch together (`file.write`, `file.mkdir`). */
  readonly kind: string
  /** The path it changes: a batch holds no two steps where one path is, or is below, another. */
  readonly path: string
  /** The directory whose entries it changes, fsynced once per batch after its last change. */
  readonly directory: string
  /** Whether the step is staged (`stage`, then `runStaged`) rather than run. */
  readonly staged: boolean
}

/** The family of a step tag (`file.write` → `file`). */
export const familyOf = (tag: string): string => tag.slice(0, tag.indexOf('.') === -1 ? tag.length : tag.indexOf('.'))
