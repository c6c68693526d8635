// libral: the resource types of libral providers. They are found at run time: every type a
// provider on the provider path manages is a manifest resource type (see `plugin`), and all of them
// are planned and applied by this one value, against the provider a resource names.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../../core/Diagnostic.js'
import * as Fault from '../../../core/Fault.js'
import type { Observation } from '../../../core/Observation.js'
import * as Obs from '../../../core/Observation.js'
import type { LibralUpdate } from './Step.js'
import { field as f } from '../../../core/Terminal.js'
import type * as Metadata from '../protocol/Metadata.js'
import * as Registry from '../protocol/Registry.js'
import * as Resource from '../protocol/Resource.js'
import * as LibralValue from '../protocol/Value.js'
import * as Render from '../../../types/Render.js'
import type { AnyType, ResourceType } from '../../../types/ResourceType.js'
import * as LibralPlan from './plan.js'
import { LibralResourcePlan } from './ResourcePlan.js'
import * as Spec from './Spec.js'

// model

/** What the `libral` family answers: what the provider found of a name, with the provider's metadata. */
export interface Found {
  readonly found: Resource.Found
  readonly meta: Metadata.Metadata
}

/** A provider's target, when the asker has it (at plan time); at apply the family loads it from the plan's providers. */
export interface Target {
  readonly meta: Metadata.Metadata
  readonly path: string
}

// observation

/** Asks a provider what it finds of one resource (a batch asks each provider once: see interpreters/libral/probes.ts). */
export const find = (provider: string, name: string, target?: Target): Observation<E.Either<Fault.Fault, Found>> =>
  Obs.ask('libral', `${provider}\u0000${name}`, { provider, name, ...(target !== undefined ? { target } : {}) })

const observeFailure = (provider: string, fault: Fault.Fault): string => `cannot observe ${provider} resources: ${Fault.render(fault)}`

/** One diagnostic per failed provider run: every resource of the provider gets the same fault, and so the same diagnostic (reported once, at the first). */
const failures = new WeakMap<Fault.Fault, Diagnostic.Diagnostic>()
const failureOf = (spec: Spec.LibralSpec, fault: Fault.Fault): Diagnostic.Diagnostic => {
  let d = failures.get(fault)
  if (d === undefined) {
    d = Diagnostic.make('Observe', observeFailure(spec.provider.meta.qname, fault), { at: spec.at, resource: spec.id })
    failures.set(fault, d)
  }
  return d
}

// rendering

const stepLines = (s: LibralUpdate): ReadonlyArray<string> => [
  Render.stepHead(s, s.provider),
  ...s.changes.map((c) => `  ${f(c.attr)}: ${c.was === undefined ? '' : `${f(LibralValue.render(c.was))} `}→ ${f(LibralValue.render(c.is))}`),
]

/** The libral resource type over the providers a discovery found (none: it plans and applies, but decodes nothing). */
export const typeOf = (providers: Registry.Registry<Spec.Provider>): ResourceType<Spec.LibralSpec, Resource.Found, LibralResourcePlan> => ({
  kind: 'libral',
  codec: LibralResourcePlan,
  decode: (raw, env) => Spec.decode(raw, env.scope, providers),
  provider: (spec) => ({ name: spec.provider.meta.qname, path: spec.provider.path, sha256: spec.provider.digest }),
  observe: (spec) =>
    Obs.map((r: E.Either<Fault.Fault, Found>) => (E.isLeft(r) ? E.left(failureOf(spec, r.left)) : E.right(r.right.found)))(find(spec.provider.meta.qname, spec.name, { meta: spec.provider.meta, path: spec.provider.path })),
  planner: () => (spec, found) => E.right(LibralPlan.plan(spec, found)),
  pending: () => undefined,
  mayChange: (r) => r.steps.length > 0,
  needs: () => [],
  check: (r, _accounts, same) =>
    Obs.map((seen: E.Either<Fault.Fault, Found>) => {
      if (E.isLeft(seen)) return { drift: observeFailure(r.provider, seen.left), shared: seen.left }
      const now = seen.right.found
      return same(r.observed.digest, Resource.digest(now)) ? { now } : { drift: `changed since the plan was made: was ${r.observed.summary}, now ${Resource.summary(now)}`, now }
    })(find(r.provider, r.name)),
  turn: (r) => Obs.done(E.right({ steps: r.steps, expected: r, notes: [] })),
  verify: (r) => Obs.map((after: E.Either<Fault.Fault, Found>) => (E.isLeft(after) ? [Fault.render(after.left)] : LibralPlan.verify(after.right.meta, r.desired, after.right.found)))(find(r.provider, r.name)),
  render: (r, options) => Render.changes(r, (s) => stepLines(s as LibralUpdate), options.verbose),
  show: (r) => {
    const attrs = Object.keys(r.attrs).sort().map((k) => `${k}=${LibralValue.render(r.attrs[k])}`)
    return `provider=${f(r.provider.meta.qname)}${attrs.length > 0 ? ' ' + f(attrs.join(' ')) : ''}`
  },
  json: (r) => ({ _tag: r._tag, id: r.id, type: r.type, name: r.name, at: r.at, provider: r.provider.meta.qname, attrs: r.attrs }),
})

/** The libral type as apply and the renderers use it (they never decode). */
export const libral = typeOf(Registry.make([]))

/**
 * The types a discovery found, for the registry: every type a provider manages. A type plait has
 * itself goes to a provider only when `provider:` names one by its full name (`file::mine`).
 */
export const plugin = (providers: Registry.Registry<Spec.Provider>): { readonly names: ReadonlyArray<string>; readonly claims: (type: string, provider: string | undefined, builtIn: boolean) => boolean; readonly entry: AnyType } => ({
  names: [...new Set(providers.providers.map((p) => p.meta.type))].sort(),
  claims: (type, provider, builtIn) =>
    !builtIn ? Spec.isType(providers, type) : provider !== undefined && provider.includes('::') && Spec.named(providers, type, provider) !== undefined,
  entry: typeOf(providers),
})
