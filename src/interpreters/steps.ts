// steps: what the executor asks of the interpreter of a step family (`file.*` → Machine, `exec.*` →
// Runner, `libral.*` → the libral session; see families.ts for the table). The executor keeps the
// lock, the journal, the turn order, verification and rollback; a family runs its steps, prepares
// their undo (or says why there is none), and describes them.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
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
  /** Its undo, recorded before it runs: a backup of what it replaces, what it creates, or Irreversible with the reason. */
  readonly prepare: (step: Plan.Step, backup: string) => Promise<E.Either<Fault, Undo>>
  /** The temp file a step writes through (journaled, so recovery can remove a half-written one). */
  readonly temp?: (step: Plan.Step, pid: number, seq: number) => string | undefined
  readonly run: (step: Plan.Step, env: StepEnv) => Promise<E.Either<Fault, unknown>>
  /** How a failure of its steps reads in a report. */
  readonly failure: (fault: Fault) => string
}

/** The family of a step tag (`file.write` → `file`). */
export const familyOf = (tag: string): string => tag.slice(0, tag.indexOf('.') === -1 ? tag.length : tag.indexOf('.'))
