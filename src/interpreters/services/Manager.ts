// Manager: what plait asks of a service manager (systemd), whatever runs it: the states of a
// batch of units in one go, one verb on one unit, and a reload of its unit files. `systemctl.ts`
// runs systemctl; `memory.ts` is its double. Both pass test/contract/services.contract.ts.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../../core/Fault.js'
import type { Verb } from '../../types/service/Step.js'
import type { Unit } from '../../types/service/Systemctl.js'

export type { Unit, Verb }

export interface Manager {
  /**
   * What the manager says of each unit, in the order given. A manager that cannot answer is one
   * Fault for the whole batch; its description says why ("no suitable provider: systemd is not running").
   */
  readonly status: (names: ReadonlyArray<string>) => Promise<E.Either<Fault, ReadonlyArray<Unit>>>
  /** Runs one verb on one unit; a verb the manager refuses is a Fault with its words. */
  readonly act: (verb: Verb, name: string) => Promise<E.Either<Fault, void>>
  /** Reloads the unit files (systemd's daemon-reload). */
  readonly reload: () => Promise<E.Either<Fault, void>>
}
