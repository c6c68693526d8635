// YamlBlock: a one-pass reader of the YAML subset manifests are written in (block maps and lists,
// flow maps and lists written on one line, plain, quoted and literal scalars, comments). It gives
// up (undefined) at anything else: multi-line flow collections, anchors, tags, multi-line plain or
// quoted scalars, tabs, duplicate keys, any error;
// Yaml.parse then hands the whole text to the yaml library. The tests check that wherever it
// answers, it answers what the library does.
import * as Position from '../core/Position.js'
import type { Entry, MapNode, Node, Scalar, SeqNode } from './Node.js'

/** Thrown inside `block` where the text leaves the subset; caught at its top. */
const outside: unique symbol = Symbol('outside the block subset')

/** Characters that send a text to the library: controls, tabs, CR, NEL, line separators, BOM. */
// eslint-disable-next-line no-control-regex
const unsupportedChars = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/

/** How deep `block` nests before it leaves the text to the library (which enforces maxDepth). */
const blockDepth = 64

/** Longest implicit key `block` reads (the library refuses keys over 1024 characters). */
const keyLimit = 1000

const escapes: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
}

const SPACE = 32
const HASH = 35
const DQUOTE = 34
const SQUOTE = 39
const DASH = 45
const COLON = 58
const BAR = 124
const COMMA = 44
const LBRACKET = 91
const RBRACKET = 93
const LBRACE = 123
const RBRACE = 125

/**
 * Parses a document written in the block subset; undefined when the text uses anything else (then
 * the library must read it). Never returns a tree that the library would build differently.
 */
export const block = (file: string, text: string): Node | undefined => {
  if (unsupportedChars.test(text)) return undefined
  const n = text.length
  let ls = 0 // start of the current line
  let le = 0 // end of the current line (its '\n', or n)
  let ln = 1 // its number
  let ind = 0 // indentation of the current content line (after seek)
  let eof = false

  const startLine = (start: number): void => {
    ls = start
    le = text.indexOf('\n', start)
    if (le < 0) le = n
  }
  const nextLine = (): void => {
    if (le >= n) eof = true
    else {
      startLine(le + 1)
      ln += 1
    }
  }
  const at = (offset: number): Position.Position => Position.make(file, ln, offset - ls + 1)
  const spaces = (i: number): number => {
    while (i < le && text.charCodeAt(i) === SPACE) i++
    return i
  }
  /** Moves to the next line with content (the current one included), skipping blank and comment lines. */
  const seek = (): void => {
    while (!eof) {
      const i = spaces(ls)
      if (i < le && text.charCodeAt(i) !== HASH) {
        ind = i - ls
        if (ind === 0 && (text.startsWith('---', i) || text.startsWith('...', i) || text.charCodeAt(i) === 37)) throw outside
        return
      }
      nextLine()
    }
  }
  /** Whether a line's remainder from i is empty or a comment. */
  const endsAt = (i: number): boolean => {
    const j = spaces(i)
    return j === le || (text.charCodeAt(j) === HASH && j > i)
  }
  const isDash = (p: number): boolean => text.charCodeAt(p) === DASH && (p + 1 === le || text.charCodeAt(p + 1) === SPACE)

  // what the last quoted scalar read: its value and the offset after its closing quote
  let qValue = ''
  let qEnd = 0
  const doubleQuoted = (p: number): void => {
    // most double-quoted scalars use only the escapes JSON has, with the same meaning: then
    // JSON.parse decodes them (into one flat string); the others are decoded here
    let json = true
    let i = p + 1
    for (; i < le; i++) {
      const c = text.charCodeAt(i)
      if (c === DQUOTE) break
      if (c === 92) {
        const e = text.charCodeAt(++i)
        if (!(e === 110 || e === 34 || e === 92 || e === 116 || e === 47 || e === 114 || e === 98 || e === 102 || (e === 117 && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))))) json = false
      }
    }
    if (i >= le) throw outside // continues on the next line
    if (json) {
      qValue = JSON.parse(text.slice(p, i + 1)) as string
      qEnd = i + 1
      return
    }
    let out = ''
    let from = p + 1
    i = from
    while (i < le) {
      const c = text.charCodeAt(i)
      if (c === DQUOTE) {
        qValue = out + text.slice(from, i)
        qEnd = i + 1
        return
      }
      if (c !== 92) {
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
        const hex = text.slice(i + 2, i + 2 + len)
        if (i + 2 + len > le || !/^[0-9a-fA-F]+$/.test(hex)) throw outside
        const code = parseInt(hex, 16)
        if (code > 0x10ffff) throw outside
        out += String.fromCodePoint(code)
        i += 2 + len
      } else throw outside
      from = i
    }
    throw outside // continues on the next line
  }

  const singleQuoted = (p: number): void => {
    let out = ''
    let from = p + 1
    for (let i = from; i < le; i++) {
      if (text.charCodeAt(i) !== SQUOTE) continue
      out += text.slice(from, i)
      if (text.charCodeAt(i + 1) !== SQUOTE || i + 1 >= le) {
        qValue = out
        qEnd = i + 1
        return
      }
      out += "'"
      i++
      from = i + 1
    }
    throw outside
  }

  let kText = '' // the last key keyAt read
  /** The offset of the ':' of the key at p (its text in kText), or -1 when p does not start `key: ` on this line. */
  const keyAt = (p: number): number => {
    const c = text.charCodeAt(p)
    if (c === DQUOTE || c === SQUOTE) {
      if (c === DQUOTE) doubleQuoted(p)
      else singleQuoted(p)
      const colon = spaces(qEnd)
      if (text.charCodeAt(colon) !== COLON) return -1
      if (colon + 1 < le && text.charCodeAt(colon + 1) !== SPACE) throw outside
      kText = qValue
      return colon
    }
    if (!plainStart(c, p)) return -1
    for (let i = p + 1; i < le; i++) {
      const d = text.charCodeAt(i)
      if (d === HASH && text.charCodeAt(i - 1) === SPACE) return -1
      if (d === COLON && (i + 1 === le || text.charCodeAt(i + 1) === SPACE)) {
        if (i - p > keyLimit) throw outside
        let end = i
        while (text.charCodeAt(end - 1) === SPACE) end--
        const raw = text.slice(p, end)
        if (typeof resolvePlain(raw) !== 'string' || raw === '<<') throw outside
        kText = raw
        return i
      }
    }
    return -1
  }
  const plainStart = (c: number, p: number): boolean => {
    if (c === DASH) {
      const d = text.charCodeAt(p + 1)
      return p + 1 < le && d !== SPACE
    }
    return !indicators.has(c)
  }

  /** A scalar that starts at p on the current line; leaves the cursor on the line after it. */
  const scalar = (p: number, parent: number): Scalar => {
    const pos = at(p)
    const c = text.charCodeAt(p)
    if (c === DQUOTE || c === SQUOTE) {
      if (c === DQUOTE) doubleQuoted(p)
      else singleQuoted(p)
      if (!endsAt(qEnd)) throw outside
      nextLine()
      return { _tag: 'Scalar', value: qValue, text: qValue, quoted: true, at: pos }
    }
    if (c === BAR) return literal(p, parent, pos)
    if (!plainStart(c, p)) throw outside
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
    const raw = text.slice(p, end)
    nextLine()
    return { _tag: 'Scalar', value: resolvePlain(raw), text: raw, quoted: false, at: pos }
  }

  /** A literal block scalar (`|` or `|-`) whose header is at p; its lines are indented deeper than `parent`. */
  const literal = (p: number, parent: number, pos: Position.Position): Scalar => {
    let i = p + 1
    const strip = text.charCodeAt(i) === DASH
    if (strip) i++
    if (!(i === le || text.charCodeAt(i) === SPACE) || !endsAt(i)) throw outside
    nextLine()
    const lines: string[] = []
    let indent = -1
    let blankWidth = 0
    let last = -1 // index in `lines` of the last line with content
    while (!eof) {
      const s = spaces(ls) - ls
      if (ls + s === le) {
        if (indent < 0) blankWidth = Math.max(blankWidth, s)
        else if (s > indent) throw outside
        lines.push('')
        nextLine()
        continue
      }
      if (indent < 0) {
        if (s <= parent) break
        if (blankWidth > s) throw outside
        indent = s
      } else if (s < indent) break
      if (le === n) throw outside // no final line break
      lines.push(text.slice(ls + indent, le))
      last = lines.length - 1
      nextLine()
    }
    const body = last < 0 ? '' : lines.slice(0, last + 1).join('\n') + (strip ? '' : '\n')
    return { _tag: 'Scalar', value: body, text: body, quoted: true, at: pos }
  }

  // what the last flow collection read: the offset after its closing bracket
  let fEnd = 0
  const isFlow = (p: number): boolean => {
    const c = text.charCodeAt(p)
    return c === LBRACE || c === LBRACKET
  }
  /** The offset of the first non-space at or after i on this line; outside when the line ends first (a flow collection on more lines). */
  const flowSpaces = (i: number): number => {
    const j = spaces(i)
    if (j >= le) throw outside
    return j
  }
  /**
   * A plain scalar inside a flow collection, from p to before the `,`, `]` or `}` that ends it. Only
   * the plain scalars no reading can doubt are read: none with a `:`, `#` or bracket inside.
   */
  const flowPlain = (p: number): string => {
    const c = text.charCodeAt(p)
    if (!plainStart(c, p) || (c === DASH && flowStop(text.charCodeAt(p + 1)))) throw outside
    let i = p
    for (; i < le; i++) {
      const d = text.charCodeAt(i)
      if (d === COMMA || d === RBRACKET || d === RBRACE) break
      if (d === COLON || d === HASH || d === LBRACKET || d === LBRACE) throw outside
    }
    if (i >= le) throw outside
    let end = i
    while (text.charCodeAt(end - 1) === SPACE) end--
    fEnd = i
    return text.slice(p, end)
  }
  /** A value inside a flow collection at p: a scalar or a nested collection; fEnd is set after it. */
  const flowValue = (p: number, depth: number): Node => {
    const c = text.charCodeAt(p)
    if (c === LBRACE || c === LBRACKET) return flow(p, depth)
    const pos = at(p)
    if (c === DQUOTE || c === SQUOTE) {
      if (c === DQUOTE) doubleQuoted(p)
      else singleQuoted(p)
      fEnd = qEnd
      return { _tag: 'Scalar', value: qValue, text: qValue, quoted: true, at: pos }
    }
    const raw = flowPlain(p)
    return { _tag: 'Scalar', value: resolvePlain(raw), text: raw, quoted: false, at: pos }
  }
  /** A key inside a flow map at p, with its `: ` after it; returns the offset of its value (its text in kText). */
  const flowKey = (p: number): number => {
    const c = text.charCodeAt(p)
    let colon: number
    if (c === DQUOTE || c === SQUOTE) {
      if (c === DQUOTE) doubleQuoted(p)
      else singleQuoted(p)
      kText = qValue
      colon = spaces(qEnd)
    } else {
      if (!plainStart(c, p)) throw outside
      let i = p
      for (; i < le; i++) {
        const d = text.charCodeAt(i)
        if (d === COLON) break
        if (d === COMMA || d === HASH || d === LBRACKET || d === RBRACKET || d === LBRACE || d === RBRACE) throw outside
      }
      if (i - p > keyLimit) throw outside
      let end = i
      while (text.charCodeAt(end - 1) === SPACE) end--
      kText = text.slice(p, end)
      if (typeof resolvePlain(kText) !== 'string' || kText === '<<') throw outside
      colon = i
    }
    if (colon >= le || text.charCodeAt(colon) !== COLON || text.charCodeAt(colon + 1) !== SPACE) throw outside
    return flowSpaces(colon + 1)
  }
  /** A flow map or list that starts at p and closes on the same line; fEnd is set after its bracket. */
  const flow = (p: number, depth: number): Node => {
    if (depth > blockDepth) throw outside
    const pos = at(p)
    const isMap = text.charCodeAt(p) === LBRACE
    const close = isMap ? RBRACE : RBRACKET
    const entries: Entry[] = []
    const items: Node[] = []
    let i = flowSpaces(p + 1)
    if (text.charCodeAt(i) !== close) {
      for (;;) {
        if (isMap) {
          const keyPos = at(i)
          const v = flowKey(i)
          const key = kText
          for (const e of entries) if (e.key === key) throw outside
          if (entries.length > 64) throw outside // (the duplicate check is quadratic; long flow maps are rare)
          const c = text.charCodeAt(v)
          if (c === COMMA || c === RBRACE || c === RBRACKET) throw outside
          entries.push({ key, keyAt: keyPos, value: flowValue(v, depth + 1) })
        } else items.push(flowValue(i, depth + 1))
        i = flowSpaces(fEnd)
        const c = text.charCodeAt(i)
        if (c === close) break
        if (c !== COMMA) throw outside
        i = flowSpaces(i + 1)
        const n = text.charCodeAt(i)
        if (n === COMMA || n === RBRACE || n === RBRACKET) throw outside // a trailing or doubled comma
      }
    }
    fEnd = i + 1
    return isMap ? { _tag: 'Map', entries, at: pos } : { _tag: 'Seq', items, at: pos }
  }
  /** A flow collection that is the rest of its line (a comment aside); leaves the cursor on the next line. */
  const flowLine = (p: number, depth: number): Node => {
    const node = flow(p, depth)
    if (!endsAt(fEnd)) throw outside
    nextLine()
    return node
  }

  /** A block map whose first key starts at p on the current line; `first` is its ':' (keyAt just read it, kText holds it). */
  const map = (p: number, depth: number, first: number): MapNode => {
    if (depth > blockDepth) throw outside
    const col = p - ls
    const pos = at(p) // the map's position is its first key's
    const entries: Entry[] = []
    let seen: Set<string> | undefined // the keys, once there are many
    for (;;) {
      const colon = entries.length === 0 ? first : keyAt(p)
      if (colon < 0) throw outside
      const key = kText
      if (seen !== undefined) {
        if (seen.has(key)) throw outside
        seen.add(key)
      } else {
        for (const e of entries) if (e.key === key) throw outside
        if (entries.length === 16) seen = new Set([...entries.map((e) => e.key), key])
      }
      const keyPos = entries.length === 0 ? pos : at(p)
      const v = spaces(colon + 1)
      let value: Node
      if (v === le || text.charCodeAt(v) === HASH) {
        nextLine()
        seek()
        if (eof) throw outside
        if (ind > col) value = node(ls + ind, depth + 1)
        else if (ind === col && isDash(ls + ind)) value = seq(ls + ind, depth + 1)
        else throw outside
      } else {
        if (isDash(v)) throw outside
        value = isFlow(v) ? flowLine(v, depth + 1) : scalar(v, col)
      }
      entries.push({ key, keyAt: keyPos, value })
      seek()
      if (eof || ind < col) break
      p = ls + col
      if (ind > col || isDash(p)) throw outside
    }
    return { _tag: 'Map', entries, at: pos }
  }

  /** A block sequence whose first `-` is at p on the current line. */
  const seq = (p: number, depth: number): SeqNode => {
    if (depth > blockDepth) throw outside
    const col = p - ls
    const pos = at(p)
    const items: Node[] = []
    for (;;) {
      const v = spaces(p + 1)
      if (v === le || text.charCodeAt(v) === HASH) {
        nextLine()
        seek()
        if (eof || ind <= col) throw outside
        items.push(node(ls + ind, depth + 1))
      } else if (isDash(v)) items.push(seq(v, depth + 1))
      else {
        const colon = keyAt(v)
        items.push(colon >= 0 ? map(v, depth + 1, colon) : isFlow(v) ? flowLine(v, depth + 1) : scalar(v, col))
      }
      seek()
      if (eof || ind < col) break
      if (ind > col) throw outside
      p = ls + col
      if (!isDash(p)) break
    }
    return { _tag: 'Seq', items, at: pos }
  }

  /** A map or a sequence starting at p (a scalar alone on its line is left to the library). */
  const node = (p: number, depth: number): Node => {
    if (isDash(p)) return seq(p, depth)
    const colon = keyAt(p)
    if (colon >= 0) return map(p, depth, colon)
    throw outside
  }

  try {
    startLine(0)
    // a first `---` line (a document start marker alone, maybe with a comment) is skipped
    for (let i = spaces(ls); !eof && (i === le || text.charCodeAt(i) === HASH); i = spaces(ls)) nextLine()
    if (!eof && text.startsWith('---', ls) && endsAt(ls + 3) && (ls + 3 === le || text.charCodeAt(ls + 3) === SPACE)) nextLine()
    seek()
    if (eof) return undefined
    const root = node(ls + ind, 0)
    seek()
    return eof ? root : undefined
  } catch (e) {
    if (e === outside) return undefined
    throw e
  }
}

/** The characters that end a plain scalar in a flow collection, or that no value there starts with. */
const flowStop = (c: number): boolean => c === COMMA || c === RBRACKET || c === RBRACE || c === LBRACKET || c === LBRACE || c === SPACE || Number.isNaN(c)

/** First characters that cannot start a plain scalar here (`-` is checked on its own). */
const indicators: ReadonlySet<number> = new Set([...'?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)))

/** A plain scalar's value under YAML 1.2's core schema, tested in the library's order. */
export const resolvePlain = (raw: string): string | number | boolean | null => {
  const c = raw.charCodeAt(0)
  // only these first characters can start a null, a boolean or a number
  if (!(raw.length === 0 || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70)) return raw
  if (/^(?:~|[Nn]ull|NULL)?$/.test(raw)) return null
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(raw)) return raw[0] === 't' || raw[0] === 'T'
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
