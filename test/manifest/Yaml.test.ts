import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Yaml from '../../src/manifest/Yaml.js'

describe('Yaml.parse', () => {
  it('keeps positions and the source spelling of plain scalars', () => {
    const r = Yaml.parse('m.yaml', 'a:\n  mode: 0644\n  v: 1.10\n  q: "0644"\n')
    expect(E.isRight(r)).toBe(true)
    if (E.isLeft(r) || r.right._tag !== 'Map') return
    const a = r.right.entries[0]!.value
    if (a._tag !== 'Map') throw new Error('expected a map')
    const [mode, v, q] = a.entries
    expect(mode!.value).toMatchObject({ _tag: 'Scalar', text: '0644', quoted: false, at: { file: 'm.yaml', line: 2, col: 9 } })
    expect(v!.value).toMatchObject({ text: '1.10' })
    expect(q!.value).toMatchObject({ text: '0644', quoted: true })
    expect(mode!.keyAt).toEqual({ file: 'm.yaml', line: 2, col: 3 })
  })

  it('reports syntax errors with a position', () => {
    const r = Yaml.parse('m.yaml', 'a: [1, 2\nb: c\n')
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left[0]!.code).toBe('Syntax')
    expect(r.left[0]!.at?.file).toBe('m.yaml')
    expect(r.left[0]!.at?.line).toBeGreaterThan(0)
  })

  it('refuses duplicate keys, each at the repeated key (after an empty value too)', () => {
    const r = Yaml.parse('m.yaml', 'a: 1\na: 2\n')
    expect(E.isLeft(r)).toBe(true)
    // anchors make the library read it, not the block reader
    const cases: ReadonlyArray<[string, number, number]> = [
      ['x: &x 1\na: 1\na: 2\n', 3, 1],
      ['x: &x 1\na:\na:\n', 3, 1], // the library's own check said 2:3, the end of the line before
      ['x: &x 1\nm: {b: 1, b: 2}\n', 2, 11],
    ]
    for (const [text, line, col] of cases) {
      const lib = Yaml.parse('m.yaml', text)
      if (E.isRight(lib)) throw new Error(`accepted ${text}`)
      expect(lib.left.map((d) => [d.message, d.at?.line, d.at?.col])).toEqual([['Map keys must be unique', line, col]])
    }
  })

  it('refuses an alias bomb', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 8; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`)
    const r = Yaml.parse('bomb.yaml', lines.join('\n') + '\n')
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left[0]!.message).toMatch(/alias expansions/)
  })

  it('resolves ordinary aliases', () => {
    const r = Yaml.parse('m.yaml', 'd: &d {owner: root}\ne: *d\n')
    expect(E.isRight(r)).toBe(true)
  })
})

describe('Node.toJS', () => {
  it('keeps a key named __proto__ as a key, never as the prototype', async () => {
    const Node = await import('../../src/manifest/Node.js')
    const t = Yaml.parse('m.yaml', 'a:\n  __proto__:\n    polluted: true\n')
    if (E.isLeft(t)) throw new Error('parse')
    const v = Node.toJS(t.right) as { a: Record<string, unknown> }
    expect(Object.keys(v.a)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(v.a)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})
