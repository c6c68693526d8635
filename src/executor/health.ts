// health: runs a resource's health checks (nagios plugins) with their tries and sleeps, after the
// resource is applied, and for `plait check`.
import { after } from '../interpreters/timer.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type * as Runner from '../interpreters/Runner.js'
import * as Health from '../types/Health.js'

/** Waits; tests pass one that does not. */
export type Sleep = (ms: number) => Promise<void>

export const sleep: Sleep = (ms) => new Promise((resolve) => after(ms, () => resolve()))

/** Runs one check until it is OK or its tries are used up. */
export const runCheck = async (check: Plan.HealthCheck, runner: Runner.Runner, wait: Sleep = sleep): Promise<Health.Result> => {
  let last: Health.Result = { name: check.name, status: 'UNKNOWN', message: 'not run', tries: 0 }
  for (let i = 1; i <= check.tries; i++) {
    if (i > 1) await wait(check.trySleepMs)
    const r = await runner.run({ argv: check.argv, environment: [], timeoutMs: check.timeoutMs })
    last = E.isLeft(r)
      ? { name: check.name, status: 'UNKNOWN', message: Fault.render(r.left), tries: i }
      : { name: check.name, status: Health.statusOf(r.right.exitCode), message: Health.firstLine(r.right.stdout), tries: i }
    if (last.status === 'OK') return last
  }
  return last
}

/** Runs every check of a resource, in order. */
export const runAll = async (checks: ReadonlyArray<Plan.HealthCheck>, runner: Runner.Runner, wait: Sleep = sleep): Promise<ReadonlyArray<Health.Result>> => {
  const out: Health.Result[] = []
  for (const c of checks) out.push(await runCheck(c, runner, wait))
  return out
}
