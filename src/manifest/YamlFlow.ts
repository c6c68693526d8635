// YamlFlow: the flow collections of the block subset (`{a: 1, b: [x, "y"]}`), each closed on the
// line it opens. Only the plain scalars no reading can doubt are read: none with a `:`, a bracket
// or a comment (` #`) inside, and no key with a `#`; anything else (an empty value, a trailing
// comma, `a:b`) leaves the subset.
import type { MapNode, Node, Scalar, SeqNode } from './Node.js'
import * as Cursor from './YamlCursor.js'
import { COLON, COMMA, DASH, DQUOTE, HASH, LBRACE, LBRACKET, outside, RBRACE, RBRACKET, SPACE, SQUOTE } from './YamlCursor.js'
import * as Quoted from './YamlQuoted.js'
import { keyLimit, plainKey, plainStart, resolvePlain } from './YamlScalar.js'

/** How deep collections nest before the reader leaves the text to the library (which enforces maxDepth). */
export const depthLimit = 64

/** The most keys a flow map may have here (its duplicate check is quadratic; long flow maps are rare). */
const flowKeys = 64

/** Whether a flow collection starts at p. */
export const isFlow = (cur: Cursor.Cursor, p: number): boolean => {
  const c = cur.text.charCodeAt(p)
  return c === LBRACE || c === LBRACKET
}

/** The characters that end a plain scalar in a flow collection, or that no value there starts with. */
const flowStop = (c: number): boolean => c === COMMA || c === RBRACKET || c === RBRACE || c === LBRACKET || c === LBRACE || c === SPACE || Number.isNaN(c)

/** The offset of the first non-space at or after i on this line; outside when the line ends first (a flow collection on more lines). */
const flowSpaces = (cur: Cursor.Cursor, i: number): number => {
  const j = Cursor.spaces(cur, i)
  if (j >= cur.le) throw outside
  return j
}

/** The text of a plain scalar inside a flow collection, from p to before the `,`, `]` or `}` that ends it (fEnd is set there). */
const flowPlain = (cur: Cursor.Cursor, p: number): string => {
  const { text, le } = cur
  const c = text.charCodeAt(p)
  if (!plainStart(cur, c, p) || (c === DASH && flowStop(text.charCodeAt(p + 1)))) throw outside
  let i = p
  for (; i < le; i++) {
    const d = text.charCodeAt(i)
    if (d === COMMA || d === RBRACKET || d === RBRACE) break
    if (d === COLON || d === LBRACKET || d === LBRACE) throw outside
    // a `#` after a space starts a comment (the collection then goes on to another line); any
    // other is the scalar's, as in `[package#httpd]` (plainStart refused one at p)
    if (d === HASH && text.charCodeAt(i - 1) === SPACE) throw outside
  }
  if (i >= le) throw outside
  let end = i
  while (text.charCodeAt(end - 1) === SPACE) end--
  cur.fEnd = i
  return Cursor.word(cur, p, end)
}

/** A value inside a flow collection at p: a scalar or a nested collection; fEnd is set after it. */
const flowValue = (cur: Cursor.Cursor, p: number, depth: number): Node => {
  const c = cur.text.charCodeAt(p)
  if (c === LBRACE || c === LBRACKET) return flow(cur, p, depth)
  const at = Cursor.at(cur, p)
  if (c === DQUOTE || c === SQUOTE) {
    Quoted.quoted(cur, p)
    cur.fEnd = cur.qEnd
    return { _tag: 'Scalar', value: cur.qValue, text: cur.qValue, quoted: true, at } satisfies Scalar
  }
  const raw = flowPlain(cur, p)
  return { _tag: 'Scalar', value: resolvePlain(raw), text: raw, quoted: false, at } satisfies Scalar
}

/** A key inside a flow map at p, with its `: ` after it; returns the offset of its value (its text in kText). */
const flowKey = (cur: Cursor.Cursor, p: number): number => {
  const { text, le } = cur
  const c = text.charCodeAt(p)
  let colon: number
  if (c === DQUOTE || c === SQUOTE) {
    Quoted.quoted(cur, p)
    cur.kText = cur.qValue
    colon = Cursor.spaces(cur, cur.qEnd)
  } else {
    if (!plainStart(cur, c, p)) throw outside
    let i = p
    for (; i < le; i++) {
      const d = text.charCodeAt(i)
      if (d === COLON) break
      if (d === COMMA || d === HASH || d === LBRACKET || d === RBRACKET || d === LBRACE || d === RBRACE) throw outside
    }
    if (i - p > keyLimit) throw outside
    let end = i
    while (text.charCodeAt(end - 1) === SPACE) end--
    cur.kText = Cursor.word(cur, p, end)
    if (!plainKey(cur.kText)) throw outside
    colon = i
  }
  if (colon >= le || text.charCodeAt(colon) !== COLON || text.charCodeAt(colon + 1) !== SPACE) throw outside
  return flowSpaces(cur, colon + 1)
}

/** Whether c cannot start a flow value or follow a comma (a trailing or doubled comma, an empty value). */
const noValue = (c: number): boolean => c === COMMA || c === RBRACE || c === RBRACKET

/** A flow map or list that starts at p and closes on the same line; fEnd is set after its bracket. */
export const flow = (cur: Cursor.Cursor, p: number, depth: number): Node => {
  if (depth > depthLimit) throw outside
  return cur.text.charCodeAt(p) === LBRACE ? flowMap(cur, p, depth) : flowSeq(cur, p, depth)
}

const flowMap = (cur: Cursor.Cursor, p: number, depth: number): MapNode => {
  const at = Cursor.at(cur, p)
  const entries = cur.entries
  const base = entries.length
  for (let i = firstItem(cur, p, RBRACE); i >= 0; i = nextItem(cur, RBRACE)) {
    const keyAt = Cursor.at(cur, i)
    const v = flowKey(cur, i)
    const key = cur.kText
    for (let k = base; k < entries.length; k++) if (entries[k]!.key === key) throw outside
    if (entries.length - base > flowKeys) throw outside
    if (noValue(cur.text.charCodeAt(v))) throw outside
    entries.push({ key, keyAt, value: flowValue(cur, v, depth + 1) })
  }
  return { _tag: 'Map', entries: Cursor.take(entries, base), at }
}

const flowSeq = (cur: Cursor.Cursor, p: number, depth: number): SeqNode => {
  const at = Cursor.at(cur, p)
  const items = cur.items
  const base = items.length
  for (let i = firstItem(cur, p, RBRACKET); i >= 0; i = nextItem(cur, RBRACKET)) items.push(flowValue(cur, i, depth + 1))
  return { _tag: 'Seq', items: Cursor.take(items, base), at }
}

/** The offset of the first item after the opening bracket at p, or -1 when the collection is empty (fEnd is then set after it). */
const firstItem = (cur: Cursor.Cursor, p: number, close: number): number => {
  const i = flowSpaces(cur, p + 1)
  if (cur.text.charCodeAt(i) !== close) return i
  cur.fEnd = i + 1
  return -1
}

/** After an item that ends at fEnd: the offset of the next item, or -1 at the closing bracket (fEnd is then set after it). */
const nextItem = (cur: Cursor.Cursor, close: number): number => {
  const i = flowSpaces(cur, cur.fEnd)
  const c = cur.text.charCodeAt(i)
  if (c === close) {
    cur.fEnd = i + 1
    return -1
  }
  if (c !== COMMA) throw outside
  const j = flowSpaces(cur, i + 1)
  if (noValue(cur.text.charCodeAt(j))) throw outside // a trailing or doubled comma
  return j
}

/** A flow collection that is the rest of its line (a comment aside); leaves the cursor on the next line. */
export const flowLine = (cur: Cursor.Cursor, p: number, depth: number): Node => {
  const node = flow(cur, p, depth)
  if (!Cursor.endsAt(cur, cur.fEnd)) throw outside
  Cursor.nextLine(cur)
  return node
}
