// `matches` compiles with the RE2 engine: Go's errors, and no exponential backtracking. Its cache
// is bounded by the NFA states it holds, not only by the number of patterns.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Regex from '../../../src/manifest/expr/Regex.js'

// A pattern of about `thousands` thousand NFA states, different for each `tag`.
const big = (thousands: number, tag: string): string => 'a{1000}'.repeat(thousands) + tag

describe('Regex', () => {
  it('gives Go\'s own error messages', () => {
    expect(Regex.compile('(')).toEqual(E.left('error parsing regexp: missing closing ): `(`'))
    expect(Regex.compile('x**')).toEqual(E.left('error parsing regexp: invalid nested repetition operator: `**`'))
  })

  it('answers a pattern that makes a backtracking engine run for ages (it would time this test out)', () => {
    const re = Regex.compile('^(a+)+$')
    expect(E.isRight(re) && re.right.test('a'.repeat(40) + 'b')).toBe(false)
    expect(E.isRight(re) && re.right.test('a'.repeat(40))).toBe(true)
  })

  it('keeps a small pattern: compiling it again gives the same value', () => {
    const re = Regex.compile('^x[0-9]+$')
    expect(Regex.inspect('^x[0-9]+$').cached).toBe(true)
    expect(Regex.compile('^x[0-9]+$')).toBe(re)
  })

  it('compiles and uses a pattern bigger than one pattern\'s share of the cache, but does not keep it', () => {
    const p = big(1100, 'b')
    const re = Regex.compile(p)
    if (E.isLeft(re)) throw new Error(re.left)
    expect(re.right.size).toBeGreaterThan(Regex.cacheBounds.onePattern)
    expect(re.right.test('aaab')).toBe(false)
    expect(re.right.test('xb')).toBe(false)
    expect(Regex.inspect(p).cached).toBe(false)
  })

  it('holds no more states than its bound, and lets go of the least recently used pattern first', () => {
    const small = '^y$'
    Regex.compile(small)
    const bigs = ['b0', 'b1', 'b2', 'b3', 'b4'].map((tag) => big(1000, tag))
    for (const p of bigs.slice(0, 4)) Regex.compile(p)
    Regex.compile(small) // used again: now more recent than the big ones
    Regex.compile(bigs[4]!)
    expect(Regex.inspect(small).cached).toBe(true)
    expect(Regex.inspect(bigs[0]!).cached).toBe(false)
    expect(Regex.inspect(bigs[4]!).cached).toBe(true)
    expect(Regex.inspect(small).states).toBeLessThanOrEqual(Regex.cacheBounds.states)
  })
})
