// Observations: what the observe stage gathered, as the pure plan stage reads it.
import type * as E from 'fp-ts/lib/Either.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import type { Accounts } from '../core/Probe.js'

/** Everything observe gathered: the accounts, what each resource's observation found (by id), and the host files read. */
export interface Observations {
  readonly accounts: Accounts
  readonly byId: ReadonlyMap<string, unknown>
  /** The sha256 of each host file read (a `source:`), by host path. */
  readonly hosts: ReadonlyMap<string, string>
  /** Why a resource could not be observed, by id, when observation goes on without it (see observe's `tolerant`). */
  readonly failed?: ReadonlyMap<string, Diagnostic.Diagnostic>
  /**
   * What observing each resource of `resources` (a catalog's, in its order) gave, skipped ones left
   * out: found (right) or why not (left), as `byId` and `failed` hold them. The plan stage of that
   * catalog reads them by position, sparing two lookups by id per resource.
   */
  readonly inOrder?: { readonly resources: ReadonlyArray<unknown>; readonly results: ReadonlyArray<E.Either<Diagnostic.Diagnostic, unknown>> }
}
