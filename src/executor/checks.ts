// checks: a resource's health checks at its turn, as apply and its noop run them.
import type * as Plan from '../core/Plan.js'
import type * as Families from '../interpreters/families.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Runner from '../interpreters/Runner.js'
import * as HealthM from '../types/Health.js'
import * as Health from './health.js'
import type { Options } from './Options.js'
import * as Append from '../core/Append.js'

/** What a run's goss rules are checked with: its machine and the service and package managers of its families, shared by every check. */
export const gossOf = (machine: Machine, opened: Pick<Families.Opened, 'services' | 'packages'>): Health.Goss => ({ machine, services: opened.services, packages: opened.packages })

/** Runs a resource's health checks (adding each result to `notes`); the failure, if one is not OK. */
export const checkHealth = async (r: Plan.ResourcePlan, machine: Machine, options: Options, notes: string[], goss: Health.Goss): Promise<string | undefined> => {
  if (r.healthChecks === undefined || r.healthChecks.length === 0) return undefined
  const results = await Health.runAll(r.healthChecks, await runnerOf(machine, options), options.sleep, goss)
  options.onHealth?.(r.id, results)
  const bad = results.filter((x) => x.status !== 'OK')
  Append.append(notes, results.filter((x) => x.status === 'OK').map(HealthM.render))
  return bad.length === 0 ? undefined : bad.map(HealthM.render).join('; ')
}

/** The runner of exec commands: the given one, or real processes (loaded only when a plan runs a command). */
const runnerOf = async (machine: Machine, options: Options): Promise<Runner.Runner> =>
  options.runner ?? (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
