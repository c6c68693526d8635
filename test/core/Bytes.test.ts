// Bytes: made from text, they are exactly TextEncoder's bytes (lone surrogates as U+FFFD), with the
// sha256 and size of those bytes, however the text is made; made from bytes, they are those bytes.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Bytes from '../../src/core/Bytes.js'
import * as Digest from '../../src/core/Digest.js'

/** Any UTF-16 text, lone surrogates included, and the characters of every UTF-8 length. */
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('a', '\u00e9', '\u20ac', '\ud83d\ude00', '\ud800', '\udc00', '\0') }))

describe('Bytes.ofText', () => {
  fcTest.prop([text])('gives the bytes TextEncoder gives, with their sha256 and size', (s) => {
    const b = Bytes.ofText(s)
    const encoded = new TextEncoder().encode(s)
    expect(b.size).toBe(encoded.length)
    expect(b.sha256).toBe(Digest.sha256(encoded))
    expect(b.data).toEqual(encoded)
    expect(Bytes.utf8Length(s)).toBe(encoded.length)
  })

  it('encodes the text once, when its bytes are first read', () => {
    const b = Bytes.ofText('x'.repeat(100))
    expect(b.data).toBe(b.data)
  })
})

describe('Bytes.of', () => {
  fcTest.prop([fc.uint8Array()])('keeps the bytes, with their sha256 and size', (data) => {
    const b = Bytes.of(data)
    expect(b).toEqual({ data, sha256: Digest.sha256(data), size: data.length })
  })
})

describe('Bytes.empty', () => {
  it('is the empty bytes with their digest', () => {
    expect(Bytes.empty).toEqual(Bytes.of(new Uint8Array(0)))
  })
})
