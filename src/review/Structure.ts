// Structure: JSON data as the catalog diff compares it, and the path-level difference of two
// values (pure; equal inputs, equal output).
//
// Invariants: a Json value is plain data (null, booleans, finite numbers, strings, arrays and
// objects with own keys), so two of them are equal exactly when their canonical texts are, and
// a difference of a value with itself is empty.

import * as Append from '../core/Append.js'

// model

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** One place where two values differ: `before` absent means added there, `after` absent removed. */
export interface PathChange {
  /** The keys and indexes from the top (empty: the whole value). */
  readonly path: ReadonlyArray<string | number>
  readonly before?: Json
  readonly after?: Json
}

// constructors

/** Any value as Json: bytes as their length, Maps as objects, functions, symbols and undefined left out, non-finite numbers as text. */
export const plain = (u: unknown, depth = 0): Json => {
  if (depth > 64) return '…'
  if (u === null || u === undefined) return null
  if (typeof u === 'boolean' || typeof u === 'string') return u
  if (typeof u === 'number') return Number.isFinite(u) ? u : String(u)
  if (typeof u === 'bigint') return u.toString()
  if (u instanceof Uint8Array) return `<${u.length} bytes>`
  if (u instanceof Map) return Object.fromEntries([...u].map(([k, v]) => [String(k), plain(v, depth + 1)]))
  if (Array.isArray(u)) return u.map((v) => plain(v, depth + 1))
  if (typeof u === 'object') {
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(u)) if (v !== undefined && typeof v !== 'function' && typeof v !== 'symbol') out[k] = plain(v, depth + 1)
    return out
  }
  return null
}

// combinators

const isObject = (v: Json): v is { readonly [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A value's canonical text: JSON with every object's keys sorted (equal values, equal texts). */
export const canonical = (v: Json): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`).join(',')}}`
  return JSON.stringify(v)
}

/** True when two values are the same data (object key order aside). */
export const equal = (a: Json, b: Json): boolean => canonical(a) === canonical(b)

/**
 * Where two values differ, in order: objects key by key (keys sorted), arrays index by index
 * (a longer array's extra items as added or removed), anything else as one change at its path.
 */
export const diff = (a: Json, b: Json, path: ReadonlyArray<string | number> = []): ReadonlyArray<PathChange> => {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    return keys.flatMap((k) => {
      const has = Object.prototype.hasOwnProperty
      const inA = has.call(a, k)
      const inB = has.call(b, k)
      if (inA && inB) return diff(a[k]!, b[k]!, [...path, k])
      return [inA ? { path: [...path, k], before: a[k]! } : { path: [...path, k], after: b[k]! }]
    })
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: PathChange[] = []
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= b.length) out.push({ path: [...path, i], before: a[i]! })
      else if (i >= a.length) out.push({ path: [...path, i], after: b[i]! })
      else Append.append(out, diff(a[i]!, b[i]!, [...path, i]))
    }
    return out
  }
  return equal(a, b) ? [] : [{ path, before: a, after: b }]
}

/** A path as a person reads it: `a.b[2].c`, keys that are not plain names quoted (`["x.y"]`); the whole value is `.`. */
export const pathText = (path: ReadonlyArray<string | number>): string => {
  if (path.length === 0) return '.'
  return path
    .map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(seg) ? `${i === 0 ? '' : '.'}${seg}` : `[${JSON.stringify(seg)}]`))
    .join('')
}
