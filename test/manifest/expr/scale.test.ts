// Expressions at scale: what grew faster than its input (a hunt's findings) gives what it gave
// before, now in time linear in it. Lookup's wildcards against the old recursive matcher (kept here
// as the model); string bytes of long strings against TextEncoder; groupBy of one big group.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Expr from '../../../src/manifest/expr/Expr.js'
import * as Lookup from '../../../src/manifest/expr/Lookup.js'
import * as Value from '../../../src/manifest/expr/Value.js'

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
