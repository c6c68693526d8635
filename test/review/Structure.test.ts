// Structure: the path-level difference of two JSON values is empty exactly when they are equal as data.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Structure from '../../src/review/Structure.js'
import { json } from './arbitraries.js'

describe('Structure.diff', () => {
  test.prop([json])('of a value with itself is empty', (a) => {
    expect(Structure.diff(a, a)).toEqual([])
  })

  test.prop([json, json])('is empty exactly when the values are equal as data', (a, b) => {
    expect(Structure.diff(a, b).length === 0).toBe(Structure.equal(a, b))
  })

  test.prop([fc.dictionary(fc.string(), json)])('ignores the order of object keys', (o) => {
    const reversed = Object.fromEntries(Object.entries(o).reverse())
    expect(Structure.diff(o, reversed)).toEqual([])
    expect(Structure.canonical(o)).toBe(Structure.canonical(reversed))
  })

  it('names each changed, added and removed place by its path', () => {
    const d = Structure.diff({ a: { b: 1, c: [1, 2, 3] }, gone: true }, { a: { b: 2, c: [1, 2] }, new: 'x' })
    expect(d.map((c) => [Structure.pathText(c.path), c.before, c.after])).toEqual([
      ['a.b', 1, 2],
      ['a.c[2]', 3, undefined],
      ['gone', true, undefined],
      ['new', undefined, 'x'],
    ])
  })

  it('lists every change of an item with 130,000 changed keys (a YAML document of under 1 MiB) without overflowing the stack', () => {
    const item = (v: number): Record<string, number> => Object.fromEntries(Array.from({ length: 130_000 }, (_, i) => [`k${i}`, v]))
    const d = Structure.diff([item(1)], [item(2)])
    expect(d).toHaveLength(130_000)
    expect(d[0]).toEqual({ path: [0, 'k0'], before: 1, after: 2 })
  })

  it('draws paths with odd keys quoted and the whole value as "."', () => {
    expect(Structure.pathText(['x.y', 0, 'ok'])).toBe('["x.y"][0].ok')
    expect(Structure.pathText([])).toBe('.')
  })

  it('makes plain data of bytes, maps, undefined and non-finite numbers', () => {
    expect(Structure.plain({ b: new Uint8Array(3), m: new Map([['k', 1]]), u: undefined, n: Infinity, f: () => 1 })).toEqual({ b: '<3 bytes>', m: { k: 1 }, n: 'Infinity' })
  })
})
