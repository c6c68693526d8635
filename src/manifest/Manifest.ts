// Manifest: decodes a positioned YAML tree in CCM's format into resource entries with positions.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type { Position } from '../core/Position.js'
import * as ResourceId from '../core/ResourceId.js'
import * as Hierarchy from './Hierarchy.js'
import * as Node from './Node.js'
import * as Evaluate from './expr/Evaluate.js'
import * as Template from './expr/Template.js'
import * as TemplateSyntax from './expr/TemplateSyntax.js'
import * as Value from './expr/Value.js'
import * as Append from '../core/Append.js'

/**
 * What templates in a manifest can read (the expression environment: data, facts, environ), and
 * the log of facts and environ paths they did read, so a plan records only those.
 */
export interface Scope {
  readonly env: Evaluate.Env
  /** The distinct values read (root and path), in the order first read. */
  readonly reads: Evaluate.Read[]
  /** A key of each of `reads`: ten thousand values that read `Data.service` keep one read, not ten thousand. */
  readonly readKeys: Set<string>
  /** The relative paths `readFile`, `file` and `template` read, in the order read. */
  readonly files: string[]
  /** Whether `now()` was called. */
  readonly clock: { read: boolean }
}

/** Adds what one evaluation read to a scope's log. */
export const record = (scope: Scope, reads: Evaluate.Reads): void => {
  // loops, not push(...xs): a rendered value records here, most with one read and no file
  for (let i = 0; i < reads.values.length; i++) {
    const r = reads.values[i]!
    const key = readKey(r)
    if (scope.readKeys.has(key)) continue
    scope.readKeys.add(key)
    scope.reads.push(r)
  }
  for (let i = 0; i < reads.files.length; i++) scope.files.push(reads.files[i]!)
  if (reads.clock) scope.clock.read = true
}

/**
 * One string for a read's root and path, telling every two apart: a path of one segment (the
 * common `Data.x`) is the segment after a "1", any other its JSON (which starts with "["), so that
 * the whole root (`[]`), a key "" (`[""]`) and keys holding any character are never taken for
 * each other.
 */
const readKey = (r: Evaluate.Read): string => (r.path.length === 1 ? `${r.root}\u00001${r.path[0]}` : `${r.root}\u0000${JSON.stringify(r.path)}`)

/** A scope over an environment, with an empty log. */
export const scopeOf = (env: Evaluate.Env, reads: ReadonlyArray<Evaluate.Read> = []): Scope => {
  const scope: Scope = { env, reads: [], readKeys: new Set(), files: [], clock: { read: false } }
  record(scope, { values: reads, files: [], clock: false })
  return scope
}

// model

/** One resource as the manifest states it, defaults merged in, before its type decodes it. */
export interface RawResource {
  readonly type: string
  readonly name: string
  /** Its id (`type#name`, as ResourceId.make gives it), made once by decode for every stage that keys by it. */
  readonly id?: string
  readonly nameAt: Position
  /** Properties in source order; a property set by the item overrides the same one from `defaults`. */
  readonly props: ReadonlyArray<Node.Entry>
}

/** A raw resource's id: the one decode made, or made now. */
export const idOf = (raw: RawResource): string => raw.id ?? ResourceId.make(raw.type, raw.name)

export interface Manifest {
  readonly file: string
  /** The data after the hierarchy and overrides were applied (CCM's resolution). */
  readonly data: unknown
  /** The same data as a positioned tree, for annotation checks. */
  readonly dataNode?: Node.MapNode
  /** The environment the resources' templates are rendered in; its log holds what the hierarchy read too. */
  readonly scope: Scope
  readonly failOnError: boolean
  readonly preMessage?: string
  readonly postMessage?: string
  readonly resources: ReadonlyArray<RawResource>
  /** Every `defaults` entry as written, so its keys are checked even when no resource follows it. */
  readonly defaults: ReadonlyArray<{ readonly type: string; readonly props: ReadonlyArray<Node.Entry> }>
  /** Every resource group's type as written (`- file: ...`), so an unknown type is caught even with no resources. */
  readonly types: ReadonlyArray<{ readonly type: string; readonly at: Position }>
}

/** Keys allowed at the top level and under `ccm`. */
export const topKeys = ['data', 'ccm', 'hierarchy', 'overrides'] as const
export const ccmKeys = ['resources', 'fail_on_error', 'pre_message', 'post_message', 'resources_jet_file'] as const

// decoding

/**
 * Decodes a manifest tree. Returns what could be decoded together with every problem found, so
 * that a caller can go on to report the resources' own problems too; any problem fails the whole.
 */
/** What a manifest's hierarchy entries can read: the facts (CCM's restricted environment). */
export interface Inputs {
  readonly facts?: unknown
  readonly environ?: Readonly<Record<string, string>>
  /** A `--hiera FILE` document (data, hierarchy, overrides), resolved alike and deep-merged on top of the manifest's data. */
  readonly hiera?: Node.Node
  /** The time `now()` gives (the clock is an input: without one, `now()` is an error). */
  readonly now?: Value.Time
  /** Reads a file relative to the manifest's directory, for `readFile`, `file` and `template`. */
  readonly readFile?: (path: string) => E.Either<string, string>
}

/** The evaluators of the hierarchy: templates rendered with only `lookup` and the facts. */
export const hierarchyEvaluators = (facts: unknown, reads: Evaluate.Read[] = []): Hierarchy.Evaluators => {
  const env = Evaluate.env({ mode: 'hierarchy', facts })
  const problem = (p: Template.Problem): Hierarchy.EvalError => ({ message: p.error.message, offset: p.error.offset })
  const log = <R extends Template.Rendered>(r: R): R => {
    Append.append(reads, r.reads.values)
    return r
  }
  return {
    entry: (t) => E.bimap(problem, (r: Template.Rendered & { readonly value: string }) => ({ key: log(r).value, matched: r.matched }))(Template.renderText(t, env)),
    value: (t) => E.bimap(problem, (r: Template.Rendered) => Value.toJS(log(r).value))(Template.render(t, env)),
  }
}

export const decode = (file: string, root: Node.Node, inputs: Inputs = {}): { readonly manifest: Manifest; readonly problems: ReadonlyArray<Diagnostic.Diagnostic> } => {
  const problems: Diagnostic.Diagnostic[] = []
  const fail = (code: Diagnostic.Code, message: string, at: Position, hint?: string): void => {
    problems.push(Diagnostic.make(code, message, { at, hint }))
  }
  if (root._tag !== 'Map') {
    fail('Decode', `a manifest must be a map with a "ccm" key, found ${Node.describe(root)}`, root.at)
    return { manifest: { file, data: {}, defaults: [], types: [], scope: scopeOf(Evaluate.env({ mode: 'manifest' })), failOnError: false, resources: [] }, problems }
  }
  for (const e of root.entries) {
    if (!(topKeys as ReadonlyArray<string>).includes(e.key)) {
      fail('UnknownKey', `unknown top-level key "${e.key}"`, e.keyAt, `allowed keys: ${topKeys.join(', ')}`)
    }
  }
  let data: unknown = {}
  let dataNode: Node.MapNode | undefined
  const reads: Evaluate.Read[] = []
  const resolved = E.chain((src: Hierarchy.Source) => Hierarchy.resolve(src, hierarchyEvaluators(inputs.facts, reads)))(Hierarchy.fromDocument(root, 'manifest'))
  const overlay =
    inputs.hiera === undefined
      ? E.right(undefined)
      : E.chain((src: Hierarchy.Source) => Hierarchy.resolve(src, hierarchyEvaluators(inputs.facts, reads)))(Hierarchy.fromDocument(inputs.hiera, 'hiera'))
  if (E.isLeft(resolved)) Append.append(problems, resolved.left)
  if (E.isLeft(overlay)) Append.append(problems, overlay.left)
  if (E.isRight(resolved) && E.isRight(overlay)) {
    dataNode = overlay.right === undefined ? resolved.right.data : Hierarchy.overlay(resolved.right.data, overlay.right.data)
    data = Hierarchy.toJS(dataNode)
  }
  const scope = scopeOf(
    Evaluate.env({
      mode: 'manifest',
      data,
      facts: inputs.facts,
      ...(inputs.environ !== undefined ? { environ: inputs.environ } : {}),
      ...(inputs.now !== undefined ? { now: inputs.now } : {}),
      ...(inputs.readFile !== undefined ? { readFile: inputs.readFile } : {}),
    }),
    reads,
  )
  const ccm = Node.get(root, 'ccm')
  const resources: RawResource[] = []
  const defaults: Array<{ type: string; props: ReadonlyArray<Node.Entry> }> = []
  const types: Array<{ type: string; at: Position }> = []
  let failOnError = false
  let preMessage: string | undefined
  let postMessage: string | undefined
  // CCM's schema requires no key, but CCM refuses a manifest without resources (below).
  if (ccm === undefined) {
    // nothing to decode
  } else if (ccm.value._tag !== 'Map') {
    fail('Decode', `"ccm" must be a map, found ${Node.describe(ccm.value)}`, ccm.value.at)
  } else {
    for (const e of ccm.value.entries) {
      if (!(ccmKeys as ReadonlyArray<string>).includes(e.key)) {
        fail('UnknownKey', `unknown key "ccm.${e.key}"`, e.keyAt, `allowed keys: ${ccmKeys.join(', ')}`)
      } else if (e.key === 'resources_jet_file') {
        fail('Unsupported', '"resources_jet_file" (Jet templates) is not supported by plait', e.keyAt)
      } else if (e.key === 'fail_on_error') {
        if (e.value._tag === 'Scalar' && typeof e.value.value === 'boolean') failOnError = e.value.value
        else fail('Decode', `"fail_on_error" must be a boolean, found ${Node.describe(e.value)}`, e.value.at)
      } else if (e.key === 'pre_message' || e.key === 'post_message') {
        const text = renderString(e.value, scope, problems)
        if (text !== undefined) {
          if (e.key === 'pre_message') preMessage = text
          else postMessage = text
        }
      }
    }
    const list = Node.get(ccm.value, 'resources')
    if (list !== undefined) decodeResources(list.value, scope, resources, problems, defaults, types)
  }
  // As CCM: a manifest whose resource list is missing, null or empty is refused (resources that
  // `control` leaves out later still count: only the list as written matters).
  const list = ccm !== undefined && ccm.value._tag === 'Map' ? Node.get(ccm.value, 'resources') : undefined
  if ((ccm === undefined || ccm.value._tag === 'Map') && (list === undefined || (list.value._tag === 'Seq' && list.value.items.length === 0) || (list.value._tag === 'Scalar' && list.value.value === null))) {
    fail('Decode', 'manifest must contain resources', list?.value.at ?? ccm?.keyAt ?? root.at, 'list at least one resource under ccm.resources')
  }
  const manifest: Manifest = { file, data, defaults, types, ...(dataNode !== undefined ? { dataNode } : {}), scope, failOnError, resources, ...(preMessage !== undefined ? { preMessage } : {}), ...(postMessage !== undefined ? { postMessage } : {}) }
  return { manifest, problems }
}

const decodeResources = (
  n: Node.Node,
  scope: Scope,
  out: RawResource[],
  problems: Diagnostic.Diagnostic[],
  defaultsOut: Array<{ type: string; props: ReadonlyArray<Node.Entry> }>,
  typesOut: Array<{ type: string; at: Position }>,
): void => {
  if (n._tag === 'Scalar' && n.value === null) return
  if (n._tag !== 'Seq') {
    problems.push(Diagnostic.make('Decode', `"ccm.resources" must be a list, found ${Node.describe(n)}`, { at: n.at }))
    return
  }
  for (const item of n.items) {
    if (item._tag !== 'Map' || item.entries.length !== 1) {
      problems.push(
        Diagnostic.make('Decode', 'each entry of "ccm.resources" must be a map with exactly one resource type key', {
          at: item.at,
          hint: 'for example: - file: [ { /etc/motd: { ensure: present, ... } } ]',
        }),
      )
      continue
    }
    const typeEntry = item.entries[0]!
    const type = typeEntry.key
    typesOut.push({ type, at: typeEntry.keyAt })
    const body = typeEntry.value
    if (body._tag === 'Map') {
      // The form with an explicit name: `- file: { name: /etc/motd, ensure: present }`.
      const nameEntry = Node.get(body, 'name')
      if (nameEntry === undefined) {
        problems.push(Diagnostic.make('Decode', `${type}: a resource map needs a "name" (or use a list of { <name>: {...} })`, { at: body.at }))
        continue
      }
      const name = renderName(nameEntry.value, scope, problems)
      if (name !== undefined) {
        out.push({ type, name, id: ResourceId.make(type, name), nameAt: nameEntry.value.at, props: body.entries.filter((e) => e.key !== 'name') })
      }
    } else if (body._tag === 'Seq') {
      let defaults: Defaults = noDefaults
      // An indexed loop: it runs once per resource, mostly before it is optimized (for-of would make an iterator result each time).
      for (let i = 0; i < body.items.length; i++) {
        const entry = body.items[i]!
        if (entry._tag !== 'Map' || entry.entries.length !== 1) {
          problems.push(Diagnostic.make('Decode', `${type}: each list item must be a map with exactly one key, the resource name`, { at: entry.at }))
          continue
        }
        const only = entry.entries[0]!
        const props = only.value
        if (props._tag !== 'Map' && !(props._tag === 'Scalar' && props.value === null)) {
          problems.push(Diagnostic.make('Decode', `${type} "${only.key}": properties must be a map, found ${Node.describe(props)}`, { at: props.at }))
          continue
        }
        const own = props._tag === 'Map' ? props.entries : []
        if (only.key === 'defaults') {
          defaultsOut.push({ type, props: own })
          defaults = defaultsOf(merge(defaults, own))
          continue
        }
        // A name without a hole is itself (most names): no node is made to render it.
        const name = only.key !== '' && (only.key.indexOf('{') < 0 || TemplateSyntax.isPlain(only.key)) ? only.key : renderName({ _tag: 'Scalar', value: only.key, text: only.key, quoted: true, at: only.keyAt }, scope, problems)
        if (name !== undefined) out.push({ type, name, id: ResourceId.make(type, name), nameAt: only.keyAt, props: merge(defaults, own) })
      }
    } else {
      problems.push(Diagnostic.make('Decode', `${type}: expected a list of resources, found ${Node.describe(body)}`, { at: body.at }))
    }
  }
}

/** A group's defaults so far, with their keys (made once per `defaults` entry, not once per resource). */
interface Defaults {
  readonly entries: ReadonlyArray<Node.Entry>
  readonly keys: ReadonlySet<string>
}

const noDefaults: Defaults = { entries: [], keys: new Set() }

const defaultsOf = (entries: ReadonlyArray<Node.Entry>): Defaults => ({ entries, keys: new Set(entries.map((e) => e.key)) })

/** True when an item sets a key of its defaults. */
const overrides = (own: ReadonlyArray<Node.Entry>, keys: ReadonlySet<string>): boolean => {
  for (let i = 0; i < own.length; i++) if (keys.has(own[i]!.key)) return true
  return false
}

/** Defaults first, then the item's own properties; an own property replaces a default of the same key. */
const merge = (defaults: Defaults, own: ReadonlyArray<Node.Entry>): ReadonlyArray<Node.Entry> => {
  if (defaults.entries.length === 0) return own // no defaults: the item's own entries, as they are (both are read-only)
  // Most items set keys the defaults do not: then nothing is replaced, and no set of the item's keys is made.
  if (!overrides(own, defaults.keys)) return defaults.entries.concat(own)
  const ownKeys = new Set(own.map((e) => e.key))
  return [...defaults.entries.filter((d) => !ownKeys.has(d.key)), ...own]
}

const renderName = (n: Node.Node, scope: Scope, problems: Diagnostic.Diagnostic[]): string | undefined => {
  const text = renderString(n, scope, problems)
  if (text !== undefined && text === '') {
    problems.push(Diagnostic.make('Validation', 'a resource name cannot be empty', { at: n.at }))
    return undefined
  }
  return text
}

/** Renders a string-typed node (plain scalars keep their source spelling) through the template engine. */
export const renderString = (n: Node.Node, scope: Scope, problems: Diagnostic.Diagnostic[]): string | undefined => {
  if (n._tag !== 'Scalar' || n.value === null) {
    problems.push(Diagnostic.make('Decode', `expected a string, found ${Node.describe(n)}`, { at: n.at }))
    return undefined
  }
  const plain = plainText(n)
  if (plain !== undefined) return plain
  const r = Template.render(n.text, scope.env, { base: n.at, shift: n.quoted ? 1 : 0 })
  if (E.isLeft(r)) {
    problems.push(Diagnostic.make('Expression', r.left.message, { at: r.left.at ?? n.at }))
    return undefined
  }
  return stringOf(n, r.right, scope, problems)
}

/**
 * The text of a scalar without a template hole: what renderString gives it (plain scalars keep
 * their source spelling), without rendering. Most values are such text, and they read nothing.
 */
export const plainText = (n: Node.Node): string | undefined =>
  // Without a "{" there is no hole (one search for most values, rather than isPlain's two).
  n._tag === 'Scalar' && n.value !== null && (n.text.indexOf('{') < 0 || TemplateSyntax.isPlain(n.text)) ? n.text : undefined

/** A string-typed node's value from its rendering: what it read is recorded; a list or a map is a problem at the node. */
export const stringOf = (n: Node.Node, rendered: Template.Rendered, scope: Scope, problems: Diagnostic.Diagnostic[]): string | undefined => {
  record(scope, rendered.reads)
  const v = rendered.value
  if (v === null) return ''
  if (Value.isArray(v) || Value.isMap(v)) {
    problems.push(Diagnostic.make('Expression', `expression gives ${Value.isArray(v) ? 'a list' : 'a map'} where a string is expected`, { at: n.at }))
    return undefined
  }
  return typeof v === 'string' ? v : Value.format(v)
}

/**
 * Renders a property of any shape: each string scalar through the template engine (a lone
 * expression keeps its type), other scalars as YAML gave them, lists and maps item by item.
 * Returns undefined (with the problems recorded) when a template fails.
 */
export const renderValue = (n: Node.Node, scope: Scope, problems: Diagnostic.Diagnostic[]): unknown => {
  switch (n._tag) {
    case 'Scalar': {
      if (typeof n.value !== 'string') return n.value
      const r = Template.render(n.text, scope.env, { base: n.at, shift: n.quoted ? 1 : 0 })
      if (E.isLeft(r)) {
        problems.push(Diagnostic.make('Expression', r.left.message, { at: r.left.at ?? n.at }))
        return undefined
      }
      record(scope, r.right.reads)
      return Value.toJS(r.right.value)
    }
    case 'Seq': {
      const before = problems.length
      const items = n.items.map((i) => renderValue(i, scope, problems))
      return problems.length > before ? undefined : items
    }
    case 'Map': {
      const before = problems.length
      const out: Record<string, unknown> = {}
      for (const e of n.entries) out[e.key] = renderValue(e.value, scope, problems)
      return problems.length > before ? undefined : out
    }
  }
}
