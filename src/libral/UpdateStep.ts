// UpdateStep: the plan step of a libral resource (`libral.update`): which provider, which
// resource, and exactly the changed writable attributes to send, with a reason and a noop message.
// One io-ts codec gives both the in-memory type and the plan-file shape.
import * as t from 'io-ts'
import type { Metadata } from './Metadata.js'
import * as Render from './Render.js'
import * as Resource from './Resource.js'
import type * as Value from './Value.js'

// model

/** An attribute value in a plan file: a string, a boolean or a list of strings. */
export const ValueC = t.union([t.string, t.boolean, t.array(t.string)])

export const ChangeC = t.intersection([t.type({ attr: t.string, is: ValueC }), t.partial({ was: ValueC })])

export const LibralUpdate = t.type({
  _tag: t.literal('libral.update'),
  /** The provider's full name, `type::name`. */
  provider: t.string,
  /** The resource's name. */
  name: t.string,
  /** The changes to send, in metadata order; never `name`, never a read-only attribute. */
  changes: t.array(ChangeC),
  reason: t.string,
  noop: t.string,
})
export type LibralUpdate = t.TypeOf<typeof LibralUpdate>

// constructors

/** The update step for planned changes, or undefined when there are none. */
export const make = (meta: Metadata, found: Resource.Found, changes: ReadonlyArray<Resource.Change>): LibralUpdate | undefined => {
  if (changes.length === 0) return undefined
  const name = Resource.nameOf(found)
  const subject = `${meta.qname} '${name}'`
  const creating = Resource.ensureOf(found) === 'absent'
  const removing = changes.some((c) => c.attr === 'ensure' && c.is === 'absent')
  const reason = creating ? `${name} does not exist` : removing ? `${name} exists` : `${changes.map((c) => c.attr).join(', ')} differ${changes.length === 1 ? 's' : ''}: ${changes.map(Render.change).join(', ')}`
  const noop = creating ? `Would have created ${subject}` : removing ? `Would have removed ${subject}` : `Would have changed ${changes.map((c) => c.attr).join(', ')} of ${subject}`
  return {
    _tag: 'libral.update',
    provider: meta.qname,
    name,
    changes: changes.map((c) => (c.was === undefined ? { attr: c.attr, is: toPlan(c.is) } : { attr: c.attr, was: toPlan(c.was), is: toPlan(c.is) })),
    reason,
    noop,
  }
}

const toPlan = (v: Value.Value): string | boolean | string[] => (Array.isArray(v) ? [...v] : (v as string | boolean))

// interop

/** The changes a step carries, as values for `update`. */
export const changesOf = (s: LibralUpdate): ReadonlyArray<Resource.Change> => s.changes.map((c) => Resource.change(c.attr, c.was, c.is))
