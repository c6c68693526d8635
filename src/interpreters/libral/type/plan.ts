// plan: a libral resource's desired attributes × what its provider found → its plan (pure), and
// the verification of what a provider reports after the update.
import * as Plan from '../../../core/Plan.js'
import * as Changes from '../protocol/Changes.js'
import type * as Metadata from '../protocol/Metadata.js'
import * as Resource from '../protocol/Resource.js'
import * as UpdateStep from '../protocol/UpdateStep.js'
import * as Value from '../protocol/Value.js'
import type { LibralResourcePlan } from './ResourcePlan.js'
import type { LibralSpec } from './Spec.js'
import * as Position from '../../../core/Position.js'

// constructors

/** The desired attributes as the plan records them (sorted by name, so plans are canonical). */
export const desiredOf = (attrs: Resource.Attrs): Record<string, LibralResourcePlan['desired'][string]> => {
  const out: Record<string, LibralResourcePlan['desired'][string]> = {}
  for (const k of Object.keys(attrs).sort()) out[k] = Value.toJson(attrs[k]!)
  return out
}

/** The action the changes amount to. */
export const actionOf = (found: Resource.Found, changes: ReadonlyArray<Resource.Change>): Plan.Action => {
  if (changes.length === 0) return 'none'
  if (changes.some((c) => c.attr === 'ensure' && c.is === 'absent')) return 'delete'
  return Resource.ensureOf(found) === 'absent' ? 'create' : 'update'
}

/** Plans one libral resource against what its provider found. */
export const plan = (spec: LibralSpec, found: Resource.Found): LibralResourcePlan => {
  const meta = spec.provider.meta
  const changes = Changes.plan(meta, spec.attrs, found)
  const step = UpdateStep.make(meta, found, changes)
  return {
    kind: 'libral',
    id: spec.id,
    type: spec.type,
    provider: meta.qname,
    name: spec.name,
    at: Position.render(spec.at),
    action: actionOf(found, changes),
    desired: desiredOf(spec.attrs),
    observed: Plan.observedLazily(Resource.summary(found), () => Resource.digest(found)),
    steps: step === undefined ? [] : [step],
  }
}

/** What is still wrong after an update, for the report: each change a new plan would make (none: verified). */
export const verify = (meta: Metadata.Metadata, desired: LibralResourcePlan['desired'], found: Resource.Found): ReadonlyArray<string> =>
  Changes.verify(meta, desired, found).map((c) => `${c.attr} is ${Value.render(c.was)}, not ${Value.render(c.is)}`)
