// `matches` compiles with the RE2 engine: Go's errors, and no exponential backtracking.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Regex from '../../../src/manifest/expr/Regex.js'

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
})
