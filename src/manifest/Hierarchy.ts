// Hierarchy: CCM's data resolution. Start from `data`; walk `hierarchy.order`, rendering each entry
// (`os:${ lookup('facts.host.info.platformFamily') }`) and skipping one that renders empty; apply
// the `overrides` section the entry names: `first` (the default) merges it shallowly and stops,
// `deep` merges every match in order (maps recursively, lists concatenated, anything else
// replaced). A `--hiera` file is resolved the same way and deep-merged on top. Values keep their
// source positions, so a later error about a value points at the file that provided it.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import * as DeepMerge from './DeepMerge.js'
import * as Node from './Node.js'

// model

export type Merge = 'first' | 'deep'

/** One `hierarchy.order` entry as written. */
export interface Entry {
  readonly template: string
  readonly at: Position.Position
  /** Whether the source spelled it quoted (offsets into it then start one column later). */
  readonly quoted: boolean
}

/** A decoded `hierarchy`: the order of entries and the merge mode. */
export interface Hierarchy {
  readonly order: ReadonlyArray<Entry>
  readonly merge: Merge
}

/** The hierarchy sections of one document as written; absent sections are undefined. */
export interface Source {
  readonly data?: Node.Node
  readonly hierarchy?: Node.Node
  readonly overrides?: Node.Node
  /** Where the document starts: the position of problems that concern no value in particular. */
  readonly at: Position.Position
}

/** A decoded document: the base data, the hierarchy (CCM's default when absent) and the overrides. */
export interface Decoded {
  readonly data: Node.MapNode
  /** Whether the document has a `data` map (CCM skips an entry that renders to "data" only then). */
  readonly hasData: boolean
  readonly hierarchy: Hierarchy
  readonly overrides: ReadonlyMap<string, Node.MapNode>
}

/** An evaluation failure, with the 0-based offset in the template when known. */
export interface EvalError {
  readonly message: string
  readonly offset?: number
}

/** An order entry rendered: its text, and whether any interpolation in it gave a value other than "" or nil. */
export interface Rendered {
  readonly key: string
  readonly matched: boolean
}

/**
 * The evaluators resolution needs, both working in CCM's restricted environment (only `lookup`
 * and the facts; a missing key is ""). An entry without interpolations is matched when non-empty.
 */
export interface Evaluators {
  readonly entry: (template: string) => E.Either<EvalError, Rendered>
  /** Renders a string of `data` or of an applied override, typed when it is one expression; absent: strings stay as written. */
  readonly value?: (template: string) => E.Either<EvalError, unknown>
}

/** What became of one order entry. */
export type Outcome =
  | 'skipped' // every interpolation rendered empty
  | 'no-override' // no overrides section of that name
  | 'data-key' // rendered to "data", which CCM never treats as an override
  | 'applied'

/** One order entry as resolution met it. */
export interface Step {
  readonly template: string
  readonly at: Position.Position
  readonly key: string
  readonly outcome: Outcome
}

/** Resolved data and how it came about; `steps` stops after the first applied entry under `first`. */
export interface Resolved {
  readonly data: Node.MapNode
  readonly merge: Merge
  readonly steps: ReadonlyArray<Step>
  /** The override sections applied, in order. */
  readonly used: ReadonlyArray<string>
}

/** CCM's hierarchy when a document has none: the single entry "default". */
export const defaultOrder: ReadonlyArray<string> = Object.freeze(['default'])

/** The keys a `hierarchy` map may have. */
export const hierarchyKeys = ['order', 'merge'] as const

/** The top-level keys of a `--hiera` file. */
export const hieraKeys = ['data', 'hierarchy', 'overrides'] as const

// constructors

const emptyMap = (at: Position.Position): Node.MapNode => ({ _tag: 'Map', entries: [], at })

const isNull = (n: Node.Node): boolean => n._tag === 'Scalar' && n.value === null

/** Picks the hierarchy sections of a parsed document; a `--hiera` file may hold nothing else. */
export const fromDocument = (root: Node.Node, kind: 'manifest' | 'hiera'): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Source> => {
  if (isNull(root)) return E.right({ at: root.at })
  if (root._tag !== 'Map') {
    return E.left([Diagnostic.make('Decode', `a ${kind === 'hiera' ? 'hiera file' : 'manifest'} must be a map, found ${Node.describe(root)}`, { at: root.at })])
  }
  const problems: Diagnostic.Diagnostic[] = []
  if (kind === 'hiera') {
    for (const e of root.entries) {
      if (!(hieraKeys as ReadonlyArray<string>).includes(e.key)) {
        problems.push(Diagnostic.make('UnknownKey', `unknown top-level key "${e.key}" in a hiera file`, { at: e.keyAt, hint: `allowed keys: ${hieraKeys.join(', ')}` }))
      }
    }
  }
  if (problems.length > 0) return E.left(problems)
  const pick = (key: string): { [k: string]: Node.Node } => {
    const e = Node.get(root, key)
    return e === undefined ? {} : { [key]: e.value }
  }
  return E.right({ ...pick('data'), ...pick('hierarchy'), ...pick('overrides'), at: root.at })
}

/** Checks the sections' shapes against CCM's schema and applies its defaults. */
export const decode = (source: Source): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Decoded> => {
  const problems: Diagnostic.Diagnostic[] = []
  const problem = (code: Diagnostic.Code, message: string, at: Position.Position, hint?: string): void => {
    problems.push(Diagnostic.make(code, message, { at, hint }))
  }

  let data = emptyMap(source.data?.at ?? source.at)
  let hasData = false
  if (source.data !== undefined && !isNull(source.data)) {
    if (source.data._tag === 'Map') {
      data = source.data
      hasData = true
    } else {
      problem('Decode', `"data" must be a map, found ${Node.describe(source.data)}`, source.data.at)
    }
  }

  let hierarchy: Hierarchy = { order: defaultOrder.map((template) => ({ template, at: source.at, quoted: false })), merge: 'first' }
  const h = source.hierarchy
  if (h !== undefined && !isNull(h)) {
    if (h._tag !== 'Map') {
      problem('Decode', `"hierarchy" must be a map with "order" and "merge", found ${Node.describe(h)}`, h.at)
    } else {
      for (const e of h.entries) {
        if (!(hierarchyKeys as ReadonlyArray<string>).includes(e.key)) {
          problem('UnknownKey', `unknown key "hierarchy.${e.key}"`, e.keyAt, `allowed keys: ${hierarchyKeys.join(', ')}`)
        }
      }
      const order: Entry[] = []
      const orderEntry = Node.get(h, 'order')
      if (orderEntry === undefined) {
        problem('Decode', '"hierarchy" needs an "order": a list of strings such as "os:${ lookup(\'facts.host.info.platformFamily\') }"', h.at)
      } else if (orderEntry.value._tag !== 'Seq') {
        problem('Decode', `"hierarchy.order" must be a list of strings, found ${Node.describe(orderEntry.value)}`, orderEntry.value.at)
      } else {
        for (const item of orderEntry.value.items) {
          if (item._tag === 'Scalar' && typeof item.value === 'string') order.push({ template: item.value, at: item.at, quoted: item.quoted })
          else problem('Decode', `"hierarchy.order" entries must be strings, found ${Node.describe(item)}`, item.at, 'quote it: "..."')
        }
      }
      let merge: Merge = 'first'
      const mergeEntry = Node.get(h, 'merge')
      if (mergeEntry !== undefined && !isNull(mergeEntry.value)) {
        const m = mergeEntry.value
        if (m._tag === 'Scalar' && (m.value === 'first' || m.value === 'deep')) merge = m.value
        else problem('Validation', `"hierarchy.merge" must be "first" or "deep", found ${m._tag === 'Scalar' ? JSON.stringify(m.value) : Node.describe(m)}`, m.at)
      }
      hierarchy = { order, merge }
    }
  }

  const overrides = new Map<string, Node.MapNode>()
  const o = source.overrides
  if (o !== undefined && !isNull(o)) {
    if (o._tag !== 'Map') {
      problem('Decode', `"overrides" must be a map of sections named by hierarchy entries, found ${Node.describe(o)}`, o.at)
    } else {
      for (const e of o.entries) {
        if (e.value._tag === 'Map') overrides.set(e.key, e.value)
        else if (isNull(e.value)) overrides.set(e.key, emptyMap(e.keyAt))
        else problem('Decode', `override "${e.key}" must be a map of data, found ${Node.describe(e.value)}`, e.value.at)
      }
    }
  }

  return problems.length > 0 ? E.left(problems) : E.right({ data, hasData, hierarchy, overrides })
}

// combinators

/** CCM's shallow merge: each top-level key of `over` replaces the same key of `base`. */
export const shallow = (base: Node.MapNode, over: Node.MapNode): Node.MapNode => {
  const replacing = new Map(over.entries.map((e) => [e.key, e] as const))
  const kept = base.entries.map((e) => replacing.get(e.key) ?? e)
  const seen = new Set(base.entries.map((e) => e.key))
  return { _tag: 'Map', entries: [...kept, ...over.entries.filter((e) => !seen.has(e.key))], at: base.at }
}

/** CCM's deep merge: maps merge key by key, lists concatenate, anything else from `over` replaces. */
export const deep = (base: Node.Node, over: Node.Node): Node.Node => {
  if (base._tag === 'Map' && over._tag === 'Map') return deepMaps(base, over)
  if (base._tag === 'Seq' && over._tag === 'Seq') return { _tag: 'Seq', items: [...base.items, ...over.items], at: base.at }
  return over
}

/** deep, for two maps. */
export const deepMaps = (base: Node.MapNode, over: Node.MapNode): Node.MapNode => DeepMerge.all(base, [over])


/** The `--hiera` overlay: an already resolved document deep-merged over the manifest's data. */
export const overlay = (base: Node.MapNode, over: Node.MapNode): Node.MapNode => deepMaps(base, over)

const isPlainObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Sets an own property, whatever its name (`__proto__` included). */
export const setKey = (o: Record<string, unknown>, k: string, v: unknown): void => {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
}

/** deep, for plain JSON-like values (facts): objects merge, arrays concatenate, anything else replaces. */
export const deepValues = (base: unknown, over: unknown): unknown => deepValuesAll([base, over])

/**
 * deepValues of every value over the ones before it, the first at the bottom: what folding them
 * with deepValues gives, in time that grows with all of them, not with their number times what is
 * merged so far (a fold copies the merged facts once for each layer, and a host may have thousands
 * of facts files or `--fact`s). The merge writes into maps and lists of its own, each made by
 * copying the first time something merges into it; the values given are never changed, and the
 * result shares with them what no later value merged into, as the fold's does.
 */
export const deepValuesAll = (values: ReadonlyArray<unknown>): unknown => {
  const own = new WeakSet<object>()
  const into = (base: unknown, over: unknown): unknown => {
    if (Array.isArray(base) && Array.isArray(over)) {
      if (own.has(base)) {
        for (const x of over as unknown[]) (base as unknown[]).push(x)
        return base
      }
      const list = [...(base as unknown[]), ...(over as unknown[])]
      own.add(list)
      return list
    }
    if (!isPlainObject(base) || !isPlainObject(over)) return over
    let out = base as Record<string, unknown>
    if (!own.has(base)) {
      out = {}
      for (const [k, v] of Object.entries(base)) setKey(out, k, v)
      own.add(out)
    }
    for (const [k, v] of Object.entries(over)) setKey(out, k, Object.prototype.hasOwnProperty.call(out, k) ? into(out[k], v) : v)
    return out
  }
  let merged = values[0]
  for (let i = 1; i < values.length; i++) merged = into(merged, values[i])
  return merged
}

/** A positioned node for a value that an expression produced (every part at the expression's position). */
export const fromJS = (v: unknown, at: Position.Position): Node.Node => {
  if (Array.isArray(v)) return { _tag: 'Seq', items: v.map((x) => fromJS(x, at)), at }
  if (isPlainObject(v)) return { _tag: 'Map', entries: Object.entries(v).map(([key, x]) => ({ key, keyAt: at, value: fromJS(x, at) })), at }
  if (v === null || v === undefined) return { _tag: 'Scalar', value: null, text: '', quoted: false, at }
  if (typeof v === 'string') return { _tag: 'Scalar', value: v, text: v, quoted: true, at }
  if (typeof v === 'number' || typeof v === 'boolean') return { _tag: 'Scalar', value: v, text: String(v), quoted: false, at }
  if (typeof v === 'bigint') return { _tag: 'Scalar', value: Number(v), text: v.toString(), quoted: false, at }
  return { _tag: 'Scalar', value: String(v), text: String(v), quoted: true, at }
}

/** The position of an offset into a scalar's text (exact for single-line scalars). */
const offsetAt = (at: Position.Position, quoted: boolean, offset: number | undefined): Position.Position =>
  offset === undefined ? at : Position.make(at.file, at.line, at.col + offset + (quoted ? 1 : 0))

const hasInterpolation = (s: string): boolean => s.includes('{{') || s.includes('${')

/** Renders every string of a data tree that interpolates, collecting errors. */
const renderValues = (n: Node.Node, render: (template: string) => E.Either<EvalError, unknown>, problems: Diagnostic.Diagnostic[]): Node.Node => {
  switch (n._tag) {
    case 'Scalar': {
      if (typeof n.value !== 'string' || !hasInterpolation(n.value)) return n
      const r = render(n.value)
      if (E.isLeft(r)) {
        problems.push(Diagnostic.make('Expression', `${r.left.message} (in "${n.value}")`, { at: offsetAt(n.at, n.quoted, r.left.offset) }))
        return n
      }
      return fromJS(r.right, n.at)
    }
    case 'Seq':
      return { ...n, items: n.items.map((i) => renderValues(i, render, problems)) }
    case 'Map':
      return { ...n, entries: n.entries.map((e) => ({ ...e, value: renderValues(e.value, render, problems) })) }
  }
}

const renderMap = (m: Node.MapNode, ev: Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.MapNode> => {
  if (ev.value === undefined) return E.right(m)
  const problems: Diagnostic.Diagnostic[] = []
  const out = renderValues(m, ev.value, problems) as Node.MapNode
  return problems.length > 0 ? E.left(problems) : E.right(out)
}

/** Resolves decoded sections: the base data with the overrides the hierarchy selects merged in. */
export const resolveDecoded = (d: Decoded, ev: Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resolved> => {
  const base = renderMap(d.data, ev)
  if (E.isLeft(base)) return base
  let data = base.right
  const steps: Step[] = []
  const used: string[] = []
  const applied: Node.MapNode[] = []
  for (const entry of d.hierarchy.order) {
    const r = ev.entry(entry.template)
    if (E.isLeft(r)) {
      return E.left([Diagnostic.make('Expression', `hierarchy entry "${entry.template}": ${r.left.message}`, { at: offsetAt(entry.at, entry.quoted, r.left.offset) })])
    }
    const { key, matched } = r.right
    const step = (outcome: Outcome): void => {
      steps.push({ template: entry.template, at: entry.at, key, outcome })
    }
    if (!matched) {
      step('skipped')
      continue
    }
    if (key === 'data' && d.hasData) {
      step('data-key')
      continue
    }
    const section = d.overrides.get(key)
    if (section === undefined) {
      step('no-override')
      continue
    }
    const candidate = renderMap(section, ev)
    if (E.isLeft(candidate)) return candidate
    step('applied')
    used.push(key)
    if (d.hierarchy.merge === 'first') {
      data = shallow(data, candidate.right)
      break
    }
    applied.push(candidate.right)
  }
  // Merged once, after every section rendered: merging adds no problems, so the outcome is the same.
  return E.right({ data: DeepMerge.all(data, applied), merge: d.hierarchy.merge, steps, used })
}

/** Decodes and resolves a document's hierarchy sections. */
export const resolve = (source: Source, ev: Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resolved> => {
  const d = decode(source)
  return E.isLeft(d) ? d : resolveDecoded(d.right, ev)
}

// interop

/** A resolved data tree as plain values (own properties only, `__proto__` kept as a key). */
export const toJS = Node.toJS
