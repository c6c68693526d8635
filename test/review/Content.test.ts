// Content: a changed text is a unified diff, or for YAML and JSON the difference of its data, so
// that a change of formatting only is never reported as a change.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Y from 'yaml'
import * as Content from '../../src/review/Content.js'
import * as Structure from '../../src/review/Structure.js'
import { json } from './arbitraries.js'

const labels = { from: 'main:file#/etc/x', to: 'HEAD:file#/etc/x' }

/** The same data written two ways: keys in another order, other indentation. */
const reordered = (v: Structure.Json): Structure.Json =>
  Array.isArray(v) ? v.map(reordered) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)])) : v

const document = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), json, { minKeys: 1, maxKeys: 6 })

describe('Content.compare', () => {
  test.prop([document])('a JSON document rewritten with other indentation and key order is formatting only', (d) => {
    const before = JSON.stringify(d)
    const after = JSON.stringify(reordered(d), null, 4) + '\n'
    fc.pre(before !== after)
    expect(Content.compare('/etc/app.json', before, after, labels)).toEqual({ _tag: 'Formatting', format: 'json' })
  })

  test.prop([document])('a YAML document rewritten in flow style, reordered and with a comment is formatting only', (d) => {
    const before = Y.stringify(d)
    const after = `# managed by plait\n${Y.stringify(reordered(d), { collectionStyle: 'flow' })}`
    expect(Content.compare('/etc/app.yaml', before, after, labels)).toEqual({ _tag: 'Formatting', format: 'yaml' })
  })

  it('shows a YAML change of data path by path', () => {
    const c = Content.compare('/etc/app.yml', 'server:\n  port: 80\n  tls: false\n', 'server: {port: 443, tls: false, name: web}\n', labels)
    expect(c._tag).toBe('Structured')
    if (c._tag !== 'Structured') return
    expect(c.changes.map((p) => [Structure.pathText(p.path), p.before, p.after])).toEqual([
      ['[0].server.name', undefined, 'web'],
      ['[0].server.port', 80, 443],
    ])
  })

  it('diffs other text line by line, with ---/+++ headers and hunks', () => {
    const c = Content.compare('/etc/app.conf', 'a\nport = 80\nc\n', 'a\nport = 443\nc\n', labels)
    expect(c).toEqual({ _tag: 'Text', lines: ['--- main:file#/etc/x', '+++ HEAD:file#/etc/x', '@@ -1,3 +1,3 @@', ' a', '-port = 80', '+port = 443', ' c'] })
  })

  it('diffs a .json file that is not valid JSON line by line', () => {
    expect(Content.compare('/etc/x.json', '{"a":\n', '{"a": 1\n', labels)._tag).toBe('Text')
  })

  it('recognises JSON by its shape when the name says nothing', () => {
    expect(Content.compare('/etc/x', '{"a":1}', '{ "a": 1 }', labels)).toEqual({ _tag: 'Formatting', format: 'json' })
  })

  it('gives only the sizes of texts too large to diff', () => {
    const big = 'x'.repeat(Content.diffLimit + 1)
    expect(Content.compare('/etc/x', big, 'y', labels)).toEqual({ _tag: 'Opaque', before: big.length, after: 1 })
  })

  it('diffs a YAML document with a repeated key as text: neither of its values is its data', () => {
    expect(Content.parse('yaml', 'a: 1\nb: 2\na: 3\n')).toBeUndefined()
    expect(Content.compare('/etc/x.yaml', 'a: 1\na: 2\n', 'a: 1\n', labels)._tag).toBe('Text')
  })

  it("compares YAML data files of 30,000 keys as data (the library's own check of unique keys took 11 s at 20,000)", () => {
    const data = (v: number): string => Array.from({ length: 30_000 }, (_, i) => `k${i}: ${i === 7 ? v : i}\n`).join('')
    const c = Content.compare('/etc/x.yaml', data(1), data(2), labels)
    expect(c._tag === 'Structured' ? c.changes.map((x) => [Structure.pathText(x.path), x.before, x.after]) : c).toEqual([['[0].k7', 1, 2]])
  })

  it('refuses a YAML document with a billion laughs as data (too many aliases): diffed as text', () => {
    const bomb = 'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n'
    expect(Content.compare('/etc/x.yaml', bomb, bomb + 'e: 1\n', labels)._tag).toBe('Text')
  })
})

describe('Content.compare of large texts, kept once worked out', () => {
  const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i) + '\n').join('')
  const before = lines(8_000, (i) => `line ${i} of a large configuration file`)
  const after = lines(8_000, (i) => (i % 1_000 === 7 ? `changed ${i}` : `line ${i} of a large configuration file`))

  it('gives the same change for the same pair again, its labels and format as asked each time', () => {
    const first = Content.compare('/etc/big.conf', before, after, { from: 'v1:file#/etc/big.conf', to: 'v2:file#/etc/big.conf' })
    const again = Content.compare('/etc/big.conf', before, after, { from: 'v1:file#/etc/big.conf', to: 'v2:file#/etc/big.conf' })
    expect(again).toEqual(first)
    expect(first._tag === 'Text' && first.lines.slice(0, 2)).toEqual(['--- v1:file#/etc/big.conf', '+++ v2:file#/etc/big.conf'])
    const relabelled = Content.compare('/etc/big.conf', before, after, { from: 'main:file#/etc/big.conf', to: 'next:file#/etc/big.conf' })
    expect(relabelled._tag === 'Text' && relabelled.lines[0]).toBe('--- main:file#/etc/big.conf')
    // the same texts under a name of another format are parsed as that format (here they are not JSON: a text diff)
    expect(Content.compare('/etc/big.json', before, after, { from: 'a', to: 'b' })._tag).toBe('Text')
    expect(Content.compare('/etc/other.conf', after, before, { from: 'v1:file#/etc/big.conf', to: 'v2:file#/etc/big.conf' })).not.toEqual(first)
  })
})
