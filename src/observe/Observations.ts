// Observations: what the observe stage gathered, as the pure plan stage reads it.
import type { Accounts } from '../core/Probe.js'

/** Everything observe gathered: the accounts, what each resource's observation found (by id), and the host files read. */
export interface Observations {
  readonly accounts: Accounts
  readonly byId: ReadonlyMap<string, unknown>
  /** The sha256 of each host file read (a `source:`), by host path. */
  readonly hosts: ReadonlyMap<string, string>
}
