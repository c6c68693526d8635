// DeepMerge: the data hierarchy's `merge: deep` of many sections at once (Hierarchy.ts folds the
// sections it applies into one call): each section is written into one mutable tree, and the nodes
// are built once at the end.
import type * as Position from '../core/Position.js'
import type * as Node from './Node.js'

// A deep merge in progress. Folding `deepMaps` over n sections rebuilt the whole data (every entry,
// every list) once per section: n sections over n keys took n² steps. The fold instead writes each
// section into one mutable tree and builds the nodes once. A map or list becomes mutable only when
// a later section merges into it, so an untouched value stays the very node (and entry) it was,
// and a merged one is built as `deepMaps` built it: the base's key position and `at`, the
// replacing entry whole when a value of another kind (or a scalar) replaces.
interface Open {
  /** The entry as last set: the base's, or the section's entry that replaced or added the key. */
  entry: Node.Entry
  /** Its value once a section merged into it; undefined while the entry's own value stands. */
  merged: OpenMap | OpenSeq | undefined
}

interface OpenMap {
  readonly _tag: 'OpenMap'
  readonly at: Position.Position
  /** Key order is insertion order: a replaced key keeps its place, a new one goes last. */
  readonly entries: Map<string, Open>
}

interface OpenSeq {
  readonly _tag: 'OpenSeq'
  readonly at: Position.Position
  readonly items: Node.Node[]
}

const openMap = (m: Node.MapNode): OpenMap => ({ _tag: 'OpenMap', at: m.at, entries: new Map(m.entries.map((e) => [e.key, { entry: e, merged: undefined }] as const)) })

const openSeq = (s: Node.SeqNode): OpenSeq => ({ _tag: 'OpenSeq', at: s.at, items: [...s.items] })

/** Merges one section's map into an open map: `deep`, writing into `into`. */
const mergeInto = (into: OpenMap, over: Node.MapNode): void => {
  for (const o of over.entries) {
    const open = into.entries.get(o.key)
    if (open === undefined) {
      into.entries.set(o.key, { entry: o, merged: undefined })
      continue
    }
    const v = open.merged ?? open.entry.value
    if (o.value._tag === 'Map' && (v._tag === 'Map' || v._tag === 'OpenMap')) {
      const m = v._tag === 'OpenMap' ? v : openMap(v)
      mergeInto(m, o.value)
      open.merged = m
    } else if (o.value._tag === 'Seq' && (v._tag === 'Seq' || v._tag === 'OpenSeq')) {
      const s = v._tag === 'OpenSeq' ? v : openSeq(v)
      for (const item of o.value.items) s.items.push(item)
      open.merged = s
    } else {
      open.entry = o
      open.merged = undefined
    }
  }
}

const closeMap = (m: OpenMap): Node.MapNode => ({
  _tag: 'Map',
  entries: Array.from(m.entries.values(), (open): Node.Entry => (open.merged === undefined ? open.entry : { key: open.entry.key, keyAt: open.entry.keyAt, value: close(open.merged) })),
  at: m.at,
})

const close = (v: OpenMap | OpenSeq): Node.Node => (v._tag === 'OpenMap' ? closeMap(v) : { _tag: 'Seq', items: v.items, at: v.at })

/** `deepMaps` folded over `overs` in order (`base` itself when there are none), in one pass over each. */
export const all = (base: Node.MapNode, overs: ReadonlyArray<Node.MapNode>): Node.MapNode => {
  if (overs.length === 0) return base
  const into = openMap(base)
  for (const over of overs) mergeInto(into, over)
  return closeMap(into)
}
