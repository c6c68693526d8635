// Digest: sha256 digests of bytes, text and canonical values (the one crypto use the core may make).
import * as crypto from 'node:crypto'

/** Hex sha256 of bytes or UTF-8 text. */
// The one-shot crypto.hash (Node 20.12+; plait needs 20.19) is about twice as fast as a Hash
// object for small inputs. Nothing of node:crypto is touched before the first digest: the bundled
// command loads it then (scripts/bundle.mjs), and `plait --version` never does.
export const sha256 = (data: Uint8Array | string): string => crypto.hash('sha256', data, 'hex')

/** `sha256:<hex>` of a value's canonical JSON (sorted keys, no whitespace). */
export const ofValue = (v: unknown): string => 'sha256:' + sha256(canonical(v))

/** Canonical JSON: object keys sorted, no insignificant whitespace, undefined fields dropped. */
export const canonical = (v: unknown): string => JSON.stringify(sortKeys(v))

/** A copy of a JSON value with every object's keys in sorted order. */
export const sortKeys = (v: unknown): unknown => {
  if (typeof v !== 'object' || v === null) return v
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length)
    for (let i = 0; i < v.length; i++) out[i] = sortKeys(v[i])
    return out
  }
  const keys = Object.keys(v).sort()
  const out: Record<string, unknown> = {}
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    const x = (v as Record<string, unknown>)[k]
    if (x !== undefined) out[k] = typeof x === 'object' && x !== null ? sortKeys(x) : x
  }
  return out
}
