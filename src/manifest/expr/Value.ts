// Value: what expressions compute, with expr-lang's (Go's) kinds kept apart: nil, bool, int
// (bigint, 64-bit, wrapping), float (number), string, array, map and time.

import * as Memo from '../../core/Memo.js'

// model

export type Value = null | boolean | bigint | number | string | Time | ReadonlyArray<Value> | ValueMap

/** A map from string keys; created without a prototype, frozen. */
export interface ValueMap {
  readonly [key: string]: Value
}

/** An instant (from `now()`), in milliseconds since the epoch, UTC. */
export class Time {
  readonly _tag = 'Time'
  constructor(readonly millis: number) {
    Object.freeze(this)
  }
}

/** The kinds a value can have; names as expr-lang's `type()` gives them. */
export type Kind = 'nil' | 'bool' | 'int' | 'float' | 'string' | 'array' | 'map' | 'time'

// constructors

const pad = (n: number, w = 2): string => String(n).padStart(w, '0')

/** Builds a frozen map value from entries (a later duplicate key wins, as in Go). */
export const map = (entries: Iterable<readonly [string, Value]>): ValueMap => {
  const out: Record<string, Value> = Object.create(null) as Record<string, Value>
  for (const [k, v] of entries) out[k] = v
  return Object.freeze(out)
}

/** Builds a frozen array value. */
export const array = (items: ReadonlyArray<Value>): ReadonlyArray<Value> => Object.freeze([...items])

/** An int from a JS number or bigint, wrapped to 64 bits. */
export const int = (n: number | bigint): bigint => BigInt.asIntN(64, typeof n === 'bigint' ? n : BigInt(Math.trunc(n)))

/** Builds a time from an RFC 3339 string (`2024-05-06T07:08:09Z`, an offset or fraction allowed) or epoch milliseconds. */
export const time = (t: string | number): Time | undefined => {
  if (typeof t === 'number') return Number.isFinite(t) ? new Time(t) : undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(t)
  if (!m) return undefined
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]))
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || se! > 60) return undefined
  const ms = Number(((m[7] ?? '') + '000').slice(0, 3))
  const offset = m[8] !== undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) * 60_000
  return new Time(daysFromCivil(y!, mo!, d!) * 86_400_000 + ((h! * 60 + mi!) * 60 + se!) * 1000 + ms - offset)
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
const daysFromCivil = (y0: number, m: number, d: number): number => {
  const y = m <= 2 ? y0 - 1 : y0
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/** The UTC calendar fields of a time (no Date object: pure modules use no clock). */
export const calendar = (t: Time): {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly millisecond: number
  readonly weekday: number
  readonly yearDay: number
} => {
  const days = Math.floor(t.millis / 86_400_000)
  const rest = t.millis - days * 86_400_000
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  return {
    year,
    month,
    day,
    hour: Math.floor(rest / 3_600_000),
    minute: Math.floor(rest / 60_000) % 60,
    second: Math.floor(rest / 1000) % 60,
    millisecond: rest % 1000,
    weekday: (((days + 4) % 7) + 7) % 7,
    yearDay: days - daysFromCivil(year, 1, 1) + 1,
  }
}

/** RFC 3339 with the shortest fraction, as Go's RFC3339Nano: `2024-05-06T07:08:09.5Z`. */
export const isoTime = (t: Time): string => {
  const c = calendar(t)
  const frac = c.millisecond === 0 ? '' : `.${pad(c.millisecond, 3).replace(/0+$/, '')}`
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}${frac}Z`
}

/**
 * Converts plain JS data (parsed YAML or JSON) to a value: a whole number becomes an int (as CCM's
 * hierarchy normalises them), any other number a float; objects become maps. Anything that is not
 * data (functions, symbols, undefined) becomes nil.
 */
export const fromJS = (x: unknown): Value => {
  if (x === null || x === undefined) return null
  if (typeof x === 'boolean' || typeof x === 'string') return x
  if (typeof x === 'bigint') return int(x)
  if (typeof x === 'number') return Number.isInteger(x) && Number.isSafeInteger(x) ? BigInt(x) : x
  if (x instanceof Time) return x
  if (Array.isArray(x)) return array(x.map(fromJS))
  if (typeof x === 'object') return map(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fromJS(v)] as const))
  return null
}

// guards

/** True for a map value. */
export const isMap = (v: Value): v is ValueMap => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Time)

/** True for an array value. */
export const isArray = (v: Value): v is ReadonlyArray<Value> => Array.isArray(v)

/** The kind of a value. */
export const kind = (v: Value): Kind => {
  if (v === null) return 'nil'
  switch (typeof v) {
    case 'boolean':
      return 'bool'
    case 'bigint':
      return 'int'
    case 'number':
      return 'float'
    case 'string':
      return 'string'
  }
  if (v instanceof Time) return 'time'
  return Array.isArray(v) ? 'array' : 'map'
}

/** The Go type name expr-lang's messages use for a value (`int`, `float64`, `[]interface {}`, ...). */
export const goType = (v: Value): string => goTypeOf(kind(v))

/** The Go type name of a kind. */
export const goTypeOf = (k: Kind): string => {
  switch (k) {
    case 'nil':
      return '<nil>'
    case 'float':
      return 'float64'
    case 'array':
      return '[]interface {}'
    case 'map':
      return 'map[string]interface {}'
    case 'time':
      return 'time.Time'
    default:
      return k
  }
}

/** Own-key lookup in a map (never the prototype chain). */
export const get = (m: ValueMap, key: string): Value | undefined => (Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined)

/** The keys of a map, sorted (Go's order is unspecified; plait's is deterministic). */
export const keys = (m: ValueMap): ReadonlyArray<string> => Object.keys(m).sort(compareStrings)

/** Compares strings by code point, which is Go's byte order on UTF-8. */
export const compareStrings = (a: string, b: string): number => {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y)
  }
  return a.length - b.length
}

/** Surrogates stand for code points above U+FFFF, so they rank after U+E000..U+FFFF. */
const codeUnitRank = (u: number): number => (u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u)

// combinators

/** expr-lang's `==`: numbers by value across int and float; collections deeply, kinds included. */
export const equal = (a: Value, b: Value): boolean => {
  if (isNumber(a) && isNumber(b)) return typeof a === typeof b ? a === b : Number(a) === Number(b)
  return deepEqual(a, b)
}

const deepEqual = (a: Value, b: Value): boolean => {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a)
  const ka = kind(a)
  if (ka !== kind(b)) return false
  if (ka === 'time') return (a as Time).millis === (b as Time).millis
  if (ka === 'array') {
    const xa = a as ReadonlyArray<Value>
    const xb = b as ReadonlyArray<Value>
    return xa.length === xb.length && xa.every((x, i) => deepEqual(x, xb[i]!))
  }
  if (ka === 'map') {
    const ma = a as ValueMap
    const mb = b as ValueMap
    const ks = Object.keys(ma)
    return ks.length === Object.keys(mb).length && ks.every((k) => get(mb, k) !== undefined && deepEqual(ma[k]!, mb[k]!))
  }
  return false
}

/** True for an int or a float. */
export const isNumber = (v: Value): v is bigint | number => typeof v === 'bigint' || typeof v === 'number'

/** Truncates a float toward zero into an int as Go's int(x) does (NaN and out-of-range give MinInt64). */
export const truncate = (f: number): bigint => {
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63)) return -9223372036854775808n
  return BigInt(Math.trunc(f))
}

// interop

/**
 * UTF-8 helpers: expr-lang measures, indexes and slices strings in bytes, as Go does. The bytes
 * of the last few long strings are kept (`recentBytes`): a loop over a string's bytes (`s[#]`, or
 * `len(s)` at each step) encoded the whole string at every step, quadratic in its length (80,000
 * characters: 5.2 s). What `encode` gives is shared and must not be changed.
 */
export const utf8 = {
  encode: (s: string): Uint8Array => (s.length < longString ? encoder.encode(s) : recentBytes(s)),
  decode: (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(b),
  length: (s: string): number => {
    if (s.length >= longString) return recentBytes(s).length
    let n = 0
    for (const ch of s) {
      const c = ch.codePointAt(0)!
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4
    }
    return n
  },
}

const encoder = new TextEncoder()

/** From how many UTF-16 units a string's bytes are kept, and for how many strings at once. */
const longString = 256
const keptStrings = 4

const recent = Memo.recent<Uint8Array>(keptStrings)

/** A long string's UTF-8 bytes, encoded once while it is among the last few asked for. */
const recentBytes = (s: string): Uint8Array => recent(s, () => encoder.encode(s))

/** Converts a value to plain JS data: ints become numbers (strings past 2^53), times ISO strings. */
export const toJS = (v: Value): unknown => {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (v instanceof Time) return isoTime(v)
  if (Array.isArray(v)) return v.map(toJS)
  if (isMap(v)) {
    const out: Record<string, unknown> = {}
    for (const k of keys(v)) Object.defineProperty(out, k, { value: toJS(v[k]!), enumerable: true, writable: true, configurable: true })
    return out
  }
  return v
}

/** Formats a float as Go's `%v` does (shortest digits; an exponent below 1e-4 and from 1e6 up). */
export const formatFloat = (f: number): string => {
  if (Number.isNaN(f)) return 'NaN'
  if (f === Infinity) return '+Inf'
  if (f === -Infinity) return '-Inf'
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  const [mant, expText] = f.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  return plainDecimal(mant, exp)
}

/** Writes mantissa digits (as `toExponential` gives them) `d.ddd` times 10^exp without an exponent. */
export const plainDecimal = (mant: string, exp: number): string => {
  const neg = mant.startsWith('-')
  const digits = mant.replace('-', '').replace('.', '')
  const point = exp + 1
  let s: string
  if (point <= 0) s = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) s = digits + '0'.repeat(point - digits.length)
  else s = `${digits.slice(0, point)}.${digits.slice(point)}`
  return neg ? `-${s}` : s
}

/** Formats a time as Go's `%v` does for a UTC time: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export const formatTime = (t: Time): string => {
  const c = calendar(t)
  const frac = c.millisecond === 0 ? '' : `.${pad(c.millisecond, 3).replace(/0+$/, '')}`
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)} ${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}${frac} +0000 UTC`
}

/** Formats a value as Go's `fmt.Sprint` does: what `string()` and template interpolation produce. */
export const format = (v: Value): string => {
  if (v === null) return '<nil>'
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false'
    case 'bigint':
      return v.toString()
    case 'number':
      return formatFloat(v)
    case 'string':
      return v
  }
  if (v instanceof Time) return formatTime(v)
  if (Array.isArray(v)) return `[${v.map(format).join(' ')}]`
  const m = v as ValueMap
  return `map[${keys(m)
    .map((k) => `${k}:${format(m[k]!)}`)
    .join(' ')}]`
}
