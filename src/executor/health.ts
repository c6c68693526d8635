// health: runs a resource's health checks (nagios plugins, or goss rules checked natively) with
// their tries and sleeps, after the resource is applied, and for `plait check`.
import { after } from '../interpreters/timer.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type * as GossContext from '../interpreters/goss/context.js'
import type * as Runner from '../interpreters/Runner.js'
import * as Health from '../types/Health.js'

/** Waits; tests pass one that does not. */
export type Sleep = (ms: number) => Promise<void>

export const sleep: Sleep = (ms) => new Promise((resolve) => after(ms, () => resolve()))

/** What goss rules are checked on (the machine, and the managers a caller already has). */
export type Goss = GossContext.Given

/** One try of goss rules, bounded by the check's timeout. */
const gossTry = async (check: Plan.HealthCheck, rules: Readonly<Record<string, unknown>>, runner: Runner.Runner, goss: Goss | undefined): Promise<{ status: Health.Status; message: string }> => {
  if (goss === undefined) return { status: 'UNKNOWN', message: 'goss rules cannot be checked here: no machine was given' }
  const [Run, Context] = await Promise.all([import('../interpreters/goss/run.js'), import('../interpreters/goss/context.js')])
  let cancel: () => void = () => undefined
  const timeout = new Promise<{ status: Health.Status; message: string }>((resolve) => {
    cancel = after(check.timeoutMs, () => resolve({ status: 'UNKNOWN', message: `goss rules timed out after ${check.timeoutMs}ms` }))
  })
  try {
    return await Promise.race([Run.check(rules, Context.make(goss, runner)), timeout])
  } finally {
    cancel()
  }
}

/** Runs one check until it is OK or its tries are used up. */
export const runCheck = async (check: Plan.HealthCheck, runner: Runner.Runner, wait: Sleep = sleep, goss?: Goss): Promise<Health.Result> => {
  let last: Health.Result = { name: check.name, status: 'UNKNOWN', message: 'not run', tries: 0 }
  for (let i = 1; i <= check.tries; i++) {
    if (i > 1) await wait(check.trySleepMs)
    if (check.goss !== undefined) {
      last = { name: check.name, ...(await gossTry(check, check.goss, runner, goss)), tries: i }
    } else {
      const r = await runner.run({ argv: check.argv, environment: [], timeoutMs: check.timeoutMs })
      last = E.isLeft(r)
        ? { name: check.name, status: 'UNKNOWN', message: Fault.render(r.left), tries: i }
        : { name: check.name, status: Health.statusOf(r.right.exitCode), message: Health.firstLine(r.right.stdout), tries: i }
    }
    if (last.status === 'OK') return last
  }
  return last
}

/** Runs every check of a resource, in order. */
export const runAll = async (checks: ReadonlyArray<Plan.HealthCheck>, runner: Runner.Runner, wait: Sleep = sleep, goss?: Goss): Promise<ReadonlyArray<Health.Result>> => {
  const out: Health.Result[] = []
  for (const c of checks) out.push(await runCheck(c, runner, wait, goss))
  return out
}
