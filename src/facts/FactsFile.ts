// FactsFile: the text of a facts file (JSON or YAML) as a fact map, or positioned diagnostics.
import * as E from 'fp-ts/lib/Either.js'
import * as Depth from '../core/Depth.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import * as Hierarchy from '../manifest/Hierarchy.js'
import * as Node from '../manifest/Node.js'
import * as Yaml from '../manifest/Yaml.js'
import type { Facts } from './Facts.js'

// model

export type Format = 'json' | 'yaml'

// constructors

/** The format of a facts file by its name: `.json`, or `.yaml`/`.yml`; undefined for any other file. */
export const formatOf = (name: string): Format | undefined => {
  const lower = name.toLowerCase()
  if (lower.endsWith('.json')) return 'json'
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml'
  return undefined
}

/** Where the first syntax error of a JSON text is, and what it is; undefined when there is none. */
export const jsonError = (t: string): { readonly offset: number; readonly message: string } | undefined => {
  let i = 0
  class Bad extends Error {
    constructor(readonly offset: number, message: string) {
      super(message)
    }
  }
  const fail = (message: string): never => {
    throw new Bad(i, i >= t.length ? 'unexpected end of input' : message)
  }
  const ws = (): void => {
    while (i < t.length && ' \t\n\r'.includes(t[i]!)) i += 1
  }
  const str = (): void => {
    i += 1
    for (;;) {
      const c = t[i]
      if (c === undefined) fail('unterminated string')
      if (c === '"') {
        i += 1
        return
      }
      if (c!.charCodeAt(0) < 0x20) fail('control character in a string (escape it)')
      if (c === '\\') {
        const n = t[i + 1]
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) fail('invalid \\u escape')
          i += 6
          continue
        }
        if (n === undefined || !'"\\/bfnrt'.includes(n)) fail(`invalid escape \\${n ?? ''}`)
        i += 2
        continue
      }
      i += 1
    }
  }
  const value = (): void => {
    ws()
    const c = t[i]
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      i += 1
      ws()
      if (t[i] === close) {
        i += 1
        return
      }
      for (;;) {
        if (c === '{') {
          ws()
          if (t[i] !== '"') fail('expected a string key')
          str()
          ws()
          if (t[i] !== ':') fail("expected ':' after the key")
          i += 1
        }
        value()
        ws()
        if (t[i] === ',') {
          i += 1
          continue
        }
        if (t[i] === close) {
          i += 1
          return
        }
        fail(`expected ',' or '${close}'`)
      }
    }
    if (c === '"') return str()
    const num = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
    num.lastIndex = i
    const m = num.exec(t)
    if (m !== null && m[0] !== '' && m[0] !== '-') {
      i += m[0].length
      return
    }
    for (const lit of ['true', 'false', 'null']) {
      if (t.startsWith(lit, i)) {
        i += lit.length
        return
      }
    }
    fail(c === undefined ? 'unexpected end of input' : `unexpected ${JSON.stringify(c)}`)
  }
  try {
    value()
    ws()
    if (i < t.length) fail('unexpected text after the JSON value')
    return undefined
  } catch (e) {
    if (e instanceof Bad) return { offset: e.offset, message: e.message }
    return { offset: 0, message: 'nested too deeply' }
  }
}

const positionOf = (file: string, text: string, offset: number): Position.Position => {
  let line = 1
  let start = 0
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line += 1
      start = k + 1
    }
  }
  return Position.make(file, line, offset - start + 1)
}

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`)

/** Parses a facts file: a map at the top (an empty YAML file is no facts); errors carry file:line:col. */
export const parse = (file: string, raw: string, format: Format): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Facts> => {
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw
  if (format === 'json') {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      const where = jsonError(text)
      const message = where?.message ?? (e as Error).message
      return E.left([Diagnostic.make('Syntax', `invalid JSON: ${message}`, { at: positionOf(file, text, where?.offset ?? 0) })])
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return E.left([Diagnostic.make('Decode', `a facts file must hold a map (a JSON object), found ${describe(value)}`, { at: Position.make(file, 1, 1) })])
    }
    // as deep as a YAML facts file may nest: the passes over facts (lookups, merging, printing) recurse
    if (Depth.deeperThan(value, Depth.maxData)) return E.left([Diagnostic.make('Decode', `facts nest deeper than ${Depth.maxData} levels`, { at: Position.make(file, 1, 1) })])
    return E.right(value as Facts)
  }
  const node = Yaml.parse(file, text)
  if (E.isLeft(node)) return node
  const root = node.right
  if (root._tag === 'Scalar' && root.value === null) return E.right({})
  if (root._tag !== 'Map') return E.left([Diagnostic.make('Decode', `a facts file must hold a map, found ${Node.describe(root)}`, { at: root.at })])
  return E.right(Hierarchy.toJS(root) as Facts)
}
