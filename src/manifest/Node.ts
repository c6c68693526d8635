// Node: a YAML value with the source position of every map key, sequence item and scalar.
import type { Position } from '../core/Position.js'

// model

/** A scalar keeps both its parsed value and, for plain scalars, its source spelling. */
export interface Scalar {
  readonly _tag: 'Scalar'
  readonly value: string | number | boolean | null
  /** Source text of a plain scalar (`0644`, `1.10`); the decoded string of a quoted or block one. */
  readonly text: string
  readonly quoted: boolean
  readonly at: Position
}

export interface Entry {
  readonly key: string
  readonly keyAt: Position
  readonly value: Node
}

export interface MapNode {
  readonly _tag: 'Map'
  readonly entries: ReadonlyArray<Entry>
  readonly at: Position
}

export interface SeqNode {
  readonly _tag: 'Seq'
  readonly items: ReadonlyArray<Node>
  readonly at: Position
}

export type Node = Scalar | MapNode | SeqNode

// guards

/** The YAML type name of a node, for messages ("a map", "a list", "a string"). */
export const describe = (n: Node): string => {
  switch (n._tag) {
    case 'Map':
      return 'a map'
    case 'Seq':
      return 'a list'
    case 'Scalar':
      if (n.value === null) return 'null'
      if (typeof n.value === 'boolean') return 'a boolean'
      if (typeof n.value === 'number') return 'a number'
      return 'a string'
  }
}

// combinators

/** Finds a map entry by key. */
export const get = (m: MapNode, key: string): Entry | undefined => m.entries.find((e) => e.key === key)

// interop

/**
 * Converts a node to a plain JSON-like value (scalars keep their parsed types). Keys are defined,
 * not assigned, so a YAML key named `__proto__` stays a key instead of replacing the prototype.
 */
export const toJS = (n: Node): unknown => {
  switch (n._tag) {
    case 'Scalar':
      return n.value
    case 'Seq':
      return n.items.map(toJS)
    case 'Map': {
      const out: Record<string, unknown> = {}
      for (const e of n.entries) Object.defineProperty(out, e.key, { value: toJS(e.value), enumerable: true, writable: true, configurable: true })
      return out
    }
  }
}
