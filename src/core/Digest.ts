// Digest: sha256 digests of bytes, text and canonical values (the one crypto use the core may make).
import { createHash } from 'node:crypto'

/** Hex sha256 of bytes or UTF-8 text. */
export const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex')

/** `sha256:<hex>` of a value's canonical JSON (sorted keys, no whitespace). */
export const ofValue = (v: unknown): string => 'sha256:' + sha256(canonical(v))

/** Canonical JSON: object keys sorted, no insignificant whitespace, undefined fields dropped. */
export const canonical = (v: unknown): string => JSON.stringify(sortKeys(v))

/** A copy of a JSON value with every object's keys in sorted order. */
export const sortKeys = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k]
      if (x !== undefined) out[k] = sortKeys(x)
    }
    return out
  }
  return v
}
