// steps: the interpreter of `exec.*` steps: a command run by a Runner. A command cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import type * as Step from '../../types/exec/Step.js'
import * as ExecPlan from '../../types/exec/plan.js'
import type * as Runner from '../Runner.js'
import type { StepFamily } from '../steps.js'
import * as Append from '../../core/Append.js'

/** Runs an exec step's command and checks its exit; with `logoutput`, its stdout lines go to `output`. */
export const run = async (runner: Runner.Runner, step: Step.ExecRun, output: string[]): Promise<E.Either<Fault.Fault, unknown>> => {
  const r = await runner.run(step.command)
  if (E.isLeft(r)) return r
  if (step.logoutput) Append.append(output, r.right.stdout.split('\n').filter((l) => l !== '').map((l) => `output: ${l}`))
  const why = ExecPlan.checkExit(step.returns, r.right.exitCode, r.right.signal)
  if (why === undefined) return E.right(undefined)
  const tail = r.right.stderr.trim().split('\n').slice(-3).join(' / ')
  return E.left(Fault.make('Failed', 'exec', 'run', step.line, `${why}${tail !== '' ? `; stderr: ${tail}` : ''}`))
}

/** The `exec` family over a runner (made on the first command). */
export const family = (runner: () => Promise<Runner.Runner>): StepFamily => ({
  describe: (step: Plan.Step) => `run ${(step as Step.ExecRun).line}`,
  prepare: async () => E.right({ _tag: 'Irreversible', reason: 'a command cannot be undone' }),
  run: async (step, env) => run(await runner(), step as Step.ExecRun, env.output),
  // The command's own words say what went wrong.
  failure: (fault) => fault.description,
})
