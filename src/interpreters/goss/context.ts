// context: what goss probes use on a run, each service and package manager made only when a
// rule asks it (systemctl; apt or dnf by suitability below the machine's root), once for every
// check of a run that shares them.
import { once } from '../../core/Memo.js'
import type { Machine } from '../Machine.js'
import type { Manager as PackageManager } from '../packages/Manager.js'
import * as PackageSelect from '../packages/select.js'
import type { Runner } from '../Runner.js'
import type { Manager as ServiceManager } from '../services/Manager.js'
import * as Systemctl from '../services/systemctl.js'
import type { Context } from './probes.js'

/**
 * What a caller may give: the machine, the managers it already has (each made on first use), and
 * the proc directory. A caller that gives every check of a run the same managers (`shared`) has
 * them made once: each check made its own, and an apt manager below a root writes a private
 * configuration and registers an exit listener (Node warned past ten).
 */
export interface Given {
  readonly machine: Machine
  readonly services?: () => ServiceManager
  readonly packages?: () => PackageManager
  /** The host's proc filesystem (default /proc). */
  readonly proc?: string
}

/** A service and a package manager, each made on first use, once (systemctl; apt or dnf by suitability below the root). */
const managers = (machine: Machine): { readonly services: () => ServiceManager; readonly packages: () => PackageManager } => ({
  services: once(() => Systemctl.make()),
  packages: once(() => PackageSelect.make({ root: machine.root })),
})

/** What every check of a run is given: the machine, and managers made once for them all. */
export const shared = (machine: Machine): Given => ({ machine, ...managers(machine) })

/** The probes' context for a try (a manager not given is made on first use, for this try). */
export const make = (g: Given, runner: Runner): Context => {
  const own = managers(g.machine)
  return { machine: g.machine, runner, services: g.services ?? own.services, packages: g.packages ?? own.packages, proc: g.proc ?? '/proc' }
}
