// The block-subset reader's cursor and quoted scalars, on their own: the line walk, the table of
// repeated strings and the stacks give back exactly the text's own pieces, and the quoted scalars
// decode what JSON and YAML escaping wrote. Then the reader on collections wider and deeper than
// YamlBlock.test.ts generates, where the members of nested collections share the cursor's stacks.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Yaml from '../../src/manifest/Yaml.js'
import * as Cursor from '../../src/manifest/YamlCursor.js'
import * as Quoted from '../../src/manifest/YamlQuoted.js'

/** Texts of a few lines, made of characters that collide often in the table of strings. */
const lines = fc.array(fc.stringMatching(/^[ab :#"'\\-]{0,12}$/), { minLength: 1, maxLength: 8 }).map((ls) => ls.join('\n'))

describe('YamlCursor', () => {
  fcTest.prop([lines])('walks the lines of a text with their numbers', (text) => {
    const c = Cursor.make('m.yaml', text)
    const seen: string[] = []
    while (!c.eof) {
      expect(c.ln).toBe(seen.length + 1)
      seen.push(text.slice(c.ls, c.le))
      Cursor.nextLine(c)
    }
    expect(seen).toStrictEqual(text.split('\n'))
  })

  fcTest.prop([fc.string({ unit: fc.integer({ min: 32, max: 126 }).map((c) => String.fromCharCode(c)), maxLength: 48 }), fc.boolean()])(
    'word reads the same text as a slice, however often that text repeats and whatever was read before',
    (text, backwards) => {
      // every piece of the text, so that pieces meet in one slot of the table: equal ones, and
      // ones of other lengths that start alike
      const c = Cursor.make('m.yaml', text)
      for (let round = 0; round < 2; round++)
        for (let from = 0; from <= text.length; from++)
          for (let to = from; to <= text.length && to - from <= 30; to++) {
            const [f, t] = backwards ? [text.length - to, text.length - from] : [from, to]
            expect(Cursor.word(c, f, t)).toBe(text.slice(f, t))
          }
    },
  )

  fcTest.prop([fc.array(fc.nat()), fc.array(fc.nat()), fc.array(fc.nat())])('take gives back what was pushed above a base, and leaves what is below it', (below, a, b) => {
    const stack = [...below]
    const base = stack.length
    stack.push(...a)
    const inner = stack.length
    stack.push(...b)
    expect(Cursor.take(stack, inner)).toStrictEqual(b)
    expect(Cursor.take(stack, base)).toStrictEqual(a)
    expect(stack).toStrictEqual(below)
  })

  it('gives a position by line and column, 1-based', () => {
    const c = Cursor.make('m.yaml', 'a: 1\n  b: 2\n')
    Cursor.nextLine(c)
    expect(Cursor.at(c, c.ls + 2)).toStrictEqual({ file: 'm.yaml', line: 2, col: 3 })
  })
})

/** Reads the quoted scalars written one after another on one line (with `, ` between them), as YamlQuoted does in a flow list. */
const readAll = (line: string, count: number): string[] => {
  const c = Cursor.make('m.yaml', line)
  const out: string[] = []
  let p = 0
  for (let k = 0; k < count; k++) {
    Quoted.quoted(c, p)
    out.push(c.qValue)
    p = c.qEnd + 2
  }
  expect(c.qEnd).toBe(line.length)
  return out
}

/** YAML's escapes of a character: every form a double-quoted scalar may spell it in. */
const yamlEscapes = (ch: string): string[] => {
  const code = ch.codePointAt(0)!
  const hex = (n: number, w: number): string => n.toString(16).padStart(w, '0')
  const named: Record<string, string> = { '\0': '\\0', '\x07': '\\a', '\b': '\\b', '\x1b': '\\e', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\u0085': '\\N', '\u00a0': '\\_', '\u2028': '\\L', '\u2029': '\\P', ' ': '\\ ', '"': '\\"', '/': '\\/', '\\': '\\\\' }
  const forms = [`\\U${hex(code, 8)}`]
  if (code <= 0xffff) forms.push(`\\u${hex(code, 4)}`)
  if (code <= 0xff) forms.push(`\\x${hex(code, 2)}`)
  if (named[ch] !== undefined) forms.push(named[ch])
  if (ch !== '"' && ch !== '\\' && code >= 0x20 && code !== 0x85 && code !== 0x2028 && code !== 0x2029) forms.push(ch)
  return forms
}

const someText = fc.string({ unit: fc.oneof(fc.constantFrom('a', ' ', '"', "'", '\\', '/', '\n', '\t', 'é', '😀', '\u2028', '#', ':'), fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp))), maxLength: 12 })

describe('YamlQuoted', () => {
  fcTest.prop([fc.array(someText, { minLength: 1, maxLength: 4 })])('reads back what JSON.stringify wrote, one scalar after another', (values) => {
    expect(readAll(values.map((v) => JSON.stringify(v)).join(', '), values.length)).toStrictEqual(values)
  })

  fcTest.prop([fc.array(fc.array(fc.tuple(fc.constantFrom(...'ab"\\\n\t\u0085\u2028 /é😀\0'.match(/./gsu)!), fc.nat()), { maxLength: 8 }), { minLength: 1, maxLength: 3 })])(
    'reads back any mix of YAML escapes',
    (scalars) => {
      const values = scalars.map((chars) => chars.map(([ch]) => ch).join(''))
      const written = scalars.map((chars) => `"${chars.map(([ch, pick]) => { const forms = yamlEscapes(ch); return forms[pick % forms.length]! }).join('')}"`)
      expect(readAll(written.join(', '), values.length)).toStrictEqual(values)
    },
  )

  fcTest.prop([fc.array(someText.filter((s) => !s.includes('\n')), { minLength: 1, maxLength: 4 })])('reads back single-quoted scalars with doubled quotes', (values) => {
    expect(readAll(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '), values.length)).toStrictEqual(values)
  })

  it.each([
    ['an unclosed scalar', '"abc'],
    ['a scalar that goes on to the next line', '"ab\ncd"'],
    ['an escaped final quote', '"ab\\"'],
    ['an unknown escape', '"a\\qb"'],
    ['a short hex escape', '"\\x4"'],
    ['a code point beyond Unicode', '"\\U00110000"'],
    ['an unclosed single-quoted scalar', "'it''s"],
  ])('leaves %s to the library', (_, t) => {
    let thrown: unknown
    try {
      Quoted.quoted(Cursor.make('m.yaml', t), 0)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBe(Cursor.outside)
  })
})

// ---------------------------------------------------------------- wide and nested collections

/** Checks that the block reader answers, and answers what the library does. */
const readsAsLibrary = (text: string): void => {
  const fast = Yaml.block('m.yaml', text)
  expect(fast, text).toBeDefined()
  expect(fast).toStrictEqual(E.getOrElseW(() => undefined)(Yaml.library('m.yaml', text)))
}

/** A block map or list of up to `width` members, nested `depth` deep, each member unique by its index. */
const wide = (depth: number, width: number): fc.Arbitrary<string[]> =>
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: width }), fc.array(fc.nat({ max: 3 }), { minLength: width, maxLength: width })).chain(([isMap, n, kinds]) => {
    const members = kinds.slice(0, n).map((kind, i) => {
      const head = isMap ? `k${i}:` : '-'
      if (depth === 0 || kind === 0) return fc.constant([`${head} v${i}`])
      if (kind === 1) return fc.constant([`${head} {a${i}: 1, b: [x, "y"]}`])
      return wide(depth - 1, width).map((inner) => [head, ...inner.map((l) => `  ${l}`)])
    })
    return fc.tuple(...members).map((ls) => ls.flat())
  })

describe('YamlBlock on wide and nested collections', () => {
  fcTest.prop([wide(2, 20)], { numRuns: 100 })('reads each collection with exactly its own members, however they nest', (lines) => {
    readsAsLibrary(lines.join('\n') + '\n')
  })

  it('reads a map with more keys than it compares one by one, and a long flow map', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `key${i}: ${i}`)
    readsAsLibrary(keys.join('\n') + '\n')
    readsAsLibrary(`a: {${Array.from({ length: 60 }, (_, i) => `k${i}: ${i}`).join(', ')}}\n`)
  })

  it.each([
    ['a late duplicate in a long map', [...Array.from({ length: 30 }, (_, i) => `key${i}: ${i}`), 'key7: again'].join('\n') + '\n'],
    ['a late duplicate of the first key of a long nested map', ['a:', ...Array.from({ length: 30 }, (_, i) => `  key${i}: ${i}`), '  key0: again'].join('\n') + '\n'],
    ['a duplicate in a long flow map', `a: {${Array.from({ length: 20 }, (_, i) => `k${i}: ${i}`).join(', ')}, k3: again}\n`],
    ['a flow map longer than the reader compares', `a: {${Array.from({ length: 70 }, (_, i) => `k${i}: ${i}`).join(', ')}}\n`],
  ])('leaves %s to the library', (_, text) => {
    expect(Yaml.block('m.yaml', text)).toBeUndefined()
    expect(Yaml.parse('m.yaml', text)).toStrictEqual(Yaml.library('m.yaml', text))
  })
})
