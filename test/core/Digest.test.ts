import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Digest from '../../src/core/Digest.js'

describe('Digest', () => {
  it('hashes bytes and text alike', () => {
    expect(Digest.sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(Digest.sha256(new TextEncoder().encode('abc'))).toBe(Digest.sha256('abc'))
  })

  fcTest.prop([fc.dictionary(fc.string(), fc.jsonValue())])('canonical form ignores key order', (o) => {
    const reversed = Object.fromEntries(Object.entries(o).reverse())
    expect(Digest.canonical(reversed)).toBe(Digest.canonical(o))
    expect(Digest.ofValue(reversed)).toBe(Digest.ofValue(o))
  })
})
