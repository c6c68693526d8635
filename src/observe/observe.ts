// observe: runs every resource's observation program (see core/Observation.ts) against the
// machine, its plugins and the host's input files, and gathers what they found. It plans nothing:
// what an observation means is decided by the types' plan functions.
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type { Families, Observation } from '../core/Observation.js'
import * as Fault from '../core/Fault.js'
import { once } from '../core/Memo.js'
import type { Accounts } from '../core/Probe.js'
import type { Observations } from './Observations.js'
import * as Interpreters from '../interpreters/families.js'
import type { Machine } from '../interpreters/Machine.js'
import type { ReadHost } from '../interpreters/probes.js'
import type { Session } from '../interpreters/libral/Session.js'
import type { Runner } from '../interpreters/Runner.js'
import * as Registry from '../types/registry.js'
import type { Spec } from '../types/ResourceType.js'
import * as Run from './run.js'

// model

export type { Observations }
export type { ReadHost }

/**
 * Observes the catalog's resources with the given request families (their requests batched, round
 * by round). A resource that cannot be observed stops it, unless `tolerant`: then it is recorded in
 * `failed` and the others are observed (`plait plan` plans them, and fails that one).
 */
export const observeWith = async (
  catalog: Catalog,
  families: Families,
  accounts: Accounts,
  hosts: ReadonlyMap<string, string>,
  tolerant = false,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Observations>> => {
  const observed: Spec[] = []
  const programs: Observation<E.Either<unknown, unknown>>[] = []
  // the type of the kind observed last: resources of a kind come in runs
  let type: ReturnType<typeof Registry.ofKind> | undefined
  for (const spec of catalog.resources) {
    if (spec._tag === 'skipped') continue
    if (type?.kind !== spec._tag) type = Registry.ofKind(spec._tag)
    observed.push(spec)
    programs.push(type.observe(spec))
  }
  const results = (await Run.runAll(programs, families)) as ReadonlyArray<E.Either<Diagnostic.Diagnostic, unknown>>
  const problems = new Set<Diagnostic.Diagnostic>()
  const failed = new Map<string, Diagnostic.Diagnostic>()
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    if (E.isLeft(r)) {
      problems.add(r.left)
      failed.set(observed[i]!.id, r.left)
    }
  }
  if (!tolerant && problems.size > 0) return E.left([...problems])
  // The index by id is made when first read: the plan stage reads `inOrder` instead.
  let byId: ReadonlyMap<string, unknown> | undefined
  const index = (): ReadonlyMap<string, unknown> => {
    if (byId !== undefined) return byId
    const made = new Map<string, unknown>()
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!
      if (E.isRight(r)) made.set(observed[i]!.id, r.right)
    }
    return (byId = made)
  }
  return E.right({
    accounts,
    get byId() {
      return index()
    },
    hosts,
    inOrder: { resources: catalog.resources, results },
    ...(tolerant && failed.size > 0 ? { failed } : {}),
  })
}

/**
 * Observes the whole catalog: the accounts, then every resource's program. `session` runs libral providers and `runner` guard commands, when the catalog
 * has resources that need them; `holo` says how holo resources are observed (`--plugin-timeout`).
 */
export const observe = async (
  catalog: Catalog,
  machine: Machine,
  readHost: ReadHost,
  session?: Session | (() => Promise<Session>),
  runner?: Runner | (() => Promise<Runner>),
  tolerant = false,
  holo?: Interpreters.Services['holo'],
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Observations>> => {
  const accounts = await machine.accounts()()
  if (E.isLeft(accounts)) return E.left([Diagnostic.make('Observe', `cannot read the user database: ${Fault.render(accounts.left)}`)])
  const hosts = new Map<string, string>()
  const families = Interpreters.requests({
    machine,
    readHost,
    seen: (path, sha256) => hosts.set(path, sha256),
    ...(runner !== undefined ? { runner: typeof runner === 'function' ? once(runner) : async () => runner } : {}),
    ...(session !== undefined ? { libral: { session: typeof session === 'function' ? session : async () => session } } : {}),
    ...(holo !== undefined ? { holo } : {}),
  })
  return observeWith(catalog, families, accounts.right, hosts, tolerant)
}
