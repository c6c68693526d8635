// Manager: what plait asks of a package manager, whatever runs it: the state of a batch of
// packages in one go (installed version and candidate), and one install or removal. `apt.ts` runs
// apt-get, apt-cache and dpkg-query, `dnf.ts` runs rpm and dnf, `select.ts` picks one of them by
// suitability; `memory.ts` is their double. All pass test/contract/packages.contract.ts.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../../core/Fault.js'
import type { Observed } from '../../types/package/Observed.js'
import type { Operation } from '../../types/package/Step.js'

export type { Observed, Operation }

/** The provider a request names: apt, dnf, or `auto` (the machine's: apt where found, else dnf). */
export type Provider = 'apt' | 'dnf' | 'auto'

export interface Manager {
  /**
   * What the package manager says of each package, in the order given, with a bounded number of
   * processes whatever the batch's size. One that cannot answer is one Fault for the whole batch;
   * its description says why ("no suitable package provider: ..."). `provider` names the package
   * manager to ask (a manager that is one ignores it; the default is `auto`).
   */
  readonly status: (names: ReadonlyArray<string>, provider?: Provider) => Promise<E.Either<Fault, ReadonlyArray<Observed>>>
  /** Installs or removes one package (by the operation's provider); one the package manager refuses is a Fault with its words. */
  readonly act: (op: Operation) => Promise<E.Either<Fault, void>>
}

/** The diagnostic of a machine without apt, when apt is asked for. */
export const aptNotSuitable = 'no suitable package provider: apt needs apt-get, apt-cache and dpkg-query, and they were not all found'

/** The diagnostic of a machine without dnf, when dnf is asked for. */
export const dnfNotSuitable = 'no suitable package provider: dnf needs dnf and rpm, and they were not both found'

/** The diagnostic of a machine with neither, when no provider is named. */
export const notSuitable = 'no suitable package provider: apt needs apt-get, apt-cache and dpkg-query, dnf needs dnf and rpm, and neither was found'
