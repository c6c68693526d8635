// Redact: the one place where sensitive values are taken out of a plan before it is sealed. A
// sensitive value (a secret a plugin gave) never appears in a plan file in clear: each occurrence,
// in any string of the plan (object keys too), becomes a marker holding a keyed digest of the
// value, enough to see that a secret changed between two plans and nothing to guess it from
// without the key. Sealing (PlanFile.seal) redacts first, so the hash is of the redacted body.
import * as crypto from 'node:crypto'
import type * as Plan from '../core/Plan.js'

// model

/** What a plan is redacted of: the sensitive values, and the key of their digests (a host's own, never in the plan). */
export interface Secrets {
  readonly values: ReadonlyArray<string>
  readonly key: Uint8Array
}

/** How a marker starts and ends; a marker is `⟦sensitive:` + 16 hex digits of HMAC-SHA256 + `⟧`. */
export const open = '⟦sensitive:'
export const close = '⟧'

/** Matches one marker. */
export const markerPattern = /⟦sensitive:[0-9a-f]{16}⟧/g

// constructors

/** The marker of one sensitive value under a key. */
export const marker = (key: Uint8Array, value: string): string => `${open}${crypto.createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, 16)}${close}`

// combinators

/**
 * A copy of a plan body with every occurrence of every sensitive value replaced by its marker.
 * Longer values are replaced first where two overlap, scanning left to right, so no string of
 * the result holds a whole sensitive value outside a marker. Empty values are ignored. With no
 * values the body is given back as it is (the same object: plans without secrets are unchanged).
 */
export const body = (b: Plan.Body, secrets: Secrets): Plan.Body => {
  const values = [...new Set(secrets.values.filter((v) => v !== ''))].sort((x, y) => y.length - x.length || (x < y ? -1 : 1))
  if (values.length === 0) return b
  const markers = new Map(values.map((v) => [v, marker(secrets.key, v)]))
  const pattern = new RegExp(values.map(escape).join('|'), 'g')
  const text = (s: string): string => s.replace(pattern, (m) => markers.get(m)!)
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]))
    return v
  }
  return walk(b) as Plan.Body
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
