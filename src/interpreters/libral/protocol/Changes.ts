// Changes: the pure, typed planner of libral resources. Desired attributes against what was found
// (and the metadata) give the changes an update must make; an update's report gives the changes it
// made (with `ral_derive`); and the state a resource is in afterwards.
//
// Rules, in order:
// - Only writable attributes (not `name`, not kind `r`) ever change.
// - Desired `ensure: absent`: nothing to do when the resource is absent, else the one change
//   `ensure -> absent` (its other attributes do not matter).
// - An absent resource (not found, or found with `ensure: absent`) gets every desired writable
//   attribute, and `ensure -> present` first when the desired state does not say and the
//   provider's `ensure` takes `present` (asking for attributes means asking for the resource).
// - A present one gets each `rw` attribute whose found value differs (type-exact: a boolean never
//   equals a string); `w` attributes, which find never reports, ride along only when something
//   else changes, so they can not make a plan that never settles.
// - A found resource without an `ensure` attribute counts as `ensure: present`.
import * as Metadata from './Metadata.js'
import type { UpdateReport } from './Reply.js'
import * as Resource from './Resource.js'
import * as Value from './Value.js'

// constructors

/** The value an attribute had, as a change's `was`: `ensure` is what the finding amounts to. */
export const wasOf = (found: Resource.Found, attr: string): Value.Value | undefined =>
  attr === 'ensure' ? Resource.ensureOf(found) : found._tag === 'Present' ? found.resource.attrs[attr] : undefined

/** The changes that bring a found resource to the desired attributes (in metadata order). */
export const plan = (meta: Metadata.Metadata, desired: Resource.Attrs, found: Resource.Found): ReadonlyArray<Resource.Change> => {
  const wanted = meta.attributes.filter((a) => Metadata.isWritable(a) && desired[a.name] !== undefined)
  const current = Resource.ensureOf(found)
  const toChange = (a: Metadata.Attribute): Resource.Change => Resource.change(a.name, wasOf(found, a.name), desired[a.name]!)
  if (desired['ensure'] === 'absent') {
    return current === 'absent' || !wanted.some((a) => a.name === 'ensure') ? [] : [Resource.change('ensure', current, 'absent')]
  }
  if (current === 'absent') {
    const creates = wanted.map(toChange)
    const ensure = Metadata.attribute(meta, 'ensure')
    const implied = creates.length > 0 && desired['ensure'] === undefined && ensure !== undefined && Metadata.isWritable(ensure) && Value.is(ensure.type, 'present')
    return Object.freeze(implied ? [Resource.change('ensure', current, 'present'), ...creates] : creates)
  }
  const differs = wanted.filter((a) => a.kind === 'rw' && !Value.equals(wasOf(found, a.name), desired[a.name]))
  if (differs.length === 0) return []
  return Object.freeze(wanted.filter((a) => a.kind === 'w' || differs.includes(a)).map(toChange))
}

/**
 * The changes an update made: those it reported (a missing `was` filled in from the finding), and,
 * with `ral_derive`, each sent change it did not mention whose value differs from the finding.
 */
export const applied = (found: Resource.Found, sent: ReadonlyArray<Resource.Change>, report: UpdateReport): ReadonlyArray<Resource.Change> => {
  const explicit = report.changes.map((c) => (c.was === undefined ? Resource.change(c.attr, wasOf(found, c.attr), c.is) : c))
  if (!report.derive) return Object.freeze(explicit)
  const derived = sent
    .filter((s) => !explicit.some((c) => c.attr === s.attr))
    .filter((s) => !Value.equals(wasOf(found, s.attr), s.is))
    .map((s) => Resource.change(s.attr, wasOf(found, s.attr), s.is))
  return Object.freeze([...explicit, ...derived])
}

/**
 * The resource after an update, as ralsh showed it: the finding, overlaid with what was sent, then
 * with what changed; only `ensure => absent` once it was removed.
 */
export const after = (found: Resource.Found, sent: ReadonlyArray<Resource.Change>, changes: ReadonlyArray<Resource.Change>): Resource.Found => {
  if (sent.length === 0 && changes.length === 0) return found
  const name = Resource.nameOf(found)
  const attrs: Record<string, Value.Value> = found._tag === 'Present' ? { ...found.resource.attrs } : {}
  for (const c of [...sent, ...changes]) attrs[c.attr] = c.is
  if (attrs['ensure'] === 'absent') return Resource.present(Resource.make(name, { ensure: 'absent' }))
  return Resource.present(Resource.make(name, attrs))
}

/** What verification finds wrong after an update: the changes a new plan would still make (none: verified). */
export const verify = (meta: Metadata.Metadata, desired: Resource.Attrs, found: Resource.Found): ReadonlyArray<Resource.Change> => plan(meta, desired, found)
