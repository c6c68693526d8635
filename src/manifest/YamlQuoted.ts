// YamlQuoted: the quoted scalars of the block subset (`"..."` with YAML's escapes, `'...'` with
// `''`), each closed on the line it opens. Their value goes to the cursor's qValue, the offset after
// the closing quote to its qEnd; a scalar that goes on to the next line, or an escape YAML does not
// have, leaves the subset (the library then reads the text and words the error).
import { BACKSLASH, type Cursor, DQUOTE, outside, SQUOTE, word } from './YamlCursor.js'

/** The escapes of one character after `\` and what they stand for (`\x`, `\u`, `\U` aside). */
const escapes: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
}

/** Whether c is a hexadecimal digit. */
const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/** Whether `\` then c is an escape JSON has too, with the same meaning (`\u` when four hex digits follow at i + 1). */
const jsonEscape = (text: string, c: number, i: number): boolean =>
  c === 110 || c === DQUOTE || c === BACKSLASH || c === 116 || c === 47 || c === 114 || c === 98 || c === 102 ||
  (c === 117 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)))

/** Reads the double-quoted scalar whose `"` is at p. */
export const doubleQuoted = (c: Cursor, p: number): void => {
  const { text, le } = c
  // the quotes and backslashes are found with indexOf, not a loop over each character: most
  // double-quoted scalars have no escape (a repeated one is then one string, see `word`), or only
  // the escapes JSON has: then JSON.parse decodes them into one flat string; `decode` does the others
  let q = text.indexOf('"', p + 1)
  if (q < 0 || q >= le) throw outside // continues on the next line
  let b = backslash(c, p + 1)
  if (b > q) {
    c.qValue = word(c, p + 1, q)
    c.qEnd = q + 1
    return
  }
  let json = true
  while (b < q) {
    if (json && !jsonEscape(text, text.charCodeAt(b + 1), b + 1)) json = false
    if (b + 1 === q) {
      // an escaped quote: the scalar ends at a later one
      q = text.indexOf('"', b + 2)
      if (q < 0 || q >= le) throw outside
    }
    b = backslash(c, b + 2)
  }
  c.qEnd = q + 1
  c.qValue = json ? (JSON.parse(text.slice(p, q + 1)) as string) : decode(c, p + 1)
}

/** The offset of the first backslash at or after i (n when there is none), from the cursor's memo of the last one found. */
const backslash = (c: Cursor, i: number): number => {
  if (c.bsFrom <= i && i <= c.bs) return c.bs
  const b = c.text.indexOf('\\', i)
  c.bsFrom = i
  c.bs = b < 0 ? c.n : b
  return c.bs
}

/** Decodes a double-quoted scalar's escapes from `from` (after its `"`) to its closing quote, which the caller found on this line. */
const decode = (c: Cursor, from: number): string => {
  const { text, le } = c
  let out = ''
  let i = from
  while (i < le) {
    const d = text.charCodeAt(i)
    if (d === DQUOTE) return out + text.slice(from, i)
    if (d !== BACKSLASH) {
      i++
      continue
    }
    out += text.slice(from, i)
    const e = text[i + 1]
    if (e === undefined || i + 1 >= le) throw outside
    const simple = escapes[e]
    if (simple !== undefined) {
      out += simple
      i += 2
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8
      if (i + 2 + len > le) throw outside
      for (let k = i + 2; k < i + 2 + len; k++) if (!isHex(text.charCodeAt(k))) throw outside
      const code = parseInt(text.slice(i + 2, i + 2 + len), 16)
      if (code > 0x10ffff) throw outside
      out += String.fromCodePoint(code)
      i += 2 + len
    } else throw outside
    from = i
  }
  throw outside // (not reached: the caller found the closing quote)
}

/** Reads the single-quoted scalar whose `'` is at p. */
export const singleQuoted = (c: Cursor, p: number): void => {
  const { text, le } = c
  let out = ''
  let from = p + 1
  for (let i = from; i < le; i++) {
    if (text.charCodeAt(i) !== SQUOTE) continue
    if (text.charCodeAt(i + 1) !== SQUOTE || i + 1 >= le) {
      c.qValue = out === '' ? word(c, from, i) : out + text.slice(from, i)
      c.qEnd = i + 1
      return
    }
    out += text.slice(from, i + 1) // up to and with the first quote of `''`
    i++
    from = i + 1
  }
  throw outside
}

/** Reads the quoted scalar (either kind) whose quote is at p. */
export const quoted = (c: Cursor, p: number): void => {
  if (c.text.charCodeAt(p) === DQUOTE) doubleQuoted(c, p)
  else singleQuoted(c, p)
}
