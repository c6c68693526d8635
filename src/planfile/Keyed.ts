// Keyed: the digests and diffs of a resource that carries a sensitive value. Redaction (Redact.ts)
// takes the value's text out of a plan; this takes out what could be checked against a guess of
// it. A plain sha256 of a file whose content holds a secret lets anyone with the plan try
// candidate secrets offline, so such a resource's `observed.digest` and every `sha256` of its
// desired state are keyed by the host's key (`hmac-sha256:` of the clear digest), the digests its
// summary and steps' reasons quote are keyed to as many hex digits, and the old side
// of its diffs, read from the machine and perhaps holding a former secret no reference gives
// now, is not shown. Apply compares the keyed digests keyed (`same`), and gets the clear desired
// digests back from the clear steps (`restore`).
import * as crypto from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type * as Plan from '../core/Plan.js'

// model

/** How a keyed digest starts. */
export const prefix = 'hmac-sha256:'

/** The note on a diff whose old side is not shown. */
export const hiddenOld = '(old lines not shown: they may hold a sensitive value)'

// constructors

/** The keyed digest of a clear digest (any text) under the host's key. */
export const digest = (key: Uint8Array, clear: string): string => `${prefix}${crypto.createHmac('sha256', key).update(clear, 'utf8').digest('hex')}`

// guards

/** True for a keyed digest. */
export const isKeyed = (s: string): boolean => s.startsWith(prefix)

// combinators

/**
 * The body with the resources named in `ids` keyed: their observed digest and every `sha256` of
 * their desired state keyed, and every step's `diff` without its old side. Other resources, and a
 * body with no ids, are given back as they are.
 */
export const body = (b: Plan.Body, ids: ReadonlySet<string>, key: Uint8Array): Plan.Body => {
  if (ids.size === 0) return b
  const resources = b.resources.map((r) => {
    if (!ids.has(r.id) || r.observed === undefined) return r
    const keyed: Record<string, unknown> = { ...r, observed: { summary: keyHex(r.observed.summary, key), digest: digest(key, r.observed.digest) } }
    if ('desired' in r) keyed['desired'] = keyShas((r as { readonly desired: unknown }).desired, key)
    keyed['steps'] = r.steps.map((s: Plan.Step & { readonly diff?: unknown }) => ({ ...s, reason: keyHex(s.reason, key), noop: keyHex(s.noop, key), ...(typeof s.diff === 'string' ? { diff: withoutOld(s.diff) } : {}) }))
    return keyed as unknown as Plan.ResourcePlan
  })
  return { ...b, resources }
}

/** Compares a recorded digest with one observed now: a keyed one keyed, any other as it is. */
export const same =
  (key: Uint8Array): Plan.SameDigest =>
  (recorded, clear) =>
    isKeyed(recorded) ? digest(key, clear) === recorded : recorded === clear

/**
 * The plan (its steps in clear) with each keyed `sha256` of a resource's desired state replaced by
 * the clear digest of its steps that it keys: what verification compares after the steps ran.
 * Refused when a resource with steps keys a digest none of its steps has (the plan was edited, or
 * made with another key). A resource without steps is never verified, and keeps its keyed digests.
 */
export const restore = (plan: Plan.Plan, key: Uint8Array): E.Either<ReadonlyArray<string>, Plan.Plan> => {
  const problems: string[] = []
  const resources = plan.resources.map((r) => {
    if (!('desired' in r) || r.steps.length === 0) return r
    const clear = new Map(shas(r.steps).map((s) => [digest(key, s), s]))
    const before = (r as { readonly desired: unknown }).desired
    const desired = mapShas(before, (s) => {
      if (!isKeyed(s)) return s
      const found = clear.get(s)
      if (found === undefined) problems.push(`${r.id}: its keyed digest ${s.slice(0, prefix.length + 12)}… is of none of its steps' contents`)
      return found ?? s
    })
    return desired === before ? r : ({ ...r, desired } as Plan.ResourcePlan)
  })
  return problems.length > 0 ? E.left(problems) : E.right({ ...plan, resources })
}

/**
 * A text with every run of 12 to 64 hex digits (a digest or its prefix, as summaries and reasons
 * quote them: `sha256 930067d19861 → 360ea174328e`), with the `sha256:` or `sha256 ` before it,
 * replaced by `hmac:` and as many digits of its keyed digest (`hmac:8bf7b6d3ae79 →
 * hmac:63b140208d6c`): two texts still show the same digest alike, neither can be checked against
 * a guess, and a text keyed already (or a redaction marker) is left as it is.
 */
export const keyHex = (text: string, key: Uint8Array): string => text.replace(quotedHex, (_m, hex: string) => `hmac:${digest(key, hex).slice(prefix.length, prefix.length + hex.length)}`)

const quotedHex = /(?:sha256[: ])?(?<![0-9a-fA-F])(?<!hmac:|hmac-sha256:|\u27e6sensitive:)([0-9a-f]{12,64})(?![0-9a-fA-F])/g

/** The ids of a plan's resources that carry a sensitive value (their observed digest is keyed). */
export const carriersOf = (plan: Plan.Body): ReadonlySet<string> => new Set(plan.resources.filter((r) => r.observed !== undefined && isKeyed(r.observed.digest)).map((r) => r.id))

/**
 * What is shown or saved of a run (a report, its JSON, its diagnostics), with keyHex applied to
 * every string of each object that is about a resource in `ids` (its `id` or `resource` names
 * one): a verification failure or a stale plan's drift quoting the digest of what a carrier holds
 * then quotes it keyed, as the plan does.
 */
export const shown = <A>(v: A, ids: ReadonlySet<string>, key: Uint8Array): A => {
  if (ids.size === 0) return v
  const within = (x: unknown, inside: boolean, depth: number): unknown => {
    if (typeof x === 'string') return inside ? keyHex(x, key) : x
    if (depth > 64 || x === null || typeof x !== 'object') return x
    if (Array.isArray(x)) return x.map((y) => within(y, inside, depth + 1))
    const o = x as { readonly id?: unknown; readonly resource?: unknown }
    const about = inside || (typeof o.id === 'string' && ids.has(o.id)) || (typeof o.resource === 'string' && ids.has(o.resource))
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, k === 'id' || k === 'resource' ? y : within(y, about, depth + 1)]))
  }
  return within(v, false, 0) as A
}

/** A unified diff with its old side left out: `-` and context lines dropped, the `---` line saying so. */
export const withoutOld = (diff: string): string => {
  // Only the lines before the first hunk are headers: inside the hunks a removed line whose text
  // starts with "-- " reads "--- ...", and must go like every other removed line.
  let hunks = false
  return diff
    .split('\n')
    .flatMap((line, i, lines) => {
      if (!hunks) {
        if (line.startsWith('--- ')) return [`${line} ${hiddenOld}`]
        if (line.startsWith('+++ ')) return [line]
        hunks = line.startsWith('@@')
        return hunks ? [line] : [] // "Index:" and "====" before the headers
      }
      if (line.startsWith('@@') || line.startsWith('+')) return [line]
      if (line.startsWith('\\')) return lines[i - 1]?.startsWith('+') === true ? [line] : []
      return i === lines.length - 1 && line === '' ? [line] : []
    })
    .join('\n')
}

const sha256Hex = /^[0-9a-f]{64}$/

/** Every `sha256` field in a value that is a clear digest. */
const shas = (v: unknown): ReadonlyArray<string> => {
  const out: string[] = []
  mapShas(v, (s) => {
    out.push(s)
    return s
  })
  return out
}

/** A value with f applied to every string `sha256` field (the same object where f changed none). */
const mapShas = <A>(v: A, f: (s: string) => string): A => {
  if (Array.isArray(v)) {
    const out = v.map((x) => mapShas(x, f))
    return out.some((x, i) => x !== v[i]) ? (out as A) : v
  }
  if (v === null || typeof v !== 'object') return v
  let changed = false
  const out = Object.fromEntries(
    Object.entries(v).map(([k, x]) => {
      const y = k === 'sha256' && typeof x === 'string' ? f(x) : mapShas(x, f)
      if (y !== x) changed = true
      return [k, y]
    }),
  )
  return changed ? (out as A) : v
}

/** Every clear `sha256` of a desired state keyed. */
const keyShas = <A>(v: A, key: Uint8Array): A => mapShas(v, (s) => (sha256Hex.test(s) ? digest(key, s) : s))
