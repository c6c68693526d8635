// YamlKeys: the duplicate-key check done in one pass per map gives the errors the yaml library's
// own (`uniqueKeys: true`, a comparison of each key with every earlier one) gives: the same codes
// and messages in the same order among the document's other errors, each at the repeated key.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as Y from 'yaml'
import { describe, expect, it } from 'vitest'
import * as YamlKeys from '../../src/manifest/YamlKeys.js'

const errorsOf = (doc: Y.Document.Parsed): ReadonlyArray<[string, number, number, string]> => doc.errors.map((e) => [e.code, e.pos[0], e.pos[1], e.message])
const library = (text: string) => Y.parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false })
const linear = (text: string) => Y.parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false })

const key = fc.constantFrom('a', 'b', '"a"', "'a'", '1', '"1"', '01', '0x1', '.nan', '.NaN', '~', 'null', '""', 'true', '&x a', '!!str a', '!!int 1', '*x', '? a', '[a]', '{a: 1}', '-0', '0', '1.0')
const scalar = fc.constantFrom('', ' 1', ' a', ' "x"', ' [1, 2]', ' {a: 1, a: 2}', ' {a: 1, b: 2}', ' &x v', ' *x', ' !!str 3', ' |', ' ]', '\t1')
/** A line of a document: an indented key with a value, a list item, a document marker, or garbage. */
const lineOf = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom('', '  ', '    '), key, scalar).map(([ind, k, v]) => `${ind}${k}:${v}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', '  '), key).map(([ind, k]) => `${ind}- ${k}: 1`) },
  { weight: 1, arbitrary: fc.constantFrom('---', '  x', '- a', '# c', ': v', '"a": 1', 'a:\n  a: 1\n  a: 2', '? b\n: 1') },
)

describe('YamlKeys', () => {
  fcTest.prop([fc.array(lineOf, { maxLength: 14 })], { numRuns: 400 })(
    'gives the errors the library gives with uniqueKeys, a repeated key placed at the key itself',
    (lines) => {
      const text = lines.join('\n') + '\n'
      const want = library(text).map(errorsOf)
      const got = linear(text).map((d) => errorsOf(YamlKeys.checkUnique(d)))
      const named = (es: ReadonlyArray<[string, number, number, string]>): string[] => es.map(([code, , , message]) => `${code}: ${message}`)
      expect(got.length).toBe(want.length)
      got.forEach((es, d) => {
        // in a document that is otherwise broken, the library's place for a repeat is wherever its
        // recovery put the tokens before the key, and errors at one place come in the order it met
        // them: the same errors are given there, in an order of their places
        if (es.some(([code]) => code !== 'DUPLICATE_KEY')) {
          expect(named(es).sort()).toEqual(named(want[d]!).sort())
          return
        }
        expect(named(es)).toEqual(named(want[d]!))
        es.forEach(([, pos], i) => {
          // the library's place is where the key's own tokens start: after the previous value, so
          // after an empty value the end of its line; only blanks and line breaks lie between
          const theirs = want[d]![i]![1]
          expect(text.slice(theirs, pos)).toMatch(/^\s*$/)
        })
      })
    },
  )

  fcTest.prop([fc.array(lineOf, { maxLength: 14 })], { numRuns: 300 })('parse gives what YAML.parse gives, a value or the first error in the text', (lines) => {
    const text = lines.join('\n') + '\n'
    const attempt = (f: () => unknown): { value: unknown } | { error: string } => {
      try {
        return { value: f() }
      } catch (e) {
        return { error: (e as Error).message.split('\n')[0]! }
      }
    }
    const theirs = attempt(() => Y.parse(text, { maxAliasCount: 100, logLevel: 'error' }))
    const ours = attempt(() => YamlKeys.parse(text, 100))
    if ('value' in theirs) expect(ours).toEqual(theirs)
    else expect(ours).toMatchObject({ error: expect.any(String) })
  })

  it('parse throws a repeated key as YAML.parse does, with its line and column', () => {
    expect(() => YamlKeys.parse('a: 1\nb:\n  c: 1\n  c: 2\n', 100)).toThrow(/^Map keys must be unique at line 4, column 3$/)
    expect(() => Y.parse('a: 1\nb:\n  c: 1\n  c: 2\n')).toThrow(/^Map keys must be unique at line 4, column 3/)
    expect(YamlKeys.parse('a: &x [1]\nb: *x\n', 100)).toEqual({ a: [1], b: [1] })
  })

  it('finds a repeated key in a block map, a flow map and a nested map, each at the repeated key', () => {
    const text = 'a: 1\nb: {x: 1, x: 2}\nc:\n  y: 1\n  y: 2\na: 3\n'
    const [doc] = linear(text)
    expect(errorsOf(YamlKeys.checkUnique(doc!))).toEqual([
      ['DUPLICATE_KEY', text.indexOf('x: 2'), text.indexOf('x: 2') + 1, 'Map keys must be unique'],
      ['DUPLICATE_KEY', text.indexOf('y: 2'), text.indexOf('y: 2') + 1, 'Map keys must be unique'],
      ['DUPLICATE_KEY', text.indexOf('a: 3'), text.indexOf('a: 3') + 1, 'Map keys must be unique'],
    ])
  })

  it('tells keys apart as the library does: by value, with 1 and "1" different and NaN never equal', () => {
    expect(YamlKeys.duplicates(linear('1: a\n"1": b\n.nan: c\n.nan: d\n')[0]!)).toEqual([])
    expect(YamlKeys.duplicates(linear('1: a\n0x1: b\n"a": c\na: d\n')[0]!).map((e) => e.pos[0])).toEqual([5, 19])
  })

  it("checks a map of 30,000 keys (11 s for 20,000 by the library's own check) and finds its one repeat", () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `k${i}: ${i}`)
    lines.push('k0: again')
    const text = lines.join('\n') + '\n'
    const [doc] = linear(text)
    expect(errorsOf(YamlKeys.checkUnique(doc!))).toEqual([['DUPLICATE_KEY', text.lastIndexOf('k0: again'), text.lastIndexOf('k0: again') + 1, 'Map keys must be unique']])
  })
})
