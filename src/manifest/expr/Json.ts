// Json: `toJSON` and `fromJSON` as expr-lang has them, that is Go's encoding/json: sorted keys,
// two-space indentation, HTML-safe escapes, and every decoded number a float.
import * as E from 'fp-ts/lib/Either.js'
import * as Depth from '../../core/Depth.js'
import * as Value from './Value.js'

// encoding

/** Encodes a value as Go's json.MarshalIndent(v, "", "  ") does; NaN and infinities are errors. */
export const encode = (v: Value.Value): E.Either<string, string> => {
  try {
    return E.right(write(v, ''))
  } catch (e) {
    if (e instanceof Unsupported) return E.left(e.message)
    if (e instanceof RangeError) return E.left('json: exceeded max depth')
    throw e
  }
}

class Unsupported {
  constructor(readonly message: string) {}
}

const write = (v: Value.Value, indent: string): string => {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false'
    case 'bigint':
      return v.toString()
    case 'number':
      return number(v)
    case 'string':
      return quote(v)
  }
  if (v instanceof Value.Time) return quote(Value.isoTime(v))
  const inner = `${indent}  `
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]'
    return `[\n${v.map((x) => inner + write(x, inner)).join(',\n')}\n${indent}]`
  }
  const m = v as Value.ValueMap
  const keys = Value.keys(m)
  if (keys.length === 0) return '{}'
  return `{\n${keys.map((k) => `${inner}${quote(k)}: ${write(m[k]!, inner)}`).join(',\n')}\n${indent}}`
}

/** Go's float encoding: plain decimals from 1e-6 to 1e21, exponents (e-7, e+21) outside. */
const number = (f: number): string => {
  if (!Number.isFinite(f)) throw new Unsupported(`json: unsupported value: ${Value.formatFloat(f)}`)
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  const abs = Math.abs(f)
  const [mant, expText] = f.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  if (abs < 1e-6 || abs >= 1e21) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(exp < 0 ? 1 : 2, '0')}`
  return Value.plainDecimal(mant, exp)
}

/** Quotes a string as Go does, escaping <, > and & and U+2028/2029; lone surrogates become U+FFFD. */
export const quote = (s: string): string => {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd'
    else out += ch
  }
  return `${out}"`
}

// decoding

/** Decodes JSON text as Go's json.Unmarshal into `any` does: numbers are floats, objects maps. */
export const decode = (text: string): E.Either<string, Value.Value> => {
  let raw: unknown
  try {
    raw = JSON.parse(text) as unknown
  } catch (e) {
    return E.left(e instanceof SyntaxError ? syntaxError(text) : e instanceof RangeError ? 'json: exceeded max depth' : 'invalid JSON')
  }
  // Go's decoder stops at 10,000 levels; plait at the depth any data of a manifest may have, so that no later pass over the value recurses too deep
  if (Depth.deeperThan(raw, Depth.maxData)) return E.left('json: exceeded max depth')
  let out: Value.Value | undefined
  try {
    out = toValue(raw)
  } catch (e) {
    if (e instanceof RangeError) return E.left('json: exceeded max depth')
    throw e
  }
  return out === undefined ? E.left('json: cannot unmarshal a number out of the range of float64') : E.right(out)
}

/** Words a JSON syntax error as Go's encoding/json does: finds the first bad character itself. */
const syntaxError = (text: string): string => {
  let i = 0
  const end = (): never => {
    throw new Bad('unexpected end of JSON input')
  }
  const bad = (context: string): never => {
    const c = text[i]!
    throw new Bad(`invalid character ${c === "'" ? "'\\''" : `'${c}'`} ${context}`)
  }
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1
  }
  const literal = (word: string): void => {
    for (const ch of word) {
      if (i >= text.length) end()
      if (text[i] !== ch) bad(`in literal ${word} (expecting '${ch}')`)
      i += 1
    }
  }
  const string = (): void => {
    i += 1
    while (true) {
      if (i >= text.length) end()
      const c = text[i]!
      if (c === '"') {
        i += 1
        return
      }
      if (c < ' ') bad('in string literal')
      if (c === '\\') {
        i += 1
        if (i >= text.length) end()
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k += 1) {
            i += 1
            if (i >= text.length) end()
            if (!/[0-9a-fA-F]/.test(text[i]!)) bad('in \\u hexadecimal character escape')
          }
        } else if (!'"\\/bfnrt'.includes(text[i]!)) bad('in string escape code')
      }
      i += 1
    }
  }
  const number = (): void => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i))
    if (!m || m[0] === '-') {
      i += 1
      if (i >= text.length) end()
      bad('in numeric literal')
    }
    i += m![0].length
  }
  const value = (): void => {
    space()
    if (i >= text.length) end()
    const c = text[i]!
    if (c === '{') {
      i += 1
      space()
      if (text[i] === '}') {
        i += 1
        return
      }
      while (true) {
        space()
        if (i >= text.length) end()
        if (text[i] !== '"') bad('looking for beginning of object key string')
        string()
        space()
        if (i >= text.length) end()
        if (text[i] !== ':') bad('after object key')
        i += 1
        value()
        space()
        if (i >= text.length) end()
        if (text[i] === '}') {
          i += 1
          return
        }
        if (text[i] !== ',') bad('after object key:value pair')
        i += 1
      }
    }
    if (c === '[') {
      i += 1
      space()
      if (text[i] === ']') {
        i += 1
        return
      }
      while (true) {
        value()
        space()
        if (i >= text.length) end()
        if (text[i] === ']') {
          i += 1
          return
        }
        if (text[i] !== ',') bad('after array element')
        i += 1
      }
    }
    if (c === '"') return string()
    if (c === 't') return literal('true')
    if (c === 'f') return literal('false')
    if (c === 'n') return literal('null')
    if (c === '-' || (c >= '0' && c <= '9')) return number()
    return bad('looking for beginning of value')
  }
  try {
    value()
    space()
    if (i < text.length) bad('after top-level value')
    return 'invalid JSON'
  } catch (e) {
    if (e instanceof Bad) return e.message
    if (e instanceof RangeError) return 'json: exceeded max depth'
    throw e
  }
}

class Bad {
  constructor(readonly message: string) {}
}

const toValue = (x: unknown): Value.Value | undefined => {
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return x
  if (typeof x === 'number') return Number.isFinite(x) ? x : undefined
  if (Array.isArray(x)) {
    const items: Value.Value[] = []
    for (const i of x) {
      const v = toValue(i)
      if (v === undefined) return undefined
      items.push(v)
    }
    return Value.array(items)
  }
  const entries: Array<readonly [string, Value.Value]> = []
  for (const [k, i] of Object.entries(x as Record<string, unknown>)) {
    const v = toValue(i)
    if (v === undefined) return undefined
    entries.push([k, v])
  }
  return Value.map(entries)
}
