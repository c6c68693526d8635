// The NFA in typed arrays: on the part of the syntax where Go and JavaScript agree (literals, a
// few classes, ., groups, alternation, every repetition, ^ $ \b), a pattern matches the strings
// JavaScript's RegExp says it matches, and a pattern of Go's largest size compiles compactly.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compileRegex } from '../../src/re2/Re2.js'

// Patterns over a, b and newline, small enough that a backtracking engine answers quickly.
const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\w', '\\n', '^', '$', '\\b', '\\B') },
    { weight: 1, arbitrary: tie('re').map((r) => `(?:${r})`) },
    { weight: 1, arbitrary: tie('re').map((r) => `(${r})`) },
  ),
  re: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('atom'),
    fc.tuple(tie('atom'), fc.constantFrom('*', '+', '?', '*?', '+?', '{2}', '{0,2}', '{1,}', '{2,3}', '{0}')).map(([a, op]) => `(?:${a})${op}`),
    fc.array(tie('atom'), { minLength: 2, maxLength: 4 }).map((as) => as.join('')),
    fc.array(tie('re'), { minLength: 2, maxLength: 3 }).map((rs) => rs.join('|')),
  ),
})).re

const text = fc.array(fc.constantFrom('a', 'b', '\n', 'c'), { maxLength: 8 }).map((cs) => cs.join(''))

describe('compileRegex (the NFA)', () => {
  fcTest.prop([pattern, fc.array(text, { minLength: 1, maxLength: 6 })], { numRuns: 500 })(
    'matches where JavaScript matches, on the syntax both read the same',
    (p, texts) => {
      const re = compileRegex(p)
      if (E.isLeft(re)) throw new Error(`${p}: ${re.left}`)
      const js = new RegExp(p)
      for (const s of texts) expect({ p, s, match: re.right.test(s) }).toEqual({ p, s, match: js.test(s) })
    },
  )

  it('nests repetitions without doubling the states at each level', () => {
    const p = '('.repeat(40) + 'a+' + ')+'.repeat(40)
    const re = compileRegex(p)
    if (E.isLeft(re)) throw new Error(re.left)
    expect(re.right.size).toBeLessThan(100)
    expect(re.right.test('xaaay')).toBe(true)
    expect(re.right.test('xy')).toBe(false)
  })

  it('compiles a pattern of 3.2 million states and matches with it', () => {
    const re = compileRegex('a{1000}'.repeat(3200) + 'b')
    if (E.isLeft(re)) throw new Error(re.left)
    expect(re.right.size).toBe(3_200_002)
    expect(re.right.test('aaab')).toBe(false)
  })
})
