// Value: libral's attribute data types (string, boolean, array[string], enum[...]) and their typed
// values, with the codecs of every place a value crosses: wire text, JSON, manifest YAML, display.
//
// Invariants: a Value always inhabits the DataType it was decoded with; an array[string] value's
// elements are non-empty, carry no ',' and no surrounding whitespace when it must travel as text.
import * as E from 'fp-ts/lib/Either.js'

// model

/** An attribute's data type, as provider metadata spells it (`type:`; default `string`). */
export type DataType =
  | { readonly _tag: 'String' }
  | { readonly _tag: 'Boolean' }
  | { readonly _tag: 'ArrayString' }
  | { readonly _tag: 'Enum'; readonly options: ReadonlyArray<string> }

/** A typed attribute value: a string (string and enum), a boolean, or a list of strings. */
export type Value = string | boolean | ReadonlyArray<string>

// constructors

export const string: DataType = Object.freeze({ _tag: 'String' })
export const boolean: DataType = Object.freeze({ _tag: 'Boolean' })
export const arrayString: DataType = Object.freeze({ _tag: 'ArrayString' })

/** An enum type of the given options. */
export const enumOf = (options: ReadonlyArray<string>): DataType => Object.freeze({ _tag: 'Enum', options: Object.freeze([...options]) })

const enumOption = /^[A-Za-z0-9_.+-]+$/

/** Parses a metadata type (`string`, `boolean`, `array[string]`, `enum[a, b]`), or says why not. */
export const parseType = (text: string): E.Either<string, DataType> => {
  const t = text.trim()
  if (t === 'string') return E.right(string)
  if (t === 'boolean') return E.right(boolean)
  if (/^array\s*\[\s*string\s*\]$/.test(t)) return E.right(arrayString)
  const m = /^enum\s*\[(.*)\]$/s.exec(t)
  if (m !== null) {
    const options = m[1]!.split(',').map((o) => o.trim())
    if (options.length === 1 && options[0] === '') return E.left(`bad enum type "${text}": it lists no options`)
    const bad = options.find((o) => !enumOption.test(o))
    if (bad !== undefined) return E.left(`bad enum type "${text}": option "${bad}" must be letters, digits, '_', '.', '+' or '-'`)
    const dup = options.find((o, i) => options.indexOf(o) !== i)
    if (dup !== undefined) return E.left(`bad enum type "${text}": option "${dup}" is listed twice`)
    return E.right(enumOf(options))
  }
  return E.left(`unknown type "${text}" (expected string, boolean, array[string] or enum[...])`)
}

// guards

/** True when a value inhabits a type. */
export const is = (t: DataType, v: Value): boolean => {
  switch (t._tag) {
    case 'String':
      return typeof v === 'string'
    case 'Boolean':
      return typeof v === 'boolean'
    case 'ArrayString':
      return Array.isArray(v) && v.every((x) => typeof x === 'string')
    case 'Enum':
      return typeof v === 'string' && t.options.includes(v)
  }
}

/** Type-exact equality: a boolean never equals a string, arrays compare element by element. */
export const equals = (a: Value | undefined, b: Value | undefined): boolean => {
  if (a === undefined || b === undefined) return a === b
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((x, i) => x === b[i])
  }
  return a === b
}

// interop

/** The metadata spelling of a type. */
export const formatType = (t: DataType): string => {
  switch (t._tag) {
    case 'String':
      return 'string'
    case 'Boolean':
      return 'boolean'
    case 'ArrayString':
      return 'array[string]'
    case 'Enum':
      return `enum[${t.options.join(', ')}]`
  }
}

/**
 * Reads a value from text, as a `# simple` output line or a `ralsh`-style `attr=value` argument
 * carries it: booleans are `true`/`false` (any case), arrays are comma-separated (an empty text is
 * the empty list; a blank entry is refused), enums must be one of their options.
 */
export const readText = (t: DataType, text: string): E.Either<string, Value> => {
  switch (t._tag) {
    case 'String':
      return E.right(text)
    case 'Boolean': {
      const l = text.toLowerCase()
      return l === 'true' ? E.right(true) : l === 'false' ? E.right(false) : E.left(`"${text}" is not a boolean (true or false)`)
    }
    case 'ArrayString': {
      if (text.trim() === '') return E.right([])
      const items = text.split(',').map((x) => x.trim())
      return items.some((x) => x === '') ? E.left(`bad array "${text}": entries can not be blank`) : E.right(items)
    }
    case 'Enum':
      return t.options.includes(text) ? E.right(text) : E.left(`"${text}" is not one of ${t.options.join(', ')}`)
  }
}

/**
 * Writes a value as text for the `simple` convention (the inverse of `readText`). Refuses what the
 * text form can not carry back intact: an array entry that is empty, holds ',' or has surrounding
 * whitespace.
 */
export const writeText = (v: Value): E.Either<string, string> => {
  if (typeof v === 'boolean') return E.right(v ? 'true' : 'false')
  if (typeof v === 'string') return E.right(v)
  const bad = v.find((x) => x === '' || x.includes(',') || x.trim() !== x)
  if (bad !== undefined) return E.left(`array entry ${JSON.stringify(bad)} can not be passed as text (empty, holds ',' or surrounding whitespace)`)
  return E.right(v.join(','))
}

/** Reads a value of the `json` convention: a JSON string, boolean (or "true"/"false") or array of strings. */
export const fromJson = (t: DataType, j: unknown): E.Either<string, Value> => {
  switch (t._tag) {
    case 'String':
      return typeof j === 'string' ? E.right(j) : E.left(`expected a string, found ${jsonKind(j)}`)
    case 'Boolean':
      if (typeof j === 'boolean') return E.right(j)
      return typeof j === 'string' ? readText(t, j) : E.left(`expected a boolean, found ${jsonKind(j)}`)
    case 'ArrayString':
      return Array.isArray(j) && j.every((x) => typeof x === 'string') ? E.right([...(j as string[])]) : E.left(`expected an array of strings, found ${jsonKind(j)}`)
    case 'Enum':
      return typeof j === 'string' ? readText(t, j) : E.left(`expected one of ${t.options.join(', ')}, found ${jsonKind(j)}`)
  }
}

/** A value as JSON (the `json` convention, plan files, `--json` output). */
export const toJson = (v: Value): string | boolean | string[] => (Array.isArray(v) ? [...v] : (v as string | boolean))

/**
 * Reads a value as a manifest gives it (a YAML scalar or list): strings for strings and enums
 * (numbers are taken as their text), real booleans for booleans, lists of strings for arrays.
 * A boolean is not a string: `true` for a string attribute is refused, and so is "true" for a boolean.
 */
export const decode = (t: DataType, j: unknown): E.Either<string, Value> => {
  const asText = (x: unknown): string | undefined => (typeof x === 'string' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : undefined)
  switch (t._tag) {
    case 'String': {
      const s = asText(j)
      return s !== undefined ? E.right(s) : E.left(`expected a string, found ${jsonKind(j)}${typeof j === 'boolean' ? ' (quote it to mean the text)' : ''}`)
    }
    case 'Boolean':
      return typeof j === 'boolean' ? E.right(j) : E.left(`expected a boolean (true or false), found ${jsonKind(j)}`)
    case 'ArrayString': {
      if (!Array.isArray(j)) {
        const s = asText(j)
        return s !== undefined ? E.right([s]) : E.left(`expected a list of strings, found ${jsonKind(j)}`)
      }
      const items = j.map(asText)
      const bad = items.findIndex((x) => x === undefined)
      return bad >= 0 ? E.left(`expected a list of strings, item ${bad + 1} is ${jsonKind(j[bad])}`) : E.right(items as string[])
    }
    case 'Enum': {
      const s = asText(j)
      return s === undefined ? E.left(`expected one of ${t.options.join(', ')}, found ${jsonKind(j)}`) : readText(t, s)
    }
  }
}

/** A value drawn for people: `'text'` (with `\\` and `\'` escaped, control characters spelled out), `['a', 'b']`. */
export const render = (v: Value | undefined): string => {
  if (v === undefined) return 'absent'
  if (Array.isArray(v)) return `[${v.map((x) => quote(x)).join(', ')}]`
  return quote(typeof v === 'boolean' ? (v ? 'true' : 'false') : (v as string))
}

/** How `render` spells a character it escapes: '\\', '\'', and every control character. */
const escapeOf = (c: string): string => {
  if (c === '\\' || c === "'") return `\\${c}`
  if (c === '\n') return '\\n'
  if (c === '\t') return '\\t'
  if (c === '\r') return '\\r'
  return `\\u{${c.charCodeAt(0).toString(16)}}`
}

// The characters to escape are all single UTF-16 units below 0x80, so matching code units finds
// exactly what a walk over code points finds. One replace, with the spellings looked up rather than
// built per match, avoids building a long value character by character (a 16 MB value took
// seconds, mostly in the garbage collector).
// eslint-disable-next-line no-control-regex
const toEscape = /[\\'\u0000-\u001f\u007f]/g
const spelling: ReadonlyArray<string> = Array.from({ length: 0x80 }, (_, i) => escapeOf(String.fromCharCode(i)))

const quote = (s: string): string => `'${s.replace(toEscape, (c) => spelling[c.charCodeAt(0)]!)}'`

const jsonKind = (j: unknown): string => {
  if (j === null || j === undefined) return 'nothing'
  if (Array.isArray(j)) return 'a list'
  if (typeof j === 'object') return 'a map'
  if (typeof j === 'string') return `the string ${JSON.stringify(j)}`
  return `${typeof j === 'boolean' ? 'the boolean' : 'the number'} ${String(j)}`
}
