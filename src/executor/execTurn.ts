// execTurn: what an exec resource does when its turn comes. A subscription that triggered runs
// it whatever its guards say; a planned run asks its guards again (an earlier step may have
// changed the answer); a refresh that did not trigger, or a command its guards skipped at plan
// time, runs only if its guards now say so (a refresh_only command never does). A deferred exec
// is worked out first and then decided the same way, as one its guards have not been asked about.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type * as Step from '../core/Step.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Runner from '../interpreters/Runner.js'
import * as ExecPlan from '../types/exec/plan.js'
import * as Deferred from './deferred.js'
import * as Guards from './guards.js'

/** What the turn decided: the step to run (none: it is stable), and why, for the report. */
export interface Turn {
  readonly steps: ReadonlyArray<Step.ExecRun>
  readonly notes: ReadonlyArray<string>
}

/** Decides an exec resource's turn; an error is a guard that could not run or a deferred value that cannot be worked out. */
export const decide = async (r: Plan.ExecResourcePlan, machine: Machine, runner: () => Promise<Runner.Runner>, changed: (id: string) => boolean): Promise<E.Either<string, Turn>> => {
  const notes: string[] = []
  let planned = r.steps[0]
  let recheck = r.recheck
  if (r.deferred !== undefined) {
    const worked = await Deferred.resolveExec(machine, { ...r, deferred: r.deferred })
    if (E.isLeft(worked)) return E.left(`cannot work out the deferred command: ${worked.left}`)
    notes.push(`worked out at its turn: ${worked.right.line}`)
    if (r.deferred.refreshOnly && !(r.subscribe ?? []).some(changed)) return E.right({ steps: [], notes: [...notes, 'not run: refresh_only, and no subscribed resource changed'] })
    planned = undefined
    recheck = worked.right
  }
  const candidate = planned ?? recheck
  const triggeredBy = (r.subscribe ?? []).filter(changed)
  if (candidate !== undefined && triggeredBy.length > 0) return E.right({ steps: [{ ...candidate, reason: `refreshed: ${triggeredBy.join(', ')} changed` }], notes })
  const skip = async (run: Step.ExecRun): Promise<E.Either<string, string | undefined>> =>
    E.map((s: ExecPlan.ExecStatus) => ExecPlan.skipReason(run.guards, s))(await Guards.evaluate(run.guards, machine, await runner()))
  if (planned !== undefined && planned.when === undefined) {
    const why = await skip(planned)
    if (E.isLeft(why)) return why
    return E.right(why.right === undefined ? { steps: [planned], notes } : { steps: [], notes: [...notes, `not run: ${why.right} now; when the plan was made it would have run (${planned.reason})`] })
  }
  if (planned?.when !== undefined) notes.push(`not refreshed: ${planned.when.join(', ')} did not change`)
  if (recheck === undefined) return E.right({ steps: [], notes })
  const why = await skip(recheck)
  if (E.isLeft(why)) return why
  if (r.deferred !== undefined) {
    return E.right(why.right === undefined ? { steps: [{ ...recheck, reason: ExecPlan.runReason(recheck.guards) }], notes } : { steps: [], notes: [...notes, `not run: ${why.right}`] })
  }
  if (why.right !== undefined) return E.right({ steps: [], notes })
  return E.right({ steps: [recheck], notes: [...notes, `runs now: when the plan was made it was ${r.observed.summary}; its guards say otherwise at its turn`] })
}

/** Runs an exec step's command and checks its exit; with `logoutput`, its stdout lines go to `output`. */
export const run = async (runner: Runner.Runner, step: Step.ExecRun, output: string[]): Promise<E.Either<Fault.Fault, unknown>> => {
  const r = await runner.run(step.command)
  if (E.isLeft(r)) return r
  if (step.logoutput) output.push(...r.right.stdout.split('\n').filter((l) => l !== '').map((l) => `output: ${l}`))
  const why = ExecPlan.checkExit(step.returns, r.right.exitCode, r.right.signal)
  if (why === undefined) return E.right(undefined)
  const tail = r.right.stderr.trim().split('\n').slice(-3).join(' / ')
  return E.left(Fault.make('Failed', 'exec', 'run', step.line, `${why}${tail !== '' ? `; stderr: ${tail}` : ''}`))
}
