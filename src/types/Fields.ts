// Fields: how every type's decoder reads the property entries of a resource: problems positioned
// and attributed to the resource, a property rendered as a string template, a boolean.
import * as Diagnostic from '../core/Diagnostic.js'
import type { Position } from '../core/Position.js'
import { plainText, renderString, stringOf, type Scope } from '../manifest/Manifest.js'
import type * as Template from '../manifest/expr/Template.js'
import * as Node from '../manifest/Node.js'

// model

/** A decoder's reading of one resource's entries; `problems` collects what every reader found. */
export interface Fields {
  readonly problems: Diagnostic.Diagnostic[]
  /** Records a problem at a position, for the resource. */
  readonly fail: (code: Diagnostic.Code, message: string, at: Position, hint?: string) => void
  /** The entry's value rendered as a string template (undefined, and a problem at it, when it does not render). */
  readonly str: (e: Node.Entry) => string | undefined
  /** As `str`, from the entry's value rendered already (a template rendered once to learn what it reads). */
  readonly strOf: (e: Node.Entry, rendered: Template.Rendered) => string | undefined
  /** The entry's value as a boolean (undefined, and a problem at it, when it is anything else). */
  readonly bool: (e: Node.Entry) => boolean | undefined
}

/**
 * The same readers as data and functions: one resource's id, the scope its templates render in,
 * and the problems found. A decoder that runs for every resource of a large manifest (the file
 * type's) reads through these, making one object per resource rather than `make`'s five closures.
 */
export interface Reading {
  readonly id: string
  readonly scope: Scope
  readonly problems: Diagnostic.Diagnostic[]
}

// constructors

/** A reading of the resource `id`'s entries, rendering templates in `scope`, with no problem yet. */
export const reading = (id: string, scope: Scope): Reading => ({ id, scope, problems: [] })

/** The field readers of the resource `id`, rendering templates in `scope`. */
export const make = (id: string, scope: Scope): Fields => {
  const r = reading(id, scope)
  return {
    problems: r.problems,
    fail: (code, message, at, hint) => fail(r, code, message, at, hint),
    str: (e) => str(r, e),
    strOf: (e, rendered) => strOf(r, e, rendered),
    bool: (e) => bool(r, e),
  }
}

// combinators

/** Records a problem at a position, for the resource. */
export const fail = (r: Reading, code: Diagnostic.Code, message: string, at: Position, hint?: string): void => {
  r.problems.push(Diagnostic.make(code, message, { at, resource: r.id, hint }))
}

/** The entry's value rendered as a string template (undefined, and a problem at it, when it does not render). */
export const str = (r: Reading, e: Node.Entry): string | undefined => {
  // Text without a hole (most values) is itself: no list of local problems is made for it.
  const plain = plainText(e.value)
  if (plain !== undefined) return plain
  const local: Diagnostic.Diagnostic[] = []
  const v = renderString(e.value, r.scope, local)
  for (const d of local) r.problems.push(prefixed(r.id, e, d))
  return v
}

/** As `str`, from the entry's value rendered already (a template rendered once to learn what it reads). */
export const strOf = (r: Reading, e: Node.Entry, rendered: Template.Rendered): string | undefined => {
  const local: Diagnostic.Diagnostic[] = []
  const v = stringOf(e.value, rendered, r.scope, local)
  for (const d of local) r.problems.push(prefixed(r.id, e, d))
  return v
}

/** The entry's value as a boolean (undefined, and a problem at it, when it is anything else). */
export const bool = (r: Reading, e: Node.Entry): boolean | undefined => {
  if (e.value._tag === 'Scalar' && typeof e.value.value === 'boolean') return e.value.value
  fail(r, 'Decode', `${e.key} must be a boolean, found ${Node.describe(e.value)}`, e.value.at)
  return undefined
}

/** A problem of an entry's value, said of the entry (`mode: ...`) and of the resource. */
const prefixed = (id: string, e: Node.Entry, d: Diagnostic.Diagnostic): Diagnostic.Diagnostic =>
  Diagnostic.withResource(id)(Diagnostic.make(d.code, `${e.key}: ${d.message}`, { at: d.at, hint: d.hint }))
