// References: plugin references in a parsed document, as Bolt writes them: a map with a `_plugin`
// key names the plugin, its other keys are the plugin's parameters, and the whole map stands for
// the value the plugin gives. The resolve stage (src/load/resolve.ts) runs the plugins; this module
// only finds references and builds the nodes that replace them.
import type { Position } from '../core/Position.js'
import type * as Node from './Node.js'

// model

/** The key that makes a map a reference. */
export const pluginKey = '_plugin'

/** A reference, its inner references already resolved. */
export interface Reference {
  /** The plugin's name (the `_plugin` value). */
  readonly plugin: string
  /** The map's other keys, as plain data: the plugin's parameters. */
  readonly parameters: Readonly<Record<string, unknown>>
  /** Where the reference's `_plugin` key is. */
  readonly at: Position
}

// guards

/** True when a document holds a reference anywhere (a cheap look before the resolve stage walks it). */
export const any = (n: Node.Node): boolean => {
  switch (n._tag) {
    case 'Scalar':
      return false
    case 'Seq':
      return n.items.some(any)
    case 'Map':
      return n.entries.some((e) => e.key === pluginKey || any(e.value))
  }
}

/** The `_plugin` entry of a map (undefined: the map is plain data). */
export const pluginEntry = (m: Node.MapNode): Node.Entry | undefined => m.entries.find((e) => e.key === pluginKey)

// constructors

/**
 * The node of a value a plugin gave, placed at its reference: every part of it carries the
 * reference's position, so a later error in it points at the reference. Strings are quoted scalars
 * (a plugin's "0644" stays text, as a quoted YAML scalar does); keys keep their order.
 */
export const nodeOf = (value: unknown, at: Position): Node.Node => {
  if (value === null || value === undefined) return { _tag: 'Scalar', value: null, text: '', quoted: false, at }
  if (typeof value === 'string') return { _tag: 'Scalar', value, text: value, quoted: true, at }
  if (typeof value === 'number' || typeof value === 'boolean') return { _tag: 'Scalar', value, text: String(value), quoted: false, at }
  if (Array.isArray(value)) return { _tag: 'Seq', items: value.map((v) => nodeOf(v, at)), at }
  if (typeof value === 'object') return { _tag: 'Map', entries: Object.entries(value).map(([key, v]) => ({ key, keyAt: at, value: nodeOf(v, at) })), at }
  return { _tag: 'Scalar', value: String(value), text: String(value), quoted: true, at }
}
