// Fields: how every type's decoder reads the property entries of a resource: problems positioned
// and attributed to the resource, a property rendered as a string template, a boolean.
import * as Diagnostic from '../core/Diagnostic.js'
import type { Position } from '../core/Position.js'
import { renderString, type Scope } from '../manifest/Manifest.js'
import * as Node from '../manifest/Node.js'

// model

/** A decoder's reading of one resource's entries; `problems` collects what every reader found. */
export interface Fields {
  readonly problems: Diagnostic.Diagnostic[]
  /** Records a problem at a position, for the resource. */
  readonly fail: (code: Diagnostic.Code, message: string, at: Position, hint?: string) => void
  /** The entry's value rendered as a string template (undefined, and a problem at it, when it does not render). */
  readonly str: (e: Node.Entry) => string | undefined
  /** The entry's value as a boolean (undefined, and a problem at it, when it is anything else). */
  readonly bool: (e: Node.Entry) => boolean | undefined
}

// constructors

/** The field readers of the resource `id`, rendering templates in `scope`. */
export const make = (id: string, scope: Scope): Fields => {
  const problems: Diagnostic.Diagnostic[] = []
  const fail = (code: Diagnostic.Code, message: string, at: Position, hint?: string): void => {
    problems.push(Diagnostic.make(code, message, { at, resource: id, hint }))
  }
  return {
    problems,
    fail,
    str: (e) => {
      const local: Diagnostic.Diagnostic[] = []
      const v = renderString(e.value, scope, local)
      for (const d of local) problems.push(Diagnostic.withResource(id)(Diagnostic.make(d.code, `${e.key}: ${d.message}`, { at: d.at, hint: d.hint })))
      return v
    },
    bool: (e) => {
      if (e.value._tag === 'Scalar' && typeof e.value.value === 'boolean') return e.value.value
      fail('Decode', `${e.key} must be a boolean, found ${Node.describe(e.value)}`, e.value.at)
      return undefined
    },
  }
}
