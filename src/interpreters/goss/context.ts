// context: what goss probes use on a run, each service and package manager made only when a
// rule asks it (systemctl; apt or dnf by suitability below the machine's root).
import type { Machine } from '../Machine.js'
import type { Manager as PackageManager } from '../packages/Manager.js'
import * as PackageSelect from '../packages/select.js'
import type { Runner } from '../Runner.js'
import type { Manager as ServiceManager } from '../services/Manager.js'
import * as Systemctl from '../services/systemctl.js'
import type { Context } from './probes.js'

/** What a caller may give: the machine, and the managers and proc directory it already has. */
export interface Given {
  readonly machine: Machine
  readonly services?: ServiceManager
  readonly packages?: PackageManager
  /** The host's proc filesystem (default /proc). */
  readonly proc?: string
}

/** The probes' context for a run. */
export const make = (g: Given, runner: Runner): Context => {
  let services = g.services
  let packages = g.packages
  return {
    machine: g.machine,
    runner,
    services: () => (services ??= Systemctl.make()),
    packages: () => (packages ??= PackageSelect.make({ root: g.machine.root })),
    proc: g.proc ?? '/proc',
  }
}
