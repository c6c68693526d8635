// YamlScalar: the scalars of the block subset outside flow collections: plain ones (resolved under
// YAML 1.2's core schema), quoted ones (YamlQuoted.ts), literal block scalars (`|`, `|-`), and the
// implicit keys of block maps.
import type * as Position from '../core/Position.js'
import type { Scalar } from './Node.js'
import * as Cursor from './YamlCursor.js'
import { BAR, COLON, DASH, DQUOTE, HASH, outside, SPACE, SQUOTE } from './YamlCursor.js'
import * as Quoted from './YamlQuoted.js'

/** Longest implicit key the reader reads (the library refuses keys over 1024 characters). */
export const keyLimit = 1000

/** First characters that cannot start a plain scalar here (`-` is checked on its own). */
const indicators: ReadonlySet<number> = new Set([...'?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)))

/** Whether c, at p, starts a plain scalar. */
export const plainStart = (cur: Cursor.Cursor, c: number, p: number): boolean => {
  if (c === DASH) return p + 1 < cur.le && cur.text.charCodeAt(p + 1) !== SPACE
  return !indicators.has(c)
}

/** Whether a plain key's text is one the reader keeps (a string, and not the merge key `<<`). */
export const plainKey = (raw: string): boolean => typeof resolvePlain(raw) === 'string' && raw !== '<<'

/** The offset of the ':' of the block map key at p (its text in kText), or -1 when p does not start `key: ` on this line. */
export const keyAt = (cur: Cursor.Cursor, p: number): number => {
  const { text, le } = cur
  const c = text.charCodeAt(p)
  if (c === DQUOTE || c === SQUOTE) {
    Quoted.quoted(cur, p)
    const colon = Cursor.spaces(cur, cur.qEnd)
    if (text.charCodeAt(colon) !== COLON) return -1
    if (colon + 1 < le && text.charCodeAt(colon + 1) !== SPACE) throw outside
    cur.kText = cur.qValue
    return colon
  }
  if (!plainStart(cur, c, p)) return -1
  for (let i = p + 1; i < le; i++) {
    const d = text.charCodeAt(i)
    if (d === HASH && text.charCodeAt(i - 1) === SPACE) return -1
    if (d === COLON && (i + 1 === le || text.charCodeAt(i + 1) === SPACE)) {
      if (i - p > keyLimit) throw outside
      let end = i
      while (text.charCodeAt(end - 1) === SPACE) end--
      const raw = Cursor.word(cur, p, end)
      if (!plainKey(raw)) throw outside
      cur.kText = raw
      return i
    }
  }
  return -1
}

/** A scalar that starts at p on the current line, inside a collection at column `parent`; leaves the cursor on the line after it. */
export const scalar = (cur: Cursor.Cursor, p: number, parent: number): Scalar => {
  const at = Cursor.at(cur, p)
  const { text, le } = cur
  const c = text.charCodeAt(p)
  if (c === DQUOTE || c === SQUOTE) {
    Quoted.quoted(cur, p)
    if (!Cursor.endsAt(cur, cur.qEnd)) throw outside
    Cursor.nextLine(cur)
    return { _tag: 'Scalar', value: cur.qValue, text: cur.qValue, quoted: true, at }
  }
  if (c === BAR) return literal(cur, p, parent, at)
  if (!plainStart(cur, c, p)) throw outside
  let end = le
  for (let i = p + 1; i < le; i++) {
    const d = text.charCodeAt(i)
    if (d === HASH && text.charCodeAt(i - 1) === SPACE) {
      end = i
      break
    }
    if (d === COLON && (i + 1 === le || text.charCodeAt(i + 1) === SPACE)) throw outside
  }
  while (text.charCodeAt(end - 1) === SPACE) end--
  const raw = Cursor.word(cur, p, end)
  Cursor.nextLine(cur)
  return { _tag: 'Scalar', value: resolvePlain(raw), text: raw, quoted: false, at }
}

/** A literal block scalar (`|` or `|-`) whose header is at p; its lines are indented deeper than `parent`. */
const literal = (cur: Cursor.Cursor, p: number, parent: number, at: Position.Position): Scalar => {
  const text = cur.text
  let i = p + 1
  const strip = text.charCodeAt(i) === DASH
  if (strip) i++
  if (!(i === cur.le || text.charCodeAt(i) === SPACE) || !Cursor.endsAt(cur, i)) throw outside
  Cursor.nextLine(cur)
  const lines = cur.lines // (literals do not nest: one scratch array serves them all)
  lines.length = 0
  let indent = -1
  let blankWidth = 0
  let kept = 0 // how many of `lines` end with the last line with content
  while (!cur.eof) {
    const s = Cursor.spaces(cur, cur.ls) - cur.ls
    if (cur.ls + s === cur.le) {
      if (indent < 0) blankWidth = Math.max(blankWidth, s)
      else if (s > indent) throw outside
      lines.push('')
      Cursor.nextLine(cur)
      continue
    }
    if (indent < 0) {
      if (s <= parent) break
      if (blankWidth > s) throw outside
      indent = s
    } else if (s < indent) break
    if (cur.le === cur.n) throw outside // no final line break
    lines.push(text.slice(cur.ls + indent, cur.le))
    kept = lines.length
    Cursor.nextLine(cur)
  }
  lines.length = kept
  if (kept > 0 && !strip) lines.push('') // the final line break, inside the one flat string join makes
  const body = kept === 0 ? '' : lines.join('\n')
  return { _tag: 'Scalar', value: body, text: body, quoted: true, at }
}

/** The plain scalars that are null or a boolean under YAML 1.2's core schema (the empty one aside). */
const words: ReadonlyMap<string, null | boolean> = new Map<string, null | boolean>([
  ['~', null], ['null', null], ['Null', null], ['NULL', null],
  ['true', true], ['True', true], ['TRUE', true], ['false', false], ['False', false], ['FALSE', false],
])

/**
 * A plain scalar's value under YAML 1.2's core schema, tested in the library's order. A null or a
 * boolean is one of ten words, looked up: a key such as `file` or `name` would otherwise have V8
 * compile a regular expression or two at every start; only what may be a number is matched.
 */
export const resolvePlain = (raw: string): string | number | boolean | null => {
  if (raw.length === 0) return null
  const c = raw.charCodeAt(0)
  if (c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70) {
    const word = words.get(raw)
    return word === undefined ? raw : word
  }
  // only these first characters can start a number
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return raw
  if (/^0o[0-7]+$/.test(raw)) return parseInt(raw.substring(2), 8)
  if (/^[-+]?[0-9]+$/.test(raw)) return parseInt(raw, 10)
  if (/^0x[0-9a-fA-F]+$/.test(raw)) return parseInt(raw.substring(2), 16)
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(raw)) {
    return raw.slice(-3).toLowerCase() === 'nan' ? NaN : raw[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(raw)) return parseFloat(raw)
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(raw)) return parseFloat(raw)
  return raw
}
