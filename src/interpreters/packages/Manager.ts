// Manager: what plait asks of a package manager, whatever runs it: the state of a batch of
// packages in one go (installed version and candidate), and one install or removal. `apt.ts` runs
// apt-get, apt-cache and dpkg-query; `memory.ts` is its double. Both pass
// test/contract/packages.contract.ts.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../../core/Fault.js'
import type { Observed } from '../../types/package/Observed.js'
import type { Operation } from '../../types/package/Step.js'

export type { Observed, Operation }

export interface Manager {
  /**
   * What the package manager says of each package, in the order given, with a bounded number of
   * processes whatever the batch's size. One that cannot answer is one Fault for the whole batch;
   * its description says why ("no suitable package provider: ...").
   */
  readonly status: (names: ReadonlyArray<string>) => Promise<E.Either<Fault, ReadonlyArray<Observed>>>
  /** Installs or removes one package; one the package manager refuses is a Fault with its words. */
  readonly act: (op: Operation) => Promise<E.Either<Fault, void>>
}

/** The diagnostic of a machine without apt. */
export const notSuitable = 'no suitable package provider: apt needs apt-get, apt-cache and dpkg-query, and they were not all found (dnf is not available here)'
