// Lookup: CCM's `lookup(path)`: a GJSON path over {facts, data, environ}. Supported: dotted keys,
// `\` escapes (`dotted\.key`), array indexes (`list.0`), `#` for an array's length, `list.#.key`
// for a key of every element, and `*` / `?` wildcards in keys. GJSON queries (`#(...)`),
// modifiers (`@reverse`) and pipes are reported as unsupported.
import * as E from 'fp-ts/lib/Either.js'
import * as Value from './Value.js'

// model

export interface Segment {
  readonly text: string
  /** An escaped segment matches literally: no wildcards, no `#`. */
  readonly literal: boolean
}

/** What a lookup found, or that nothing is there. */
export type Found = { readonly _tag: 'Found'; readonly value: Value.Value } | { readonly _tag: 'Missing' }

// parsing

/** Splits a GJSON path into segments at unescaped dots. */
export const split = (path: string): E.Either<string, ReadonlyArray<Segment>> => {
  const out: Segment[] = []
  let text = ''
  let literal = false
  for (let i = 0; i < path.length; i += 1) {
    const c = path[i]!
    if (c === '\\' && i + 1 < path.length) {
      i += 1
      text += path[i]
      literal = true
    } else if (c === '.') {
      out.push({ text, literal })
      text = ''
      literal = false
    } else {
      if (!literal && text === '' && (c === '@' || c === '!')) return E.left(`lookup path "${path}": GJSON modifiers are not supported`)
      if (c === '|' || (c === '(' && text === '#')) return E.left(`lookup path "${path}": GJSON queries and pipes are not supported`)
      text += c
    }
  }
  out.push({ text, literal })
  return E.right(out)
}

// evaluation

/**
 * Whether a key matches a GJSON wildcard pattern (`*` any run of characters, `?` any one), by code
 * points. A loop that, on a mismatch, goes back only to the last `*` (letting it take one more
 * character): trying each `*`'s every length in turn, as this did, was exponential in the stars
 * (`*a*a*a…b` against a run of `a`s) and recursed once per character (a 50,000-character key
 * overflowed the stack). Matching is the same, as a later `*` can take whatever an earlier one
 * would have left it.
 */
export const wildcard = (pattern: string, key: string): boolean => {
  const p = [...pattern]
  const k = [...key]
  let i = 0
  let j = 0
  let star = -1
  let resume = 0
  while (j < k.length) {
    if (i < p.length && p[i] === '*') {
      star = i++
      resume = j
    } else if (i < p.length && (p[i] === '?' || p[i] === k[j])) {
      i++
      j++
    } else if (star >= 0) {
      i = star + 1
      j = ++resume
    } else return false
  }
  while (i < p.length && p[i] === '*') i++
  return i === p.length
}

/** Walks a value along segments, as GJSON walks the JSON of the value (keys in sorted order). */
export const walk = (root: Value.Value, segments: ReadonlyArray<Segment>): Found => {
  if (segments.length === 0) return { _tag: 'Found', value: root }
  const [seg, ...rest] = segments as [Segment, ...Segment[]]
  if (Value.isArray(root)) {
    if (seg.text === '#' && !seg.literal) {
      if (rest.length === 0) return { _tag: 'Found', value: BigInt(root.length) }
      const items: Value.Value[] = []
      for (const item of root) {
        const f = walk(item, rest)
        if (f._tag === 'Found') items.push(f.value)
      }
      return { _tag: 'Found', value: Value.array(items) }
    }
    if (!/^[0-9]+$/.test(seg.text)) return { _tag: 'Missing' }
    const i = Number(seg.text)
    return i < root.length ? walk(root[i]!, rest) : { _tag: 'Missing' }
  }
  if (Value.isMap(root)) {
    const hasWild = !seg.literal && /[*?]/.test(seg.text)
    const key = hasWild ? Value.keys(root).find((k) => wildcard(seg.text, k)) : Value.get(root, seg.text) === undefined ? undefined : seg.text
    return key === undefined ? { _tag: 'Missing' } : walk(root[key]!, rest)
  }
  return { _tag: 'Missing' }
}

/** GJSON's Value(): the numbers inside arrays and maps come back as floats. */
export const asGjson = (v: Value.Value): Value.Value => {
  if (typeof v === 'bigint') return Number(v)
  if (Value.isArray(v)) return Value.array(v.map(asGjson))
  if (Value.isMap(v)) return Value.map(Object.keys(v).map((k) => [k, asGjson(v[k]!)] as const))
  return v
}

/** The prefix of a path that names a value (before `#` or a wildcard), for recording what was read. */
export const readPath = (segments: ReadonlyArray<Segment>): ReadonlyArray<string> => {
  const out: string[] = []
  for (const s of segments) {
    if (!s.literal && (s.text === '#' || /[*?]/.test(s.text))) break
    out.push(s.text)
  }
  return out
}
