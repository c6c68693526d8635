// plan: Catalog × observations → Plan body (pure). Same inputs, byte-identical plan. Each resource
// is planned by its type's planner (see src/types/registry.ts), in manifest order.
import * as E from 'fp-ts/lib/Either.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import type { Observations } from '../observe/Observations.js'
import * as Registry from '../types/registry.js'
import type { PlanEnv, Spec } from '../types/ResourceType.js'
import type { Catalog, Links } from './Catalog.js'
import * as CatalogM from './Catalog.js'
import * as Position from '../core/Position.js'

export type { Observations }

/** Settings recorded in the plan. */
export interface Settings {
  readonly version: string
  readonly root: string
}

/** A resource's plan with its links (only those it has). */
const withLinks = (r: Plan.ResourcePlan, l: Links | undefined): Plan.ResourcePlan =>
  l === undefined
    ? r
    : {
        ...r,
        ...(l.require.length > 0 ? { require: [...l.require] } : {}),
        ...(l.subscribe.length > 0 ? { subscribe: [...l.subscribe] } : {}),
        ...(l.healthChecks.length > 0 ? { healthChecks: l.healthChecks.map((h) => ({ name: h.name, argv: [...h.argv], timeoutMs: h.timeoutMs, tries: h.tries, trySleepMs: h.trySleepMs, ...(h.goss !== undefined ? { goss: h.goss } : {}) })) } : {}),
      }

/** Registry.ofKind, remembering the type it gave last: a catalog's resources of a kind come in runs. */
const typesInRuns = (): ((kind: string) => ReturnType<typeof Registry.ofKind>) => {
  let last: ReturnType<typeof Registry.ofKind> | undefined
  return (kind) => (last !== undefined && last.kind === kind ? last : (last = Registry.ofKind(kind)))
}

/** The plugins the catalog's resources run, each once, sorted by name. */
const providersOf = (specs: ReadonlyArray<Spec>): ReadonlyArray<Plan.Provider> => {
  const seen = new Map<string, Plan.Provider>()
  const typeOf = typesInRuns()
  for (const s of specs) {
    const p = typeOf(s._tag).provider?.(s)
    if (p !== undefined && !seen.has(p.name)) seen.set(p.name, p)
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The distinct host files the resources read (host path and spelling), in first-use order. */
const sourcesOf = (specs: ReadonlyArray<Spec>): ReadonlyArray<{ readonly path: string; readonly written: string }> => {
  const seen = new Map<string, string>()
  const typeOf = typesInRuns()
  for (const s of specs) for (const x of typeOf(s._tag).sources?.(s) ?? []) if (!seen.has(x.path)) seen.set(x.path, x.written)
  return [...seen].map(([path, written]) => ({ path, written }))
}

/** A failed resource's reason: the diagnostic's message, with its hint. */
const reasonOf = (d: Diagnostic.Diagnostic): string => (d.hint === undefined ? d.message : `${d.message} (${d.hint})`)

/**
 * Builds the plan body of a whole catalog; every failing resource is reported. A resource that
 * cannot be planned (or was not observed: see observe's `tolerant`) stops the plan.
 */
export const plan = (catalog: Catalog, obs: Observations, settings: Settings): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Body> => {
  const made = planning(catalog, obs, settings)
  return made.problems.length > 0 ? E.left(made.problems) : E.right(made.body)
}

/** The plan's record of its manifest: its sha256 is read from the catalog when first read (see compile's manifestInput). */
const manifestOf = (catalog: Catalog): Plan.Body['inputs']['manifest'] => ({
  path: catalog.manifest.file,
  get sha256() {
    return catalog.manifest.sha256
  },
})

/**
 * Builds the plan body of a whole catalog, as CCM goes on past a resource that fails: a resource
 * that cannot be planned, or could not be observed, is a failed resource of the plan (with the
 * reason), and everything else is planned. Its diagnostics, each once, come with it.
 */
export const planAll = (catalog: Catalog, obs: Observations, settings: Settings): { readonly body: Plan.Body; readonly problems: ReadonlyArray<Diagnostic.Diagnostic> } =>
  planning(catalog, obs, settings)

/** The resources planned so far, and what planners ask of them, kept by index as the list grows (see PlanEnv). */
export interface Earlier {
  /** The list itself, in manifest order, which becomes the plan's (append only through `push`). */
  readonly resources: Plan.ResourcePlan[]
  /** Appends the next resource's plan. */
  readonly push: (r: Plan.ResourcePlan) => void
  readonly byId: (id: string) => Plan.ResourcePlan | undefined
  readonly someMayChange: () => boolean
}

/**
 * An empty list of planned resources with its index by id (the first with an id: ids are unique in
 * a catalog) and a running `some(mayChange)`: planners look ids up instead of scanning the list,
 * which made planning quadratic in the resources that subscribe or wait on deferred values.
 */
export const earlier = (mayChange: (r: Plan.ResourcePlan) => boolean): Earlier => {
  const resources: Plan.ResourcePlan[] = []
  const ids = new Map<string, Plan.ResourcePlan>()
  let some = false
  return {
    resources,
    push: (r) => {
      resources.push(r)
      if (!ids.has(r.id)) ids.set(r.id, r)
      if (!some) some = mayChange(r)
    },
    byId: (id) => ids.get(id),
    someMayChange: () => some,
  }
}

const planning = (catalog: Catalog, obs: Observations, settings: Settings): { readonly body: Plan.Body; readonly problems: ReadonlyArray<Diagnostic.Diagnostic> } => {
  const problems = new Set<Diagnostic.Diagnostic>()
  const planners = new Map<string, ReturnType<ReturnType<typeof Registry.ofKind>['planner']>>()
  const specs: Spec[] = []
  // A failed earlier resource may yet change nothing or something: what waits on it waits (and is skipped at apply).
  const mayChange = (r: Plan.ResourcePlan): boolean => Plan.isFailed(r) || Registry.mayChange(r)
  const planned = earlier(mayChange)
  const resources = planned.resources
  // One env for every resource that subscribes to nothing (most): `earlier` is the growing list itself.
  const plainEnv: PlanEnv = { earlier: resources, byId: planned.byId, someMayChange: planned.someMayChange, subscribe: [], mayChange, accounts: obs.accounts }
  // the planner of the kind planned last: resources of a kind come in runs
  let lastKind: string | undefined
  let planner: ReturnType<ReturnType<typeof Registry.ofKind>['planner']> | undefined
  // what observe found, by position when it was made for this very catalog (see Observations.inOrder)
  const inOrder = obs.inOrder !== undefined && obs.inOrder.resources === catalog.resources ? obs.inOrder.results : undefined
  let k = 0
  const linked = catalog.links.size > 0
  for (const spec of catalog.resources) {
    const links = linked ? catalog.links.get(spec.id) : undefined
    if (CatalogM.isSkipped(spec)) {
      planned.push(withLinks({ kind: spec.kind, id: spec.id, type: spec.type, name: spec.name, at: Position.render(spec.at), action: 'none', skipped: spec.reason, steps: [] }, links))
      continue
    }
    specs.push(spec)
    if (spec._tag !== lastKind || planner === undefined) {
      lastKind = spec._tag
      planner = planners.get(spec._tag)
      if (planner === undefined) {
        planner = Registry.ofKind(spec._tag).planner()
        planners.set(spec._tag, planner)
      }
    }
    let observed: unknown
    let unobserved: Diagnostic.Diagnostic | undefined
    if (inOrder !== undefined) {
      const o = inOrder[k++]!
      if (E.isLeft(o)) unobserved = o.left
      else observed = o.right
    } else {
      observed = obs.byId.get(spec.id)
      unobserved = obs.failed?.get(spec.id)
    }
    if (observed === undefined && unobserved === undefined) throw new Error(`invariant: no observation for ${spec.id}`)
    const env: PlanEnv = links === undefined || links.subscribe.length === 0 ? plainEnv : { ...plainEnv, subscribe: links.subscribe }
    const r: E.Either<Diagnostic.Diagnostic, Plan.ResourcePlan> = unobserved !== undefined ? E.left(unobserved) : planner(spec, observed, env)
    if (E.isRight(r)) {
      planned.push(withLinks(r.right, links))
      continue
    }
    problems.add(r.left)
    const { id, type: typeName, name } = CatalogM.identity(spec)
    planned.push(withLinks({ kind: spec._tag, id, type: typeName, name, at: Position.render(spec.at), action: 'none', failed: reasonOf(r.left), steps: [] }, links))
  }
  // Sources are recorded as the manifest spells them, so plans do not depend on where a checkout lives.
  const providers = providersOf(specs)
  const sourceInputs = sourcesOf(specs).map((s) => ({ path: s.written, sha256: obs.hosts.get(s.path) ?? '' }))
  const recorded = new Set(sourceInputs.map((s) => s.path))
  for (const f of catalog.files) {
    if (recorded.has(f.path)) continue
    recorded.add(f.path)
    sourceInputs.push(f)
  }
  const body: Plan.Body = {
    format: Plan.formatVersion,
    plait: settings.version,
    root: settings.root,
    inputs: {
      manifest: manifestOf(catalog),
      sources: sourceInputs,
      reads: [...catalog.reads],
      ...(catalog.hiera !== undefined ? { hiera: { path: catalog.hiera.file, sha256: catalog.hiera.sha256 } } : {}),
      ...(providers.length > 0 ? { providers: [...providers] } : {}),
      ...(catalog.clock !== undefined ? { clock: catalog.clock } : {}),
    },
    failOnError: catalog.failOnError,
    resources,
    summary: Plan.summarize(resources),
    ...(catalog.preMessage !== undefined ? { preMessage: catalog.preMessage } : {}),
    ...(catalog.postMessage !== undefined ? { postMessage: catalog.postMessage } : {}),
  }
  return { body, problems: [...problems] }
}
