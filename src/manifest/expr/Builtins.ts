// Builtins: expr-lang's built-in functions that CCM manifests use, with their signatures (for the
// type check) and their meaning on values (Go's strings and strconv rules).
import * as E from 'fp-ts/lib/Either.js'
import * as Budget from './Budget.js'
import * as Json from './Json.js'
import * as Value from './Value.js'
import * as WhiteSpace from '../../core/WhiteSpace.js'

type V = Value.Value
type Result = E.Either<string, V>

/** A static type: a kind, `any` (not known before evaluation) or `environ` (a map of strings). */
export type Type = Value.Kind | 'any' | 'environ'

export interface Builtin {
  readonly min: number
  readonly max: number
  /** Accepted kinds per argument position (the last repeats); empty for any. */
  readonly params: ReadonlyArray<ReadonlyArray<Value.Kind>>
  readonly result: Type
  readonly run: (args: ReadonlyArray<V>) => Result
}

const str = (name: string, v: V): E.Either<string, string> => (typeof v === 'string' ? E.right(v) : E.left(`invalid argument for ${name} (type ${Value.goType(v)})`))

/**
 * Go's unicode.ToUpper / ToLower: one code point for one (no "ß" to "SS"). ASCII text, where
 * JavaScript's own mapping is one for one too, is mapped whole: a code point at a time took some
 * 400 ns each (16 Mi characters: 7 s).
 */
export const mapCase = (s: string, up: boolean): string => (isAscii(s) ? (up ? s.toUpperCase() : s.toLowerCase()) : mapEach(s, up))

const isAscii = (s: string): boolean => {
  for (let i = 0; i < s.length; i += 1) if (s.charCodeAt(i) > 0x7f) return false
  return true
}

const mapEach = (s: string, up: boolean): string =>
  [...s]
    .map((ch) => {
      const m = up ? ch.toUpperCase() : ch.toLowerCase()
      return [...m].length === 1 ? m : ch
    })
    .join('')

const trim = (s: string, drop: (ch: string) => boolean): string => {
  const cps = [...s]
  let a = 0
  let b = cps.length
  while (a < b && drop(cps[a]!)) a += 1
  while (b > a && drop(cps[b - 1]!)) b -= 1
  return cps.slice(a, b).join('')
}

/** Go's strings.SplitN: n < 0 all parts, n == 0 none, an empty separator splits code points. */
const splitN = (s: string, sep: string, n: number): ReadonlyArray<string> => {
  if (n === 0) return []
  if (sep === '') {
    const cps = [...s]
    if (n < 0 || n >= cps.length) return cps
    return [...cps.slice(0, n - 1), cps.slice(n - 1).join('')]
  }
  const parts = s.split(sep)
  if (n < 0 || parts.length <= n) return parts
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)]
}

/** Go's strings.Replace: n < 0 replaces all; an empty `old` matches at every code point boundary. */
const replaceN = (s: string, old: string, repl: string, n: number): string => {
  if (old === '') {
    const cps = [...s]
    let out = ''
    let done = 0
    for (let i = 0; i <= cps.length; i += 1) {
      if (n < 0 || done < n) {
        out += repl
        done += 1
      }
      if (i < cps.length) out += cps[i]
    }
    return out
  }
  if (n < 0) return s.split(old).join(repl)
  let out = ''
  let rest = s
  for (let done = 0; done < n; done += 1) {
    const at = rest.indexOf(old)
    if (at < 0) break
    out += rest.slice(0, at) + repl
    rest = rest.slice(at + old.length)
  }
  return out + rest
}

/** Go's strconv.Atoi: an optional sign and decimal digits that fit 64 bits. */
const atoi = (s: string): bigint | undefined => {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined
  const n = BigInt(s)
  return n === BigInt.asIntN(64, n) ? n : undefined
}

/** Go's strconv.ParseFloat for decimal, exponent, and inf / nan spellings. */
const parseFloat64 = (s: string): number | undefined => {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity
  if (/^nan$/i.test(s)) return NaN
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return undefined
  const f = Number(s)
  return Number.isFinite(f) ? f : undefined
}

const intOf = (name: string, v: V): E.Either<string, number> => (typeof v === 'bigint' ? E.right(Number(v)) : E.left(`invalid argument for ${name} (type ${Value.goType(v)})`))

/** Go's reflect kind names, which `keys` and `values` use in their errors. */
const goKind = (v: V): string => {
  switch (Value.kind(v)) {
    case 'nil':
      return 'invalid'
    case 'array':
      return 'slice'
    case 'float':
      return 'float64'
    case 'time':
      return 'struct'
    default:
      return Value.kind(v)
  }
}

const strings = (vs: ReadonlyArray<string>): V => Value.array(vs)

const all = (name: string, args: ReadonlyArray<V>): E.Either<string, ReadonlyArray<string>> => {
  const out: string[] = []
  for (const a of args) {
    const s = str(name, a)
    if (E.isLeft(s)) return s
    out.push(s.right)
  }
  return E.right(out)
}

/** The built-ins, by name. */
export const builtins: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  [
    'len',
    {
      min: 1, max: 1, params: [['array', 'map', 'string']], result: 'int',
      run: ([v]) => {
        const x = v ?? null
        if (typeof x === 'string') return E.right(BigInt(Value.utf8.length(x)))
        if (Value.isArray(x)) return E.right(BigInt(x.length))
        if (Value.isMap(x)) return E.right(BigInt(Object.keys(x).length))
        return E.left(`invalid argument for len (type ${Value.goType(x)})`)
      },
    },
  ],
  ['upper', { min: 1, max: 1, params: [['string']], result: 'string', run: ([v]) => E.map((s: string) => mapCase(s, true) as V)(str('upper', v ?? null)) }],
  ['lower', { min: 1, max: 1, params: [['string']], result: 'string', run: ([v]) => E.map((s: string) => mapCase(s, false) as V)(str('lower', v ?? null)) }],
  [
    'trim',
    {
      min: 1, max: 2, params: [['string']], result: 'string',
      run: (args) =>
        E.map(([s, cut]: ReadonlyArray<string>) => (cut === undefined ? WhiteSpace.trimGo(s!) : trim(s!, (ch) => cut.includes(ch))) as V)(all('trim', args)),
    },
  ],
  [
    'split',
    {
      min: 2, max: 3, params: [['string'], ['string'], ['int']], result: 'array',
      run: ([s, sep, n]) => {
        const parts = all('split', [s ?? null, sep ?? null])
        if (E.isLeft(parts)) return parts
        const count = n === undefined ? E.right(-1) : intOf('split', n)
        if (E.isLeft(count)) return count
        const [text, by] = parts.right as [string, string]
        const pieces = by === '' ? Budget.codePoints(text) : Budget.occurrences(text, by, count.right < 0 ? -1 : count.right) + 1
        const fits = Budget.items('split', count.right < 0 ? pieces : Math.min(pieces, count.right))
        if (E.isLeft(fits)) return fits
        return E.right(strings(splitN(text, by, count.right)))
      },
    },
  ],
  [
    'join',
    {
      min: 1, max: 2, params: [['array'], ['string']], result: 'string',
      run: ([list, glue]) => {
        const g = glue === undefined ? E.right('') : str('join', glue)
        if (E.isLeft(g)) return g
        if (!Value.isArray(list ?? null)) return E.left(`invalid argument for join (type ${Value.goType(list ?? null)})`)
        const texts = all('join', list as ReadonlyArray<V>)
        if (E.isLeft(texts)) return texts
        const length = texts.right.reduce((sum, t) => sum + t.length, 0) + g.right.length * Math.max(0, texts.right.length - 1)
        const fits = Budget.string('join', length)
        return E.isLeft(fits) ? fits : E.right(texts.right.join(g.right) as V)
      },
    },
  ],
  [
    'replace',
    {
      min: 3, max: 4, params: [['string'], ['string'], ['string'], ['int']], result: 'string',
      run: ([s, old, repl, n]) => {
        const parts = all('replace', [s ?? null, old ?? null, repl ?? null])
        if (E.isLeft(parts)) return parts
        const count = n === undefined ? E.right(-1) : intOf('replace', n)
        if (E.isLeft(count)) return count
        const [a, b, c] = parts.right as [string, string, string]
        const hits = b === '' ? Math.min(Budget.codePoints(a) + 1, count.right < 0 ? Infinity : count.right) : Budget.occurrences(a, b, count.right)
        const fits = Budget.string('replace', a.length + hits * (c.length - b.length))
        return E.isLeft(fits) ? fits : E.right(replaceN(a, b, c, count.right))
      },
    },
  ],
  [
    'keys',
    {
      min: 1, max: 1, params: [['map']], result: 'array',
      run: ([m]) => (Value.isMap(m ?? null) ? E.right(strings(Value.keys(m as Value.ValueMap))) : E.left(`cannot get keys from ${goKind(m ?? null)}`)),
    },
  ],
  [
    'values',
    {
      min: 1, max: 1, params: [['map']], result: 'array',
      run: ([m]) => {
        if (!Value.isMap(m ?? null)) return E.left(`cannot get values from ${goKind(m ?? null)}`)
        const x = m as Value.ValueMap
        return E.right(Value.array(Value.keys(x).map((k) => x[k]!)))
      },
    },
  ],
  ['toJSON', { min: 1, max: 1, params: [], result: 'string', run: ([v]) => Json.encode(v ?? null) }],
  ['fromJSON', { min: 1, max: 1, params: [['string']], result: 'any', run: ([v]) => E.chain(Json.decode)(str('fromJSON', v ?? null)) }],
  [
    'int',
    {
      min: 1, max: 1, params: [['int', 'float', 'string']], result: 'int',
      run: ([v]) => {
        const x = v ?? null
        if (typeof x === 'bigint') return E.right(x)
        if (typeof x === 'number') return E.right(Value.truncate(x))
        if (typeof x === 'string') {
          const n = atoi(x)
          return n === undefined ? E.left(`invalid operation: int(${x})`) : E.right(n)
        }
        return E.left(`invalid operation: int(${Value.goType(x)})`)
      },
    },
  ],
  [
    'float',
    {
      min: 1, max: 1, params: [['int', 'float', 'string']], result: 'float',
      run: ([v]) => {
        const x = v ?? null
        if (Value.isNumber(x)) return E.right(Number(x))
        if (typeof x === 'string') {
          const f = parseFloat64(x)
          return f === undefined ? E.left(`invalid operation: float(${x})`) : E.right(f)
        }
        return E.left(`invalid operation: float(${Value.goType(x)})`)
      },
    },
  ],
  ['string', { min: 1, max: 1, params: [], result: 'string', run: ([v]) => E.right(Value.format(v ?? null)) }],
])

/** Calls a method of a time value (`now().Year()`); each gives an int. */
export const timeMethod = (t: Value.Time, name: string, args: number): E.Either<string, Value.Value> => {
  if (args > 0) return E.left(`too many arguments to call ${name}`)
  const c = Value.calendar(t)
  const values: Readonly<Record<string, number>> = {
    Year: c.year,
    Month: c.month,
    Day: c.day,
    Hour: c.hour,
    Minute: c.minute,
    Second: c.second,
    Nanosecond: c.millisecond * 1_000_000,
    YearDay: c.yearDay,
    Weekday: c.weekday,
    Unix: Math.floor(t.millis / 1000),
    UnixMilli: t.millis,
  }
  const v = values[name]
  return v === undefined ? E.left(`type time.Time has no method ${name}`) : E.right(BigInt(v))
}

/** The methods a time value has. */
export const timeMethods: ReadonlySet<string> = new Set(['Year', 'Month', 'Day', 'Hour', 'Minute', 'Second', 'Nanosecond', 'YearDay', 'Weekday', 'Unix', 'UnixMilli'])

/** Checks an argument count, with expr-lang's message. */
export const arity = (name: string, b: Builtin, count: number): E.Either<string, void> => {
  if (count >= b.min && count <= b.max) return E.right(undefined)
  const expected = b.min === b.max ? `${b.min}` : `${b.min} or ${b.max}`
  return E.left(`invalid number of arguments for ${name} (expected ${expected}, got ${count})`)
}

/** The kinds a built-in accepts at an argument position (undefined: any). */
export const accepts = (b: Builtin, position: number): ReadonlyArray<Value.Kind> | undefined => {
  if (b.params.length === 0) return undefined
  return b.params[Math.min(position, b.params.length - 1)]
}
