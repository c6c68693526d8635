// Redact: the one place where sensitive values are taken out of a plan before it is sealed. A
// sensitive value (a secret a plugin gave) never appears in a plan file in clear: each occurrence,
// in any string of the plan (object keys too), becomes a marker holding a keyed digest of the
// value, enough to see that a secret changed between two plans and nothing to guess it from
// without the key. Sealing (PlanFile.seal) redacts first, so the hash is of the redacted body.
import * as crypto from 'node:crypto'
import * as Digest from '../core/Digest.js'
import * as Literals from '../core/Literals.js'
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
export const markerPattern = /\u27e6sensitive:[0-9a-f]{16}\u27e7/g

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
  const redact = text(secrets)
  return redact === identity ? b : (walk(b, redact) as Plan.Body)
}

/** A redactor of text: every occurrence of every sensitive value replaced by its marker (as in `body`); with no values, the identity. */
export const text = (secrets: Secrets): ((s: string) => string) => {
  const literals = Literals.compile(secrets.values)
  if (literals === undefined) return identity
  const markers = new Map<string, string>()
  const markerOf = (v: string): string => {
    let m = markers.get(v)
    if (m === undefined) markers.set(v, (m = marker(secrets.key, v)))
    return m
  }
  return (s) => Literals.replace(literals, s, markerOf)
}

/** Any JSON-like value (a report, diagnostics) with the redactor applied to every string in it, keys too. */
export const value = <A>(v: A, secrets: Secrets): A => values(secrets)(v)

/**
 * A redactor of JSON-like values (as `value`), its values compiled once: for a caller that redacts
 * many values with the same secrets (an apply redacts every step and every record it keeps, and
 * compiling thousands of secret texts for each took most of a 57 s apply).
 */
export const values = (secrets: Secrets): (<A>(v: A) => A) => {
  const redact = text(secrets)
  return <A>(v: A): A => (redact === identity ? v : (walk(v, redact) as A))
}

/**
 * A value with every marker replaced by the sensitive value it stands for, for the one use that needs
 * them in clear (apply, in memory); `unknown` lists the markers none of the values stands for.
 */
export const reveal = <A>(v: A, secrets: Secrets): { readonly value: A; readonly unknown: ReadonlyArray<string> } => {
  const clear = new Map(secrets.values.map((x) => [marker(secrets.key, x), x]))
  const unknown = new Set<string>()
  const out = walk(v, (s) =>
    s.replace(markerPattern, (m) => {
      const x = clear.get(m)
      if (x === undefined) unknown.add(m)
      return x ?? m
    }),
  ) as A
  return { value: out, unknown: [...unknown] }
}

/** The keyed digest of a sensitive value (any JSON) as a plan records it: `hmac-sha256:` and 64 hex digits. */
export const digest = (key: Uint8Array, v: unknown): string => `hmac-sha256:${crypto.createHmac('sha256', key).update(Digest.canonical(v), 'utf8').digest('hex')}`

const identity = (s: string): string => s

/**
 * Applies f to every string of a value. A step's text content (`{encoding: 'utf8', data, sha256,
 * size}`) whose data changed gets the digest and size of its new data: a redacted plan is
 * consistent (its file checks pass) and holds no digest of the clear content in its steps, and a
 * revealed one writes and checks the clear bytes.
 */
const walk = (v: unknown, f: (s: string) => string): unknown => {
  if (typeof v === 'string') return f(v)
  if (Array.isArray(v)) return v.map((x) => walk(x, f))
  if (v !== null && typeof v === 'object') {
    const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), walk(x, f)]))
    const c = v as Record<string, unknown>
    if (c['encoding'] === 'utf8' && typeof c['data'] === 'string' && typeof c['sha256'] === 'string' && typeof c['size'] === 'number' && out['data'] !== c['data']) {
      const bytes = Buffer.from(out['data'] as string, 'utf8')
      out['sha256'] = crypto.createHash('sha256').update(bytes).digest('hex')
      out['size'] = bytes.length
    }
    return out
  }
  return v
}
