// Resource: what a libral provider reports (a named resource with typed attributes), what plait
// found for a name (present or absent), and one attribute change (was -> is).
import * as Digest from '../../../core/Digest.js'
import * as Value from './Value.js'

// model

/** Attribute values by attribute name; never holds `name`. */
export type Attrs = Readonly<Record<string, Value.Value>>

/** A resource as list or find reported it. */
export interface Resource {
  readonly name: string
  readonly attrs: Attrs
}

/** What observing one name gave: the provider reported it, or it does not exist (`ral_unknown`, not listed). */
export type Found = { readonly _tag: 'Absent'; readonly name: string } | { readonly _tag: 'Present'; readonly resource: Resource }

/** One attribute's change: the old value (undefined when there was none) and the new one. */
export interface Change {
  readonly attr: string
  readonly was?: Value.Value
  readonly is: Value.Value
}

// constructors

/** A resource; the attributes are copied and frozen. */
export const make = (name: string, attrs: Attrs): Resource => Object.freeze({ name, attrs: Object.freeze({ ...attrs }) })

/** An absent finding. */
export const absent = (name: string): Found => Object.freeze({ _tag: 'Absent', name })

/** A present finding. */
export const present = (resource: Resource): Found => Object.freeze({ _tag: 'Present', resource })

/** A change; `was` is left out when undefined. */
export const change = (attr: string, was: Value.Value | undefined, is: Value.Value): Change => Object.freeze(was === undefined ? { attr, is } : { attr, was, is })

// guards

/** The name a finding is about. */
export const nameOf = (f: Found): string => (f._tag === 'Absent' ? f.name : f.resource.name)

/**
 * The `ensure` a finding amounts to: `absent` when not found, the reported `ensure` when there is
 * one, else `present` (a resource that list or find reports exists).
 */
export const ensureOf = (f: Found): Value.Value => {
  if (f._tag === 'Absent') return 'absent'
  return f.resource.attrs['ensure'] ?? 'present'
}

/** True when two resources have the same name and equal attributes. */
export const equals = (a: Resource, b: Resource): boolean => {
  if (a.name !== b.name) return false
  const ka = Object.keys(a.attrs).sort()
  const kb = Object.keys(b.attrs).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && Value.equals(a.attrs[k], b.attrs[k]))
}

/** True when two findings agree (same presence, same attributes). */
export const foundEquals = (a: Found, b: Found): boolean =>
  a._tag === 'Absent' ? b._tag === 'Absent' && a.name === b.name : b._tag === 'Present' && equals(a.resource, b.resource)

// interop

/** A finding as JSON (attributes in sorted order, `name` included), for plans and `--json`. */
export const toJson = (f: Found): Readonly<Record<string, unknown>> => {
  if (f._tag === 'Absent') return { name: f.name, absent: true }
  const attrs: Record<string, unknown> = {}
  for (const k of Object.keys(f.resource.attrs).sort()) attrs[k] = Value.toJson(f.resource.attrs[k]!)
  return { name: f.resource.name, attrs }
}

/** The digest that staleness checks compare. */
export const digest = (f: Found): string => Digest.ofValue(toJson(f))

/** A one-line summary for people: `absent`, or `ensure => 'present', ip => '10.0.0.5'`. */
export const summary = (f: Found): string => {
  if (f._tag === 'Absent') return 'absent'
  const keys = Object.keys(f.resource.attrs).sort((a, b) => (a === 'ensure' ? -1 : b === 'ensure' ? 1 : a < b ? -1 : a > b ? 1 : 0))
  return keys.length === 0 ? 'present' : keys.map((k) => `${k} => ${Value.render(f.resource.attrs[k])}`).join(', ')
}
