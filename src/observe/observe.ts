// observe: runs every resource's observation program (see core/Observation.ts) against the
// machine, its plugins and the host's input files, and gathers what they found. It plans nothing:
// what an observation means is decided by the types' plan functions.
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as Diagnostic from '../core/Diagnostic.js'
import { memo } from '../core/Memo.js'
import * as Digest from '../core/Digest.js'
import type { Families } from '../core/Observation.js'
import * as Fault from '../core/Fault.js'
import type { Accounts, Probe } from '../core/Probe.js'
import type { Observations } from './Observations.js'
import * as Interpreters from '../interpreters/families.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Probes from '../interpreters/probes.js'
import type { ReadHost } from '../interpreters/probes.js'
import type { Session } from '../interpreters/libral/Session.js'
import type { Runner } from '../interpreters/Runner.js'
import * as Registry from '../types/registry.js'
import type { Bytes } from '../types/ResourceType.js'
import * as Run from './run.js'

// model

export type { Observations }
export type { ReadHost }

const encoder = new TextEncoder()

/** Bytes of inline content. */
export const inlineBytes = (text: string): Bytes => {
  const data = encoder.encode(text)
  return { data, sha256: Digest.sha256(data) }
}

/**
 * `inlineBytes` that remembers its answers: equal inline contents (one per resource, often the
 * same text) share their bytes and digest. One per run (it holds every content until dropped).
 */
export const inlineMemo = (): ((text: string) => Bytes) => memo(inlineBytes)

/** A maker called at most once. */
const once = <A>(make: () => Promise<A>): (() => Promise<A>) => {
  let made: Promise<A> | undefined
  return () => (made ??= make())
}

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
  inline: (text: string) => Bytes,
  tolerant = false,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Observations>> => {
  const observed = catalog.resources.filter((r) => r._tag !== 'skipped')
  const env = { inline }
  const results = await Run.runAll(
    observed.map((spec) => Registry.ofKind(spec._tag).observe(spec, env)),
    families,
  )
  const problems = new Set<Diagnostic.Diagnostic>()
  const byId = new Map<string, unknown>()
  const failed = new Map<string, Diagnostic.Diagnostic>()
  results.forEach((r, i) => {
    if (E.isLeft(r)) {
      problems.add(r.left as Diagnostic.Diagnostic)
      failed.set(observed[i]!.id, r.left as Diagnostic.Diagnostic)
    } else byId.set(observed[i]!.id, r.right)
  })
  if (tolerant) return E.right({ accounts, byId, hosts, ...(failed.size > 0 ? { failed } : {}) })
  return problems.size > 0 ? E.left([...problems]) : E.right({ accounts, byId, hosts })
}

/**
 * Observes the whole catalog: the accounts, then every resource's program. `inline` gives inline
 * contents' bytes; `session` runs libral providers and `runner` guard commands, when the catalog
 * has resources that need them; `holo` says how holo resources are observed (`--plugin-timeout`);
 * `prefetched` gives probes made ahead of this observation (see Machine.prefetch).
 */
export const observe = async (
  catalog: Catalog,
  machine: Machine,
  readHost: ReadHost,
  inline: (text: string) => Bytes = inlineBytes,
  session?: Session | (() => Promise<Session>),
  runner?: Runner | (() => Promise<Runner>),
  tolerant = false,
  holo?: Interpreters.Services['holo'],
  prefetched?: () => Promise<ReadonlyMap<string, Probe>>,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Observations>> => {
  // probes made ahead (Machine.prefetch) answer the first batch where they may (probes.ahead)
  if (prefetched !== undefined) machine = Probes.ahead(machine, prefetched)
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
  return observeWith(catalog, families, accounts.right, hosts, inline, tolerant)
}
