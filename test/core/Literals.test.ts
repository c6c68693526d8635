// Literals: the occurrences of a set of literal strings in a text, found as a regular expression of
// them all, longest first, finds them (the redactor's model before this module: leftmost match,
// the longest at that position, then on after it), in time linear in the text and the set, and for
// sets a regular expression cannot hold at all.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Literals from '../../src/core/Literals.js'

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The model: one regular expression of the non-empty values, longest first (then in code-unit order). */
const model = (values: ReadonlyArray<string>, text: string, by: (v: string) => string): string => {
  const sorted = [...new Set(values.filter((v) => v !== ''))].sort((x, y) => y.length - x.length || (x < y ? -1 : 1))
  return sorted.length === 0 ? text : text.replace(new RegExp(sorted.map(escape).join('|'), 'g'), by)
}

const by = (v: string): string => `<${v.length}:${v}>`

/** Strings over a few letters (so that values overlap, nest and share prefixes and suffixes), a surrogate half among them. */
const small = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '\ud83d'), maxLength: 8 })

describe('Literals', () => {
  /** The text with the automaton's matches replaced (whatever `replace` itself would use). */
  const byMatches = (l: Literals.Literals, text: string): string => {
    let out = ''
    let from = 0
    for (const m of Literals.matches(l, text)) {
      out += text.slice(from, m.at) + by(text.slice(m.at, m.at + m.length))
      from = m.at + m.length
    }
    return out + text.slice(from)
  }

  const texts = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.', '\ud83d', '\ude00', 'x'), maxLength: 60 })

  test.prop([fc.array(small, { maxLength: 12 }), texts])('the automaton matches what the regular expression of the values, longest first, matches', (values, text) => {
    const l = Literals.compile(values)
    expect(l === undefined ? text : byMatches(l, text)).toBe(model(values, text, by))
  })

  test.prop([fc.array(small, { maxLength: 48 }), texts])('replaces as that expression does, with few values or many', (values, text) => {
    const l = Literals.compile(values)
    expect(l === undefined ? text : Literals.replace(l, text, by)).toBe(model(values, text, by))
  })

  /** Text over regular-expression syntax, a letter and a surrogate half: every character regExpSource must escape, and some it must not. */
  const syntax = fc.string({ unit: fc.constantFrom(...'.*+?^${}()|[]\\/-a\ud83d'.split('')), maxLength: 12 })

  test.prop([syntax, syntax])('regExpSource matches exactly the text it was made of, where indexOf finds it', (literal, text) => {
    fc.pre(literal !== '')
    const found: number[] = []
    for (let i = text.indexOf(literal); i >= 0; i = text.indexOf(literal, i + literal.length)) found.push(i)
    expect([...text.matchAll(new RegExp(Literals.regExpSource(literal), 'g'))].map((m) => m.index)).toEqual(found)
    expect(new RegExp(`^${Literals.regExpSource(literal)}$`).test(literal)).toBe(true)
  })

  test.prop([fc.array(small, { maxLength: 12 }), fc.array(texts, { maxLength: 30 })])('finder tells whether a text holds a value, before and after it compiles them, as includes does', (values, asked) => {
    const found = Literals.finder(values) // one finder asked text after text: it compiles once searching value by value has cost enough
    expect(asked.map(found)).toEqual(asked.map((t) => values.some((v) => v !== '' && t.includes(v))))
  })

  it('keeps a regular expression only for a few short values', () => {
    expect(Literals.compile(['a', 'bc'])!.pattern).toBeDefined()
    expect(Literals.compile(Array.from({ length: Literals.fewLiterals + 1 }, (_, i) => `v${i}`))!.pattern).toBeUndefined()
    expect(Literals.compile(['x'.repeat(Literals.fewUnits)])!.pattern).toBeUndefined()
  })

  test.prop([fc.array(small, { minLength: 1, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.'), maxLength: 60 })])(
    'gives matches in order, apart, each one of the values, each the longest value starting there',
    (values, text) => {
      const l = Literals.compile(values)
      if (l === undefined) return
      const set = new Set(values)
      let after = 0
      for (const m of Literals.matches(l, text)) {
        expect(m.at).toBeGreaterThanOrEqual(after)
        const found = text.slice(m.at, m.at + m.length)
        expect(set.has(found)).toBe(true)
        expect(values.some((v) => v.length > m.length && text.startsWith(v, m.at))).toBe(false)
        after = m.at + m.length
      }
    },
  )

  it('ignores empty values and duplicates, and has nothing to compile without a non-empty one', () => {
    expect(Literals.compile([])).toBeUndefined()
    expect(Literals.compile(['', ''])).toBeUndefined()
    expect(Literals.compile(['ab', '', 'ab', 'c'])?.size).toBe(2)
  })

  it('gives the same string back when nothing matches', () => {
    const text = 'nothing secret here'.repeat(3)
    expect(Literals.replace(Literals.compile(['hunter2'])!, text, by)).toBe(text)
  })

  it('takes the leftmost match, then the longest there, and goes on after it', () => {
    const l = Literals.compile(['bc', 'abcd', 'ab', 'cde'])!
    expect(Literals.replace(l, 'xabcdex abcx bcde', (v) => `[${v}]`)).toBe('x[abcd]ex [ab]cx [bc]de')
  })

  it('holds a set no regular expression can: the lines and escapes of a 3,000-line bundle', () => {
    // A certificate bundle as one secret gives thousands of values (each line, and each whole and line escaped), which V8 refuses as one expression.
    const lines = Array.from({ length: 3000 }, (_, i) => `${i.toString(36).padStart(4, '0')}${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx'.slice(i % 7)}${(i * 7919).toString(16)}`)
    const bundle = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
    const values = [bundle, JSON.stringify(bundle).slice(1, -1), ...lines, '-----BEGIN CERTIFICATE-----', '-----END CERTIFICATE-----']
    expect(() => 'x'.replace(new RegExp(values.map(escape).join('|'), 'g'), '')).toThrow(/too large/)
    const l = Literals.compile(values)!
    expect(l.size).toBe(values.length)
    const text = `{"data":${JSON.stringify(bundle)},"line":"x ${lines[1234]} y","other":"${bundle.slice(0, 40)}"}`
    const out = Literals.replace(l, text, (v) => `⟦${v.length}⟧`)
    expect(out).toBe(`{"data":"⟦${JSON.stringify(bundle).length - 2}⟧","line":"x ⟦${lines[1234]!.length}⟧ y","other":"⟦27⟧\n${bundle.slice(28, 40)}"}`)
  })
})
