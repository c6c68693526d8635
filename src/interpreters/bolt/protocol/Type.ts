// Type: the parameter types of Bolt task metadata (a subset of Puppet's type language): String,
// Boolean, Integer, Float, Numeric, Optional[T], Array[T], Hash, Hash[K, V], Enum[...],
// Variant[...], Data, Any and Undef, with String, Integer and Array size or range bounds. A type
// string is parsed once, when the metadata is read; `check` says why a value does not fit, in
// Puppet's words ("expects a String value, got Integer"), and never throws.
import * as E from 'fp-ts/lib/Either.js'

// model

export type Type =
  | { readonly _tag: 'Any' }
  | { readonly _tag: 'Data' }
  | { readonly _tag: 'Undef' }
  | { readonly _tag: 'Boolean' }
  | { readonly _tag: 'String'; readonly min: number; readonly max: number }
  | { readonly _tag: 'Integer'; readonly min: number; readonly max: number }
  | { readonly _tag: 'Float' }
  | { readonly _tag: 'Numeric' }
  | { readonly _tag: 'Optional'; readonly of: Type }
  | { readonly _tag: 'Array'; readonly of: Type; readonly min: number; readonly max: number }
  | { readonly _tag: 'Hash'; readonly key: Type; readonly value: Type }
  | { readonly _tag: 'Enum'; readonly values: ReadonlyArray<string> }
  | { readonly _tag: 'Variant'; readonly of: ReadonlyArray<Type> }

/** The type of a parameter whose metadata names none. */
export const any: Type = Object.freeze({ _tag: 'Any' })

/** The longest type string read (metadata is hostile input). */
export const maxLength = 4096

// constructors

/** Parses a type string such as `Optional[Array[String[1]]]`, or says why it is not one plait knows. */
export const parse = (text: string): E.Either<string, Type> => {
  if (text.length > maxLength) return E.left(`the type is longer than ${maxLength} characters`)
  const tokens = text.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?[0-9]+|[A-Za-z_][A-Za-z0-9_:]*|\S/g) ?? []
  try {
    return E.right(parseTokens(tokens, 0, tokens.length))
  } catch (e) {
    if (e instanceof ParseError) return E.left(e.message)
    throw e
  }
}

const fail = (why: string): never => {
  throw new ParseError(why)
}

/**
 * The type the tokens from `lo` to `hi` spell. A parameter's type is parsed from its tokens where
 * they are, once: re-joining and reading each level's text again cost time that grew with the
 * nesting squared, and a joined text, longer than the one written, could pass the length limit.
 */
const parseTokens = (tokens: ReadonlyArray<string>, lo: number, hi: number): Type => {
  let i = lo
  const next = (): string => (i < hi ? tokens[i++]! : fail('it ends too early'))
  /** The parameters between [ and ], each as the range of its tokens. */
  const args = (): Array<readonly [number, number]> | undefined => {
    if (i >= hi || tokens[i] !== '[') return undefined
    i++
    const out: Array<readonly [number, number]> = []
    let depth = 0
    let start = i
    for (; i < hi; i++) {
      const t = tokens[i]!
      if (t === '[') depth++
      else if (t === ']' && depth > 0) depth--
      else if ((t === ',' || t === ']') && depth === 0) {
        if (start === i && t === ']' && out.length === 0) {
          i++
          return out
        }
        if (start === i) fail('a parameter between [ and ] is empty')
        out.push([start, i])
        if (t === ']') {
          i++
          return out
        }
        start = i + 1
      }
    }
    return fail('a [ is not closed')
  }
  const textOf = (r: readonly [number, number] | undefined): string | undefined => (r === undefined ? undefined : tokens.slice(r[0], r[1]).join(' '))
  const int = (r: readonly [number, number] | undefined, dflt: number): number => {
    const s = textOf(r)
    if (s === undefined || s === 'default') return dflt
    if (!/^-?[0-9]+$/.test(s)) fail(`${s} is not an integer bound`)
    return Number(s)
  }
  const sub = (r: readonly [number, number]): Type => parseTokens(tokens, r[0], r[1])
  const str = (r: readonly [number, number]): string => {
    const s = textOf(r)!
    if (/^'.*'$|^".*"$/s.test(s)) return s.slice(1, -1).replace(/\\(.)/g, '$1')
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) return s
    return fail(`${s} is not an Enum value`)
  }
  const name = next()
  const a = args()
  if (i !== hi) fail(`unexpected ${tokens[i]} after the type`)
  const none = (t: Type): Type => (a === undefined ? t : fail(`${name} takes no parameters`))
  const bounded = (): [number, number] => {
    if ((a?.length ?? 0) > 2) fail(`${name} takes at most two bounds`)
    return [int(a?.[0], name === 'Integer' ? -Infinity : 0), int(a?.[1], Infinity)]
  }
  switch (name) {
    case 'Any':
      return none(any)
    case 'Data':
    case 'Undef':
    case 'Boolean':
    case 'Float':
    case 'Numeric':
      return none({ _tag: name })
    case 'String':
    case 'Integer': {
      const [min, max] = bounded()
      return { _tag: name, min, max }
    }
    case 'Optional':
      return a?.length === 1 ? { _tag: 'Optional', of: sub(a[0]!) } : fail('Optional takes exactly one type')
    case 'Array': {
      if (a === undefined) return { _tag: 'Array', of: { _tag: 'Data' }, min: 0, max: Infinity }
      if (a.length > 3) fail('Array takes a type and at most two bounds')
      return { _tag: 'Array', of: sub(a[0]!), min: int(a[1], 0), max: int(a[2], Infinity) }
    }
    case 'Hash':
      if (a === undefined) return { _tag: 'Hash', key: { _tag: 'Data' }, value: { _tag: 'Data' } }
      return a.length === 2 ? { _tag: 'Hash', key: sub(a[0]!), value: sub(a[1]!) } : fail('Hash takes a key type and a value type')
    case 'Enum':
      return a !== undefined && a.length > 0 ? { _tag: 'Enum', values: a.map(str) } : fail('Enum takes at least one value')
    case 'Variant':
      return a !== undefined && a.length > 0 ? { _tag: 'Variant', of: a.map(sub) } : fail('Variant takes at least one type')
    default:
      return fail(`${name} is not a type plait knows (String, Boolean, Integer, Float, Numeric, Optional, Array, Hash, Enum, Variant, Data, Any, Undef)`)
  }
}

class ParseError extends Error {}

// guards

/** True when a parameter of this type may be left out (it accepts undef). */
export const acceptsUndef = (t: Type): boolean =>
  t._tag === 'Any' || t._tag === 'Data' || t._tag === 'Undef' || t._tag === 'Optional' || (t._tag === 'Variant' && t.of.some(acceptsUndef))

/** Why a value does not fit a type (Puppet's wording: `expects a String value, got Integer`), or undefined when it fits. */
export const check = (t: Type, v: unknown): string | undefined => (fits(t, v) ? undefined : `expects ${expectation(t)}, got ${describe(v)}`)

const isData = (v: unknown, depth = 0): boolean => {
  if (depth > 100) return false
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.every((x) => isData(x, depth + 1))
  if (typeof v === 'object') return Object.values(v as object).every((x) => isData(x, depth + 1))
  return false
}

/** True when a value fits a type. */
export const fits = (t: Type, v: unknown): boolean => {
  switch (t._tag) {
    case 'Any':
      return true
    case 'Data':
      return isData(v)
    case 'Undef':
      return v === null || v === undefined
    case 'Boolean':
      return typeof v === 'boolean'
    case 'String':
      return typeof v === 'string' && [...v].length >= t.min && [...v].length <= t.max
    case 'Integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= t.min && v <= t.max
    case 'Float':
      return typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)
    case 'Numeric':
      return typeof v === 'number' && Number.isFinite(v)
    case 'Optional':
      return v === null || v === undefined || fits(t.of, v)
    case 'Array':
      return Array.isArray(v) && v.length >= t.min && v.length <= t.max && v.every((x) => fits(t.of, x))
    case 'Hash':
      return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.entries(v).every(([k, x]) => fits(t.key, k) && fits(t.value, x))
    case 'Enum':
      return typeof v === 'string' && t.values.includes(v)
    case 'Variant':
      return t.of.some((x) => fits(x, v))
  }
}

// interop

/** A type as Puppet writes it. */
export const show = (t: Type): string => {
  const bounds = (min: number, max: number, lo: number): string =>
    min === lo && max === Infinity ? '' : `[${min === -Infinity ? 'default' : min}${max === Infinity ? '' : `, ${max}`}]`
  switch (t._tag) {
    case 'String':
      return `String${bounds(t.min, t.max, 0)}`
    case 'Integer':
      return `Integer${bounds(t.min, t.max, -Infinity)}`
    case 'Optional':
      return `Optional[${show(t.of)}]`
    case 'Array':
      return t.of._tag === 'Data' && t.min === 0 && t.max === Infinity ? 'Array' : `Array[${show(t.of)}${t.min === 0 && t.max === Infinity ? '' : `, ${t.min}${t.max === Infinity ? '' : `, ${t.max}`}`}]`
    case 'Hash':
      return t.key._tag === 'Data' && t.value._tag === 'Data' ? 'Hash' : `Hash[${show(t.key)}, ${show(t.value)}]`
    case 'Enum':
      return `Enum[${t.values.map((v) => `'${v.replace(/[\\']/g, '\\$&')}'`).join(', ')}]`
    case 'Variant':
      return `Variant[${t.of.map(show).join(', ')}]`
    default:
      return t._tag
  }
}

const expectation = (t: Type): string => (t._tag === 'Enum' ? `a match for ${show(t)}` : /^[AEIOU]/.test(show(t)) ? `an ${show(t)} value` : `a ${show(t)} value`)

/** The Puppet name of a value's type: String, Integer, Float, Boolean, Undef, Array, Hash. */
export const describe = (v: unknown): string => {
  if (v === null || v === undefined) return 'Undef'
  if (typeof v === 'string') return 'String'
  if (typeof v === 'boolean') return 'Boolean'
  if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float'
  if (Array.isArray(v)) return 'Array'
  return typeof v === 'object' ? 'Hash' : typeof v
}
