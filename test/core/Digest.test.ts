import { createHash } from 'node:crypto'
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Digest from '../../src/core/Digest.js'

/** The first implementation, kept as the reference: sorted copy, then JSON.stringify. */
const referenceSortKeys = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(referenceSortKeys)
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k]
      if (x !== undefined) out[k] = referenceSortKeys(x)
    }
    return out
  }
  return v
}
const reference = (v: unknown): string => JSON.stringify(referenceSortKeys(v))

/** JSON-like values with the awkward parts: undefined fields, integer-like keys, holes, -0. */
const awkward = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.constantFrom(undefined, -0, NaN, Infinity, 1e21, '\u2028', '"\\'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('0', '10', '9', '01', '-1', '4294967295', '4294967294', 'a', 'B')), tie('value'), { maxKeys: 5 }),
    fc.array(tie('value'), { maxLength: 3 }).map((xs) => {
      const sparse = [...xs]
      sparse.length += 2
      return sparse
    }),
  ),
})).value

describe('Digest', () => {
  it('hashes bytes and text alike', () => {
    expect(Digest.sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(Digest.sha256(new TextEncoder().encode('abc'))).toBe(Digest.sha256('abc'))
  })

  fcTest.prop([fc.oneof(fc.string(), fc.uint8Array())])('hashes as a sha256 Hash object does', (data) => {
    expect(Digest.sha256(data)).toBe(createHash('sha256').update(data).digest('hex'))
  })

  fcTest.prop([fc.dictionary(fc.string(), fc.jsonValue())])('canonical form ignores key order', (o) => {
    const reversed = Object.fromEntries(Object.entries(o).reverse())
    expect(Digest.canonical(reversed)).toBe(Digest.canonical(o))
    expect(Digest.ofValue(reversed)).toBe(Digest.ofValue(o))
  })

  fcTest.prop([awkward], { numRuns: 500 })('canonical form is byte for byte the sorted-copy JSON of the first version', (v) => {
    expect(Digest.canonical(v)).toBe(reference(v))
  })
})
