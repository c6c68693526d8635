// steps: the interpreter of `exec.*` steps: a command run by a Runner. A command cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import type * as Step from '../../types/exec/Step.js'
import * as ExecPlan from '../../types/exec/plan.js'
import type * as Runner from '../Runner.js'
import type { StepFamily } from '../steps.js'
import * as Append from '../../core/Append.js'

/** The most lines of a command's output a report shows (its last ones): more says nothing a person reads, and each costs memory. */
export const maxOutputLines = 1000

/**
 * A command's stdout as report lines (`output: LINE`, empty lines left out): the last
 * maxOutputLines of them, after a line saying how many earlier ones are not shown. Only those are
 * made into strings (an output of millions of lines made one each, some 150 times its size).
 */
export const outputLines = (stdout: string, most = maxOutputLines): ReadonlyArray<string> => {
  const starts: number[] = []
  const ends: number[] = []
  let count = 0
  for (let from = 0; from < stdout.length; ) {
    const nl = stdout.indexOf('\n', from)
    const end = nl < 0 ? stdout.length : nl
    if (end > from) {
      count += 1
      starts.push(from)
      ends.push(end)
      if (starts.length > 2 * most) {
        starts.splice(0, starts.length - most)
        ends.splice(0, ends.length - most)
      }
    }
    from = end + 1
  }
  const shown = Math.min(most, starts.length)
  const out: string[] = count > shown ? [`output: (${count - shown} earlier line${count - shown === 1 ? '' : 's'} not shown)`] : []
  for (let k = starts.length - shown; k < starts.length; k++) out.push(`output: ${stdout.slice(starts[k], ends[k])}`)
  return out
}

/** Runs an exec step's command and checks its exit; with `logoutput`, its stdout lines go to `output`. */
export const run = async (runner: Runner.Runner, step: Step.ExecRun, output: string[]): Promise<E.Either<Fault.Fault, unknown>> => {
  const r = await runner.run(step.command)
  if (E.isLeft(r)) return r
  if (step.logoutput) Append.append(output, outputLines(r.right.stdout))
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
