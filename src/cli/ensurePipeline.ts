// ensurePipeline: the normal pipeline (compile → observe → plan → seal, as pipeline.ts wires it) for
// the one-resource manifest of `plait ensure` and `plait status`, with a session's earlier outcomes
// as the resources its `--subscribe` references: a subscribed resource the session saw change is
// planned as an earlier resource that changes, so the subscriber's refresh is in the plan.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as CatalogM from '../compiler/Catalog.js'
import * as Planner from '../compiler/plan.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Literals from '../core/Literals.js'
import * as Plan from '../core/Plan.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Load from '../load/load.js'
import type { Observations } from '../observe/Observations.js'
import { observe } from '../observe/observe.js'
import * as Registry from '../types/registry.js'
import { compileResolved, readHost, type FactSource, type Providers } from './pipeline.js'
import * as Sensitive from './sensitive.js'

type Diagnostics = ReadonlyArray<Diagnostic.Diagnostic>

/** What an ensure command plans: the manifest document, and the session's references of its one resource. */
export interface Input {
  readonly document: string
  readonly require: ReadonlyArray<string>
  readonly subscribe: ReadonlyArray<string>
  /** What the plan names as its manifest (the command line), instead of the temp file it was read from. */
  readonly label: string
  /** The resource's id, what a problem of the temp manifest is said of instead of a position in it. */
  readonly id: string
  /** True for an id the session saw change in an earlier command. */
  readonly changedBefore: (id: string) => boolean
}

/** A one-resource manifest compiled and observed. */
export interface Observed {
  readonly catalog: Catalog
  readonly observations: Observations
  readonly resolved: Parameters<typeof Sensitive.seal>[1]
}

/** A text with the temp manifest's path (and any position in it) said as the resource instead. */
const scrubbed =
  (path: string, id: string) =>
  (text: string): string =>
    text.replace(new RegExp(`${Literals.regExpSource(path)}(:\\d+)*`, 'g'), id)

/** A diagnostic without a position in the temp manifest (the user wrote a command line, not that file), said of the resource. */
const unplaced =
  (path: string, id: string) =>
  (d: Diagnostic.Diagnostic): Diagnostic.Diagnostic => {
    const say = scrubbed(path, id)
    const here = d.at?.file === path
    return Diagnostic.make(d.code, say(d.message), { ...(here ? {} : { at: d.at }), resource: d.resource ?? (here ? id : undefined), hint: d.hint === undefined ? undefined : say(d.hint) })
  }

/** Writes the document to a private temp file, runs `f` on its path, and removes it. */
const withManifest = async <A>(document: string, f: (path: string) => Promise<A>): Promise<A> => {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'plait-ensure-'))
  try {
    const path = nodePath.join(dir, 'ensure.yaml')
    fs.writeFileSync(path, document, { mode: 0o600, flag: 'wx' })
    return await f(path)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The catalog with the session's references as the one resource's links. */
const linked = (catalog: Catalog, input: Pick<Input, 'require' | 'subscribe'>): Catalog => {
  if (input.require.length === 0 && input.subscribe.length === 0) return catalog
  const links = new Map(catalog.links)
  for (const r of catalog.resources) {
    const before = links.get(r.id)
    links.set(r.id, { require: [...(before?.require ?? []), ...input.require], subscribe: [...(before?.subscribe ?? []), ...input.subscribe], healthChecks: before?.healthChecks ?? [] })
  }
  return { ...catalog, links }
}

/** Compiles and observes the one-resource manifest (what `plait status` shows). */
export const observeOne = async (input: Input, machine: Machine, facts: FactSource, providers: Providers, warn: (ds: Diagnostics) => void): Promise<E.Either<Diagnostics, Observed>> =>
  withManifest(input.document, async (path) => {
    const compiled = await compileResolved(path, machine, facts, providers, (ds) => warn(ds.map(unplaced(path, input.id))))
    if (E.isLeft(compiled)) return E.left(compiled.left.map(unplaced(path, input.id)))
    const catalog = linked(compiled.right.catalog, input)
    const runner = async () => (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
    const hostInputs = await Load.sources(catalog, readHost)
    const observed = await observe(catalog, machine, hostInputs, providers.session, runner, true)
    if (E.isLeft(observed)) return E.left(observed.left.map(unplaced(path, input.id)))
    return E.right({ catalog, observations: observed.right, resolved: compiled.right.resolved })
  })

/** A resource the session saw change, as the planner's earlier resource (its steps are not this run's). */
const earlierChange = (id: string): Plan.ResourcePlan => {
  const at = id.indexOf('#')
  return { kind: id.slice(0, at), id, type: id.slice(0, at), name: id.slice(at + 1), at: 'an earlier command of this session', action: 'update', steps: [] } as unknown as Plan.ResourcePlan
}

/** The resource planned again with what the session saw change among what it subscribes to, keeping its links. */
const replanned = (o: Observed, r: Plan.ResourcePlan, changed: ReadonlyArray<string>): Plan.ResourcePlan => {
  const spec = o.catalog.resources.find((s) => s.id === r.id)
  const observed = o.observations.byId.get(r.id)
  if (spec === undefined || CatalogM.isSkipped(spec) || observed === undefined || Plan.isFailed(r)) return r
  const earlier = changed.map(earlierChange)
  // looked up, as the manifest planner's env does: a subscriber of 40,000 scanned them for each (20 s)
  const byId = new Map(earlier.map((e) => [e.id, e] as const))
  const changedIds = new Set(changed)
  const made = Registry.ofKind(spec._tag).planner()(spec, observed, {
    earlier,
    byId: (id) => byId.get(id),
    // every one of them changed
    someMayChange: () => earlier.length > 0,
    subscribe: r.subscribe ?? [],
    mayChange: (x) => changedIds.has(x.id) || Registry.mayChange(x),
    accounts: o.observations.accounts,
  })
  if (E.isLeft(made)) return r
  const { require, subscribe, healthChecks } = r
  return { ...made.right, ...(require !== undefined ? { require } : {}), ...(subscribe !== undefined ? { subscribe } : {}), ...(healthChecks !== undefined ? { healthChecks } : {}) }
}

/** Plans the one-resource manifest: the plan `plait ensure` shows and applies. */
export const planOne = async (input: Input, machine: Machine, version: string, facts: FactSource, providers: Providers, warn: (ds: Diagnostics) => void): Promise<E.Either<Diagnostics, Plan.Plan>> => {
  const o = await observeOne(input, machine, facts, providers, warn)
  if (E.isLeft(o)) return o
  const body = Planner.planAll(o.right.catalog, o.right.observations, { version, root: machine.root }).body
  const changed = input.subscribe.filter(input.changedBefore)
  // The session's requirements were checked before planning; the executor only knows this run's resources.
  const resources = body.resources.map((r) => {
    const { require: _, ...rest } = changed.length > 0 ? replanned(o.right, r, changed) : r
    // Said of the command line, not of a position in the temp manifest.
    return { ...rest, at: input.label } as Plan.ResourcePlan
  })
  const inputs = { ...body.inputs, manifest: { ...body.inputs.manifest, path: input.label } }
  return Sensitive.seal({ ...body, inputs, resources, summary: Plan.summarize(resources) }, o.right.resolved, providers.secretKey, Sensitive.carriers(o.right.catalog.resources))
}
