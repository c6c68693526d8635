// Expressions at scale: what grew faster than its input (a hunt's findings) gives what it gave
// before, now in time linear in it. Lookup's wildcards against the old recursive matcher (kept here
// as the model); string bytes of long strings against TextEncoder; groupBy of one big group.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Expr from '../../../src/manifest/expr/Expr.js'
import * as Budget from '../../../src/manifest/expr/Budget.js'
import * as Builtins from '../../../src/manifest/expr/Builtins.js'
import * as Lookup from '../../../src/manifest/expr/Lookup.js'
import * as Shape from '../../../src/manifest/expr/Shape.js'
import * as Value from '../../../src/manifest/expr/Value.js'
import * as Re2 from '../../../src/re2/Re2.js'

const refusal = (src: string, data: unknown = {}): string => {
  const r = Expr.run(src, Evaluate.env({ data }))
  if (E.isRight(r)) throw new Error(`${src} evaluated to ${Value.format(r.right.value)}`)
  return r.left.message
}

/** The matcher before: each `*` tried at every length, recursively. */
const oldWildcard = (pattern: string, key: string): boolean => {
  const p = [...pattern]
  const k = [...key]
  const go = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length
    if (p[i] === '*') return go(i + 1, j) || (j < k.length && go(i, j + 1))
    if (j === k.length) return false
    return (p[i] === '?' || p[i] === k[j]) && go(i + 1, j + 1)
  }
  return go(0, 0)
}

const value = (src: string, data: unknown): Value.Value => {
  const r = Expr.run(src, Evaluate.env({ data }))
  if (E.isLeft(r)) throw new Error(`${src}: ${r.left.message}`)
  return r.right.value
}

describe('lookup wildcards', () => {
  test.prop([fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '😀'), maxLength: 10 }), fc.string({ unit: fc.constantFrom('a', 'b', '😀'), maxLength: 12 })])(
    'match what the recursive matcher matched (law)',
    (pattern, key) => {
      expect(Lookup.wildcard(pattern, key)).toBe(oldWildcard(pattern, key))
    },
  )

  it('answers many stars against a long key at once, and a key of 50,000 characters without recursing', () => {
    expect(Lookup.wildcard(`${'*a'.repeat(40)}b`, 'a'.repeat(60))).toBe(false)
    expect(Lookup.wildcard('*b', `${'a'.repeat(50000)}`)).toBe(false)
    expect(Lookup.wildcard('*b', `${'a'.repeat(50000)}b`)).toBe(true)
    expect(value(`lookup('data.*b', 0)`, { [`${'a'.repeat(50000)}b`]: 7 })).toBe(7n)
  })
})

describe('strings measured, indexed and sliced in bytes', () => {
  test.prop([fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800'), minLength: 0, maxLength: 600 })])('as TextEncoder encodes them, short or long, asked once or again', (s) => {
    const bytes = new TextEncoder().encode(s)
    for (let k = 0; k < 2; k++) {
      expect(Value.utf8.length(s)).toBe(bytes.length)
      expect([...Value.utf8.encode(s)]).toEqual([...bytes])
    }
  })

  it('indexes each byte of a long string in turn as it indexes one', () => {
    const s = 'é€a'.repeat(3000)
    const bytes = new TextEncoder().encode(s)
    expect(value('sum(0..len(Data.s)-1, Data.s[#])', { s })).toBe(BigInt(bytes.reduce((a, b) => a + b, 0)))
    expect(value('join(map(0..len(Data.a)-1, Data.a[#:#+1]), "") == Data.a', { a: 'abc'.repeat(6000) })).toBe(true)
    expect(value('sum(0..len(Data.t)-1, len(Data.t))', { t: 'x'.repeat(20000) })).toBe(20000n * 20000n)
  })
})

describe('groupBy', () => {
  it('keeps each group in order, the groups in order of their first member, for one group of 40,000', () => {
    const items = Array.from({ length: 40000 }, (_, i) => ({ role: i % 3 === 0 ? 'db' : 'web', n: i }))
    const web = value('groupBy(Data.items, .role).web', { items }) as ReadonlyArray<Value.Value>
    expect(web.length).toBe(26666)
    expect(value('keys(groupBy(Data.items, .role))', { items })).toEqual(['db', 'web'])
    expect(value('map(groupBy(Data.items, .role).db[0:3], .n)', { items })).toEqual([0n, 3n, 6n])
  })
})

/** A value's parts and depth, walked naively (the model of Shape.of). */
const naive = (v: Value.Value): { parts: number; depth: number } => {
  if (!Value.isArray(v) && !Value.isMap(v)) return { parts: 0, depth: 0 }
  const kids = (Value.isArray(v) ? v : Object.values(v)).map(naive)
  return { parts: kids.reduce((n, k) => n + 1 + k.parts, 0), depth: 1 + Math.max(0, ...kids.map((k) => k.depth)) }
}

describe('values an expression builds are bounded in parts, depth and work', () => {
  test.prop([fc.jsonValue({ maxDepth: 5 }), fc.nat({ max: 3 })])('Shape counts every part each time it appears, as a walk does (law)', (json, copies) => {
    const v = Value.fromJS(json)
    const shared = Value.array(Array.from({ length: copies + 1 }, () => v))
    expect(Shape.of(shared)).toEqual(naive(shared))
    expect(Shape.of(v)).toEqual(naive(v))
  })

  it('refuses a value that shares itself past the limit of items, at once', () => {
    expect(refusal('len(string(reduce(1..40, [#acc, #acc], [1])))')).toMatch(`holds more than the limit of ${Budget.maxItems} items`)
    expect(refusal('reduce(1..40, [#acc, #acc], [1]) == reduce(1..40, [#acc, #acc], [1])')).toMatch('holds more than the limit')
    expect(value('len(string(reduce(1..10, [#acc, #acc], [1])))', {})).toBeGreaterThan(1024n)
  })

  it('refuses a value nested deeper than data may nest, rather than overflowing the stack', () => {
    expect(refusal('len(string(reduce(1..100000, [#acc], 1)))')).toMatch(`nests deeper than the limit of ${Budget.maxDepth} levels`)
    expect(refusal('reduce(1..100000, [[#acc]], 1) == 1')).toMatch('nests deeper')
    expect(value('len(string(reduce(1..150, [#acc], 1)))', {})).toBe(BigInt(150 * 2 + 1))
  })

  it('charges a comparison what it reads: a loop comparing a long text is stopped, not run for hours', () => {
    expect(refusal('count(1..1000000, Data.s == Data.s)', { s: 'x'.repeat(4_000_000) })).toMatch(`more than the limit of ${Budget.maxWork} units of work`)
    expect(value('count(1..10, Data.s == Data.s)', { s: 'x'.repeat(4_000_000) })).toBe(10n)
  })

  it('reads data of more parts (1,800,000) than an expression may build: only what a node builds is measured', () => {
    const big = Array.from({ length: 600_000 }, (_, i) => [i % 7, i % 5])
    expect(value('len(Data.big)', { big })).toBe(600_000n)
    expect(value('Data.big[5][1]', { big })).toBe(0n)
  })
})

describe('upper and lower', () => {
  /** One code point at a time (the model): what mapCase did for every text. */
  const each = (s: string, up: boolean): string => [...s].map((ch) => (up ? ch.toUpperCase() : ch.toLowerCase())).map((m, i) => ([...m].length === 1 ? m : [...s][i]!)).join('')

  test.prop([fc.string({ unit: fc.constantFrom('a', 'Z', 'ß', 'ǅ', 'İ', 'ﬀ', '😀', '\x7f', ' '), maxLength: 40 }), fc.boolean()])('map as one code point at a time did, ASCII or not (law)', (s, up) => {
    expect(Builtins.mapCase(s, up)).toBe(each(s, up))
  })
})

describe('matches within the budget', () => {
  it('meters the states a match visits, and stops past the limit it is given', () => {
    const re = Re2.compileRegex('(.*){100}b')
    if (re._tag === 'Left') throw new Error(re.left)
    Re2.meter.limit = 50_000
    try {
      expect(() => re.right.test('a'.repeat(1000))).toThrow(Re2.Exhausted)
    } finally {
      Re2.meter.limit = Number.POSITIVE_INFINITY
      Re2.meter.done = 0
    }
    expect(re.right.test('a'.repeat(1000))).toBe(false)
    expect(Re2.meter.limit).toBe(Number.POSITIVE_INFINITY)
  })

  it('stops a match of a large automaton over a long text at the work limit, and leaves later ones unbounded', () => {
    // seven comparisons of two 16 Mi texts use most of the budget first, so that the match passes the rest soon
    const data = { s: 'a'.repeat(200_000), t: 'x'.repeat(16 * 1024 * 1024) }
    expect(refusal('count(1..7, Data.t == Data.t) > 0 && Data.s matches "(.*){1000}b"', data)).toMatch(`more than the limit of ${Budget.maxWork} units of work`)
    expect(Re2.meter.limit).toBe(Number.POSITIVE_INFINITY)
    expect(value('Data.s matches "^a+$"', { s: 'a'.repeat(200_000) })).toBe(true)
  })
})
