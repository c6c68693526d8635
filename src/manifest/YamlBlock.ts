// YamlBlock: a one-pass reader of the YAML subset manifests are written in (block maps and lists,
// flow maps and lists written on one line, plain, quoted and literal scalars, comments). It gives
// up (undefined) at anything else: multi-line flow collections, anchors, tags, multi-line plain or
// quoted scalars, tabs, duplicate keys, any error;
// Yaml.parse then hands the whole text to the yaml library. The tests check that wherever it
// answers, it answers what the library does.
//
// This module reads the block structure; its cursor (YamlCursor.ts), scalars (YamlScalar.ts,
// YamlQuoted.ts) and flow collections (YamlFlow.ts) are modules of their own.
import type { MapNode, Node, SeqNode } from './Node.js'
import * as Cursor from './YamlCursor.js'
import { HASH, outside, SPACE } from './YamlCursor.js'
import { depthLimit, flowLine, isFlow } from './YamlFlow.js'
import { keyAt, scalar } from './YamlScalar.js'

export { resolvePlain } from './YamlScalar.js'

/** Characters that send a text to the library: controls, tabs, CR, NEL, line separators, BOM. */
// eslint-disable-next-line no-control-regex
const unsupportedChars = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/

/** How many keys a block map compares one by one before it keeps them in a set. */
const fewKeys = 16

/**
 * Parses a document written in the block subset; undefined when the text uses anything else (then
 * the library must read it). Never returns a tree that the library would build differently.
 */
export const block = (file: string, text: string): Node | undefined => {
  if (unsupportedChars.test(text)) return undefined
  const cur = Cursor.make(file, text)
  try {
    // a first `---` line (a document start marker alone, maybe with a comment) is skipped
    for (let i = Cursor.spaces(cur, cur.ls); !cur.eof && (i === cur.le || text.charCodeAt(i) === HASH); i = Cursor.spaces(cur, cur.ls)) Cursor.nextLine(cur)
    const { ls, le } = cur
    if (!cur.eof && text.startsWith('---', ls) && Cursor.endsAt(cur, ls + 3) && (ls + 3 === le || text.charCodeAt(ls + 3) === SPACE)) Cursor.nextLine(cur)
    Cursor.seek(cur)
    if (cur.eof) return undefined
    const root = node(cur, cur.ls + cur.ind, 0)
    Cursor.seek(cur)
    return cur.eof ? root : undefined
  } catch (e) {
    if (e === outside) return undefined
    throw e
  }
}

/** A map or a sequence starting at p (a scalar alone on its line is left to the library). */
const node = (cur: Cursor.Cursor, p: number, depth: number): Node => {
  if (Cursor.isDash(cur, p)) return seq(cur, p, depth)
  const colon = keyAt(cur, p)
  if (colon >= 0) return map(cur, p, depth, colon)
  throw outside
}

/** A block map whose first key starts at p on the current line; `first` is its ':' (keyAt just read it, kText holds it). */
const map = (cur: Cursor.Cursor, p: number, depth: number, first: number): MapNode => {
  if (depth > depthLimit) throw outside
  const text = cur.text
  const col = p - cur.ls
  const at = Cursor.at(cur, p) // the map's position is its first key's
  const entries = cur.entries
  const base = entries.length
  let seen: Set<string> | undefined // the keys, once there are many
  for (;;) {
    const colon = entries.length === base ? first : keyAt(cur, p)
    if (colon < 0) throw outside
    const key = cur.kText
    if (seen !== undefined) {
      if (seen.has(key)) throw outside
      seen.add(key)
    } else {
      for (let k = base; k < entries.length; k++) if (entries[k]!.key === key) throw outside
      if (entries.length - base === fewKeys) seen = new Set([...entries.slice(base).map((e) => e.key), key])
    }
    const keyPos = entries.length === base ? at : Cursor.at(cur, p)
    const v = Cursor.spaces(cur, colon + 1)
    let value: Node
    if (v === cur.le || text.charCodeAt(v) === HASH) {
      // the value is on the lines below: deeper, or a list at the key's own indentation
      Cursor.nextLine(cur)
      Cursor.seek(cur)
      if (cur.eof) throw outside
      if (cur.ind > col) value = node(cur, cur.ls + cur.ind, depth + 1)
      else if (cur.ind === col && Cursor.isDash(cur, cur.ls + cur.ind)) value = seq(cur, cur.ls + cur.ind, depth + 1)
      else throw outside
    } else {
      if (Cursor.isDash(cur, v)) throw outside
      value = isFlow(cur, v) ? flowLine(cur, v, depth + 1) : scalar(cur, v, col)
    }
    entries.push({ key, keyAt: keyPos, value })
    Cursor.seek(cur)
    if (cur.eof || cur.ind < col) break
    p = cur.ls + col
    if (cur.ind > col || Cursor.isDash(cur, p)) throw outside
  }
  return { _tag: 'Map', entries: Cursor.take(entries, base), at }
}

/** A block sequence whose first `-` is at p on the current line. */
const seq = (cur: Cursor.Cursor, p: number, depth: number): SeqNode => {
  if (depth > depthLimit) throw outside
  const text = cur.text
  const col = p - cur.ls
  const at = Cursor.at(cur, p)
  const items = cur.items
  const base = items.length
  for (;;) {
    const v = Cursor.spaces(cur, p + 1)
    if (v === cur.le || text.charCodeAt(v) === HASH) {
      // the item is on the lines below, deeper
      Cursor.nextLine(cur)
      Cursor.seek(cur)
      if (cur.eof || cur.ind <= col) throw outside
      items.push(node(cur, cur.ls + cur.ind, depth + 1))
    } else if (Cursor.isDash(cur, v)) items.push(seq(cur, v, depth + 1))
    else {
      const colon = keyAt(cur, v)
      items.push(colon >= 0 ? map(cur, v, depth + 1, colon) : isFlow(cur, v) ? flowLine(cur, v, depth + 1) : scalar(cur, v, col))
    }
    Cursor.seek(cur)
    if (cur.eof || cur.ind < col) break
    if (cur.ind > col) throw outside
    p = cur.ls + col
    if (!Cursor.isDash(cur, p)) break
  }
  return { _tag: 'Seq', items: Cursor.take(items, base), at }
}
