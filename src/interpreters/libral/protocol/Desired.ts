// Desired: a resource's desired attributes, decoded against its provider's metadata from a
// manifest (typed YAML values) or from `attr=value` text (the `plait ral` command line).
//
// Refused: attributes the provider does not have, `name` (it is the resource's title), read-only
// attributes (update never receives them), and values of the wrong type.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../../core/Diagnostic.js'
import type { Position } from '../../../core/Position.js'
import * as Node from '../../../manifest/Node.js'
import * as Metadata from './Metadata.js'
import type { Attrs } from './Resource.js'
import * as Value from './Value.js'

// model

/** One property as given: its key, its value (JSON-like, as YAML parsed it), where it was written. */
export interface Prop {
  readonly key: string
  readonly value: unknown
  readonly at?: Position
}

// constructors

const check = (meta: Metadata.Metadata, key: string): E.Either<{ message: string; hint?: string }, Metadata.Attribute> => {
  if (key === 'name') return E.left({ message: `"name" can not be set: it is the resource's title` })
  const a = Metadata.attribute(meta, key)
  if (a === undefined) {
    const known = meta.attributes.filter(Metadata.isWritable).map((x) => x.name)
    return E.left({ message: `${meta.qname} has no attribute "${key}"`, hint: known.length === 0 ? `${meta.qname} has no writable attributes` : `its writable attributes: ${known.join(', ')}` })
  }
  if (!Metadata.isWritable(a)) return E.left({ message: `attribute "${key}" of ${meta.qname} is read-only (kind r)` })
  return E.right(a)
}

/** Decodes manifest properties (typed values); every problem is reported, positioned. */
export const decode = (meta: Metadata.Metadata, props: ReadonlyArray<Prop>, resource?: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Attrs> => {
  const problems: Diagnostic.Diagnostic[] = []
  const out: Record<string, Value.Value> = {}
  for (const p of props) {
    const a = check(meta, p.key)
    if (E.isLeft(a)) {
      problems.push(Diagnostic.make(p.key === 'name' ? 'Validation' : 'UnknownKey', a.left.message, { at: p.at, resource, hint: a.left.hint }))
      continue
    }
    const v = Value.decode(a.right.type, p.value)
    if (E.isLeft(v)) {
      problems.push(Diagnostic.make('Decode', `attribute "${p.key}" (${Value.formatType(a.right.type)}): ${v.left}`, { at: p.at, resource }))
      continue
    }
    out[p.key] = v.right
  }
  return problems.length > 0 ? E.left(problems) : E.right(Object.freeze(out))
}

/** Decodes the entries of a manifest map node (each positioned at its key). */
export const fromEntries = (meta: Metadata.Metadata, entries: ReadonlyArray<Node.Entry>, resource?: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Attrs> =>
  decode(
    meta,
    entries.map((e) => ({ key: e.key, value: Node.toJS(e.value), at: e.keyAt })),
    resource,
  )

/**
 * Why a resource name can not be managed, if it can not: it must be non-empty, one line, without
 * surrounding whitespace, since `# simple` output carries it back as a stripped line.
 */
export const nameProblem = (name: string): string | undefined => {
  if (name === '') return 'a resource name can not be empty'
  if (name.includes('\n') || name.includes('\r') || name.includes('\u0000')) return `resource name ${JSON.stringify(name)} holds a line break or NUL`
  if (name.trim() !== name) return `resource name ${JSON.stringify(name)} has surrounding whitespace`
  return undefined
}

/** Reads `attr=value` arguments (text, as ralsh did: booleans `true`/`false`, arrays comma-separated). */
export const readArgs = (meta: Metadata.Metadata, args: ReadonlyArray<string>): E.Either<ReadonlyArray<string>, Attrs> => {
  const problems: string[] = []
  const out: Record<string, Value.Value> = {}
  for (const arg of args) {
    const eq = arg.indexOf('=')
    if (eq <= 0) {
      problems.push(`"${arg}" is not attr=value`)
      continue
    }
    const key = arg.slice(0, eq)
    const a = check(meta, key)
    if (E.isLeft(a)) {
      problems.push(a.left.hint === undefined ? a.left.message : `${a.left.message} (${a.left.hint})`)
      continue
    }
    if (key in out) {
      problems.push(`attribute "${key}" is given twice`)
      continue
    }
    const v = Value.readText(a.right.type, arg.slice(eq + 1))
    if (E.isLeft(v)) {
      problems.push(`failed to read attribute ${key}: ${v.left}`)
      continue
    }
    out[key] = v.right
  }
  return problems.length > 0 ? E.left(problems) : E.right(Object.freeze(out))
}
