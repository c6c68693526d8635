// Matcher: goss's matchers evaluated against actual values, with the laws of not/and/or and of
// the numeric comparisons, and the patterns of text attributes.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as M from '../../src/goss/Matcher.js'

const scalar: fc.Arbitrary<M.Json> = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b', 'ab', ''), fc.boolean())
const actual: fc.Arbitrary<M.Json> = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }))
const leaf: fc.Arbitrary<M.Matcher> = fc.oneof(
  scalar.map(M.equal),
  fc.tuple(fc.constantFrom<M.Compare>('lt', 'le', 'gt', 'ge'), fc.integer({ min: -5, max: 5 })).map(([op, n]) => M.compare(op, n)),
  fc.tuple(fc.constantFrom<M.Text>('have-prefix', 'have-suffix', 'contain-substring', 'match-regexp'), fc.constantFrom('a', 'b', '^a', 'b$')).map(([op, s]) => M.text(op, s)),
  fc.integer({ min: 0, max: 3 }).map((value): M.Matcher => ({ _tag: 'HaveLen', value })),
)
const matcher: fc.Arbitrary<M.Matcher> = fc.letrec<{ m: M.Matcher }>((tie) => ({
  m: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('m').map(M.not),
    fc.array(tie('m'), { maxLength: 3 }).map(M.and),
    fc.array(tie('m'), { maxLength: 3 }).map(M.or),
    tie('m').map((m): M.Matcher => ({ _tag: 'ContainElement', matcher: m })),
    fc.array(tie('m'), { maxLength: 3 }).map((ms): M.Matcher => ({ _tag: 'ConsistOf', matchers: ms })),
  ),
})).m

describe('the laws of the matchers', () => {
  it('not(not(m)) matches exactly what m matches', () => {
    fc.assert(fc.property(matcher, actual, (m, v) => M.matches(M.not(M.not(m)), v) === M.matches(m, v)))
  })
  it('and is every, or is some, and De Morgan holds', () => {
    fc.assert(
      fc.property(fc.array(matcher, { maxLength: 3 }), actual, (ms, v) => {
        expect(M.matches(M.and(ms), v)).toBe(ms.every((m) => M.matches(m, v)))
        expect(M.matches(M.or(ms), v)).toBe(ms.some((m) => M.matches(m, v)))
        expect(M.matches(M.not(M.and(ms)), v)).toBe(M.matches(M.or(ms.map(M.not)), v))
      }),
    )
  })
  it('and of nothing matches everything, or of nothing matches nothing', () => {
    fc.assert(fc.property(actual, (v) => M.matches(M.and([]), v) && !M.matches(M.or([]), v)))
  })
  it('the comparisons agree with each other on numbers: lt is not ge, le is lt or equal, gt is not le', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 100 }), fc.integer({ min: -100, max: 100 }), (a, b) => {
        expect(M.matches(M.compare('lt', b), a)).toBe(!M.matches(M.compare('ge', b), a))
        expect(M.matches(M.compare('gt', b), a)).toBe(!M.matches(M.compare('le', b), a))
        expect(M.matches(M.compare('le', b), a)).toBe(M.matches(M.compare('lt', b), a) || M.matches(M.equal(b), a))
        expect(M.matches(M.compare('lt', b), a)).toBe(a < b)
      }),
    )
  })
  it('consist-of does not depend on the order of the elements', () => {
    fc.assert(
      fc.property(fc.array(scalar, { maxLength: 4 }), (xs) => {
        const ms = xs.map(M.equal)
        const m: M.Matcher = { _tag: 'ConsistOf', matchers: ms }
        return M.matches(m, xs) && M.matches(m, [...xs].reverse()) && !M.matches(m, [...xs, 'extra'])
      }),
    )
  })
})

describe('the matchers on examples', () => {
  it.each<[string, M.Matcher, M.Json, boolean]>([
    ['equal on strings', M.equal('0644'), '0644', true],
    ['equal is not a prefix', M.equal('064'), '0644', false],
    ['equal between a number and the string spelling it', M.equal(80), '80', true],
    ['lt on a number', M.compare('lt', 500), 65534, false],
    ['a comparison of a string that is no number', M.compare('gt', 0), 'abc', false],
    ['have-prefix', M.text('have-prefix', '/bin/'), '/bin/bash', true],
    ['have-suffix', M.text('have-suffix', 'sh'), '/bin/bash', true],
    ['contain-substring', M.text('contain-substring', 'Acme'), 'Hello Acme Inc', true],
    ['match-regexp (Go syntax)', M.text('match-regexp', '^\\d+\\.\\d+$'), '2.4', true],
    ['match-regexp not matching', M.text('match-regexp', '^x'), 'y', false],
    ['contain-element', { _tag: 'ContainElement', matcher: M.equal('wheel') }, ['users', 'wheel'], true],
    ['contain-element on a missing one', { _tag: 'ContainElement', matcher: M.equal('root') }, ['users'], false],
    ['contain-elements is a subset', { _tag: 'ContainElements', matchers: [M.equal('a')] }, ['a', 'b'], true],
    ['consist-of needs the same elements', { _tag: 'ConsistOf', matchers: [M.equal('a')] }, ['a', 'b'], false],
    ['consist-of pairs elements one to one', { _tag: 'ConsistOf', matchers: [M.text('have-prefix', 'a'), M.equal('ab')] }, ['ab', 'a'], true],
    ['have-len on a list', { _tag: 'HaveLen', value: 2 }, ['a', 'b'], true],
    ['have-len on a string', { _tag: 'HaveLen', value: 3 }, 'abc', true],
  ])('%s', (_, m, v, expected) => {
    expect(M.matches(m, v)).toBe(expected)
  })
})

describe('patterns', () => {
  const text = 'found\n!alsofound\nport 8080\n'
  it('a string must be in some line, !string in none, /re/ must match some line, \\! is a literal bang', () => {
    expect(M.failedPatterns(['found', '/fou.d/', '\\!alsofound', '!missing', '!/mis.ing/', '/^port \\d+$/'], text)).toEqual([])
  })
  it('names each pattern that fails', () => {
    expect(M.failedPatterns(['missing', '!found', '/^nope/'], text)).toEqual(['missing', '!found', '/^nope/'])
  })
})

describe('render', () => {
  it('spells a matcher as goss YAML does', () => {
    expect(M.render(M.not(M.compare('lt', 500)))).toBe('{"not":{"lt":500}}')
    expect(M.render(M.equal('0644'))).toBe('"0644"')
  })
})
