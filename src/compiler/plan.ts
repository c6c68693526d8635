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
        ...(l.healthChecks.length > 0 ? { healthChecks: l.healthChecks.map((h) => ({ name: h.name, argv: [...h.argv], timeoutMs: h.timeoutMs, tries: h.tries, trySleepMs: h.trySleepMs })) } : {}),
      }

/** The plugins the catalog's resources run, each once, sorted by name. */
const providersOf = (specs: ReadonlyArray<Spec>): ReadonlyArray<Plan.Provider> => {
  const seen = new Map<string, Plan.Provider>()
  for (const s of specs) {
    const p = Registry.ofKind(s._tag).provider?.(s)
    if (p !== undefined && !seen.has(p.name)) seen.set(p.name, p)
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The distinct host files the resources read (host path and spelling), in first-use order. */
const sourcesOf = (specs: ReadonlyArray<Spec>): ReadonlyArray<{ readonly path: string; readonly written: string }> => {
  const seen = new Map<string, string>()
  for (const s of specs) for (const x of Registry.ofKind(s._tag).sources?.(s) ?? []) if (!seen.has(x.path)) seen.set(x.path, x.written)
  return [...seen].map(([path, written]) => ({ path, written }))
}

/** Builds the plan body of a whole catalog; every failing resource is reported. */
export const plan = (catalog: Catalog, obs: Observations, settings: Settings): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Body> => {
  const problems: Diagnostic.Diagnostic[] = []
  const resources: Plan.ResourcePlan[] = []
  const planners = new Map<string, ReturnType<ReturnType<typeof Registry.ofKind>['planner']>>()
  const specs: Spec[] = []
  for (const spec of catalog.resources) {
    if (CatalogM.isSkipped(spec)) {
      resources.push(withLinks({ kind: spec.kind, id: spec.id, type: spec.type, name: spec.name, at: Position.render(spec.at), action: 'none', skipped: spec.reason, steps: [] }, catalog.links.get(spec.id)))
      continue
    }
    specs.push(spec)
    const type = Registry.ofKind(spec._tag)
    let planner = planners.get(spec._tag)
    if (planner === undefined) {
      planner = type.planner()
      planners.set(spec._tag, planner)
    }
    const observed = obs.byId.get(spec.id)
    if (observed === undefined) throw new Error(`invariant: no observation for ${spec.id}`)
    const env: PlanEnv = { earlier: resources, subscribe: catalog.links.get(spec.id)?.subscribe ?? [], mayChange: Registry.mayChange, accounts: obs.accounts }
    const r = planner(spec, observed, env)
    if (E.isLeft(r)) problems.push(r.left)
    else resources.push(withLinks(r.right, catalog.links.get(spec.id)))
  }
  if (problems.length > 0) return E.left(problems)
  // Sources are recorded as the manifest spells them, so plans do not depend on where a checkout lives.
  const providers = providersOf(specs)
  const sourceInputs = sourcesOf(specs).map((s) => ({ path: s.written, sha256: obs.hosts.get(s.path) ?? '' }))
  for (const f of catalog.files) if (!sourceInputs.some((s) => s.path === f.path)) sourceInputs.push(f)
  const body: Plan.Body = {
    format: Plan.formatVersion,
    plait: settings.version,
    root: settings.root,
    inputs: {
      manifest: { path: catalog.manifest.file, sha256: catalog.manifest.sha256 },
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
  return E.right(body)
}
