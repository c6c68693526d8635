// Bytes: a content's bytes with their sha256 and size, made from bytes or from text (UTF-8).
//
// Invariants: `sha256` is the hex sha256 of `data`, and `size` is `data.length`. Bytes of text are
// encoded only when `data` is first read: most contents are only compared by their digest and
// size (an unchanged file of a plan), and a large manifest has one per resource.
import * as Digest from './Digest.js'

// model

export interface Bytes {
  readonly data: Uint8Array
  readonly sha256: string
  readonly size: number
}

// constructors

/** The bytes of an empty file (its digest written out, so that loading this module hashes nothing). */
export const empty: Bytes = Object.freeze({ data: new Uint8Array(0), sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', size: 0 })

/** Bytes as they are. */
export const of = (data: Uint8Array): Bytes => ({ data, sha256: Digest.sha256(data), size: data.length })

const encoder = new TextEncoder()

/**
 * The bytes of a text: `data` is encoded when first read, then kept. A class, so that its getter is
 * its prototype's: an object literal with a getter of its own gets a shape of its own, and a large
 * manifest makes one of these per resource (about 1.3 µs each, cold). A copy made by spreading
 * one (`{ ...b }`) or as JSON has no `data`: pass the object itself (every consumer does).
 */
class TextBytes implements Bytes {
  readonly #text: string
  #data: Uint8Array | undefined
  readonly sha256: string
  readonly size: number
  constructor(text: string) {
    this.#text = text
    this.sha256 = Digest.sha256(text)
    this.size = utf8Length(text)
  }
  get data(): Uint8Array {
    return (this.#data ??= encoder.encode(this.#text))
  }
}

/**
 * The UTF-8 bytes of a text, as TextEncoder gives them (a lone surrogate is U+FFFD), hashed from the
 * text itself; `data` is encoded when first read and then kept.
 */
export const ofText = (text: string): Bytes => new TextBytes(text)

// interop

/** Characters of more than one UTF-8 byte (one regular-expression scan finds the first, or says there is none). */
// eslint-disable-next-line no-control-regex
const beyondAscii = /[^\u0000-\u007f]/

/** How many bytes TextEncoder makes of a text: 1 to 3 per UTF-16 unit, 4 per surrogate pair, 3 for a lone surrogate (U+FFFD). */
export const utf8Length = (text: string): number => {
  // most contents are ASCII: a byte a character, told without a loop over them in JavaScript
  if (!beyondAscii.test(text)) return text.length
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}
