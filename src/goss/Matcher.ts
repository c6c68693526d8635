// Matcher: goss's matchers (gomega's, as goss maps YAML onto them) as values (pure): what an
// attribute's actual value is compared with, how the comparison is made, and how it reads.
import * as Re2 from '../re2/Re2.js'

// model

/** A JSON value: what a probe reports and what a rule expects. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** A numeric comparison's operator. */
export type Compare = 'lt' | 'le' | 'gt' | 'ge'

/** A string matcher's kind. */
export type Text = 'have-prefix' | 'have-suffix' | 'contain-substring' | 'match-regexp'

export type Matcher =
  | { readonly _tag: 'Equal'; readonly value: Json }
  | { readonly _tag: 'Not'; readonly matcher: Matcher }
  | { readonly _tag: 'And'; readonly matchers: ReadonlyArray<Matcher> }
  | { readonly _tag: 'Or'; readonly matchers: ReadonlyArray<Matcher> }
  | { readonly _tag: 'Compare'; readonly op: Compare; readonly value: number }
  /** `match-regexp`'s pattern was compiled when decoded (Go's syntax, src/re2). */
  | { readonly _tag: 'Text'; readonly op: Text; readonly value: string }
  | { readonly _tag: 'ContainElement'; readonly matcher: Matcher }
  /** Every one of `matchers` matches some element (goss's default for a list given to a list attribute). */
  | { readonly _tag: 'ContainElements'; readonly matchers: ReadonlyArray<Matcher> }
  /** The elements and `matchers` pair up one to one, in any order. */
  | { readonly _tag: 'ConsistOf'; readonly matchers: ReadonlyArray<Matcher> }
  | { readonly _tag: 'HaveLen'; readonly value: number }
  /** goss's patterns, for text attributes (file contents, command output, http body): see Patterns.ts. */
  | { readonly _tag: 'Patterns'; readonly patterns: ReadonlyArray<string> }

// constructors

export const equal = (value: Json): Matcher => ({ _tag: 'Equal', value })
export const not = (matcher: Matcher): Matcher => ({ _tag: 'Not', matcher })
export const and = (matchers: ReadonlyArray<Matcher>): Matcher => ({ _tag: 'And', matchers })
export const or = (matchers: ReadonlyArray<Matcher>): Matcher => ({ _tag: 'Or', matchers })
export const compare = (op: Compare, value: number): Matcher => ({ _tag: 'Compare', op, value })
export const text = (op: Text, value: string): Matcher => ({ _tag: 'Text', op, value })

// evaluation

/** Deep equality of JSON values; a number equals the string that spells it (YAML `80` and a port "80"). */
export const same = (a: Json, b: Json): boolean => {
  if (typeof a === 'number' && typeof b === 'string') return String(a) === b
  if (typeof a === 'string' && typeof b === 'number') return a === String(b)
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x: Json, i: number) => same(x, b[i] as Json))
  const ka = Object.keys(a).sort()
  const kb = Object.keys(b).sort()
  const ra = a as { readonly [k: string]: Json }
  const rb = b as { readonly [k: string]: Json }
  return same(ka, kb) && ka.every((k) => same(ra[k] as Json, rb[k] as Json))
}

const numberOf = (v: Json): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined)

/** Whether a one-to-one pairing of elements with matchers exists (augmenting paths; sizes are small). */
const pairs = (elements: ReadonlyArray<Json>, matchers: ReadonlyArray<Matcher>): boolean => {
  if (elements.length !== matchers.length) return false
  const owner: number[] = matchers.map(() => -1)
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let m = 0; m < matchers.length; m++) {
      if (seen[m] === true || !matches(matchers[m] as Matcher, elements[e] as Json)) continue
      seen[m] = true
      if (owner[m] === -1 || tryAssign(owner[m] as number, seen)) {
        owner[m] = e
        return true
      }
    }
    return false
  }
  return elements.every((_, e) => tryAssign(e, []))
}

/** Whether an actual value satisfies a matcher (a value of the wrong type never does). */
export const matches = (m: Matcher, actual: Json): boolean => {
  switch (m._tag) {
    case 'Equal':
      return same(m.value, actual)
    case 'Not':
      return !matches(m.matcher, actual)
    case 'And':
      return m.matchers.every((x) => matches(x, actual))
    case 'Or':
      return m.matchers.some((x) => matches(x, actual))
    case 'Compare': {
      const n = numberOf(actual)
      if (n === undefined) return false
      return m.op === 'lt' ? n < m.value : m.op === 'le' ? n <= m.value : m.op === 'gt' ? n > m.value : n >= m.value
    }
    case 'Text': {
      if (typeof actual !== 'string' && typeof actual !== 'number') return false
      const s = String(actual)
      if (m.op === 'have-prefix') return s.startsWith(m.value)
      if (m.op === 'have-suffix') return s.endsWith(m.value)
      if (m.op === 'contain-substring') return s.includes(m.value)
      const re = Re2.compileRegex(m.value)
      return re._tag === 'Right' && re.right.test(s)
    }
    case 'ContainElement':
      return Array.isArray(actual) && actual.some((x: Json) => matches(m.matcher, x))
    case 'ContainElements':
      return Array.isArray(actual) && m.matchers.every((x) => actual.some((y: Json) => matches(x, y)))
    case 'ConsistOf':
      return Array.isArray(actual) && pairs(actual, m.matchers)
    case 'HaveLen':
      return (Array.isArray(actual) || typeof actual === 'string') && actual.length === m.value
    case 'Patterns':
      return typeof actual === 'string' && failedPatterns(m.patterns, actual).length === 0
  }
}

// patterns

/** The patterns a text does not satisfy: `text` some line contains it, `!text` none does, `/re/` some line matches, `!/re/` none does, `\!text` a literal `!`. */
export const failedPatterns = (patterns: ReadonlyArray<string>, actual: string): ReadonlyArray<string> => {
  const lines = actual.split('\n')
  return patterns.filter((p) => {
    const negated = p.startsWith('!')
    const body = negated ? p.slice(1) : p.startsWith('\\!') ? p.slice(1) : p
    const regex = body.length >= 2 && body.startsWith('/') && body.endsWith('/') ? Re2.compileRegex(body.slice(1, -1)) : undefined
    const hit = regex === undefined ? lines.some((l) => l.includes(body)) : regex._tag === 'Right' && lines.some((l) => regex.right.test(l))
    return negated ? hit : !hit
  })
}

// interop

/** A matcher as goss's YAML spells it, for messages: `{"lt":500}`, `"0644"`. */
export const render = (m: Matcher): string => JSON.stringify(toJson(m))

/** A matcher as goss's YAML value (JSON). */
export const toJson = (m: Matcher): Json => {
  switch (m._tag) {
    case 'Equal':
      return m.value
    case 'Not':
      return { not: toJson(m.matcher) }
    case 'And':
      return { and: m.matchers.map(toJson) }
    case 'Or':
      return { or: m.matchers.map(toJson) }
    case 'Compare':
      return { [m.op]: m.value }
    case 'Text':
      return { [m.op]: m.value }
    case 'ContainElement':
      return { 'contain-element': toJson(m.matcher) }
    case 'ContainElements':
      return { 'contain-elements': m.matchers.map(toJson) }
    case 'ConsistOf':
      return { 'consist-of': m.matchers.map(toJson) }
    case 'HaveLen':
      return { 'have-len': m.value }
    case 'Patterns':
      return m.patterns
  }
}
