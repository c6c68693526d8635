// UpdateStep: the plan step of a libral resource (`libral.update`): which provider, which
// resource, and exactly the changed writable attributes to send, with a reason and a noop message.
// One io-ts codec gives both the in-memory type and the plan-file shape.
import * as Step from '../type/Step.js'
import type { Metadata } from './Metadata.js'
import * as Render from './Render.js'
import * as Resource from './Resource.js'
import type * as Value from './Value.js'

// model

/** The step's codec lives with the other steps (src/core/Step.ts): a plan's step union holds it. */
export const ValueC = Step.LibralValue
export const ChangeC = Step.LibralChange
export const LibralUpdate = Step.LibralUpdate
export type LibralUpdate = Step.LibralUpdate

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
