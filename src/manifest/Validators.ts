// Validators: CCM's data validators (choria-io/validator) as pure functions that follow Go's own
// syntax rules (net.ParseIP, math/big, fisk durations, RE2), and the small expression form
// `@validate` uses: validator calls combined with `||`, `&&` and `!`.
//
// Sections: model, the validators (IP, numbers, durations, shell safety, host names, regular
// expressions through Re2.ts), the table, and the expression form.
import * as E from 'fp-ts/lib/Either.js'
import * as WhiteSpace from '../core/WhiteSpace.js'
import { compileRegex, hexValue } from '../re2/Re2.js'
import * as Value from './expr/Value.js'
export { compileRegex, type Regex } from '../re2/Re2.js'

// model

/** A validator's answer: passes, or fails with the reason in words. */
export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string }

/** One validator: its expr-lang names (camelCase and CCM's snake_case alias) and its check. */
export interface Validator {
  readonly name: string
  readonly alias: string
  /** The parameters, in order ("value", or "value" and "pattern"). */
  readonly params: ReadonlyArray<string>
  /** Left for a call that cannot be evaluated at all (isRegex with an invalid pattern). */
  readonly check: (args: ReadonlyArray<string>) => E.Either<string, Verdict>
}

/** What a validation expression gave: whether it holds, and the reasons of the calls that failed. */
export interface Outcome {
  readonly ok: boolean
  readonly reasons: ReadonlyArray<string>
}

const pass: Verdict = Object.freeze({ ok: true })
const fail = (reason: string): Verdict => Object.freeze({ ok: false, reason })

// IP addresses (Go's net.ParseIP: netip.ParseAddr without a zone)

/** Parses an address as Go's net.ParseIP does: its 16 bytes (IPv4 as v4-mapped), or why not. */
export const parseIP = (s: string): E.Either<string, Uint8Array> => {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '.') {
      const out = new Uint8Array(16)
      out[10] = 0xff
      out[11] = 0xff
      const err = ipv4Fields(s, out, 12)
      return err === undefined ? E.right(out) : E.left(err)
    }
    if (c === ':') return parseIPv6(s)
    if (c === '%') return E.left('missing IPv6 address')
  }
  return E.left('unable to parse IP')
}

/** Whether 16 address bytes are an IPv4 address (v4-mapped), as Go's IP.To4 says. */
export const isV4 = (ip: Uint8Array): boolean => ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff

const ipv4Fields = (s: string, out: Uint8Array, at: number): string | undefined => {
  let val = 0
  let pos = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      if (digits === 1 && val === 0) return 'IPv4 field has octet with leading zero'
      val = val * 10 + (c - 48)
      digits += 1
      if (val > 255) return 'IPv4 field has value >255'
    } else if (c === 46) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return 'IPv4 field must have at least one digit'
      if (pos === 3) return 'IPv4 address too long'
      out[at + pos] = val
      pos += 1
      val = 0
      digits = 0
    } else {
      return 'unexpected character'
    }
  }
  if (pos < 3) return 'IPv4 address too short'
  out[at + 3] = val
  return undefined
}


const parseIPv6 = (input: string): E.Either<string, Uint8Array> => {
  let s = input
  const percent = s.indexOf('%')
  if (percent >= 0) {
    if (percent === s.length - 1) return E.left('zone must be a non-empty string')
    return E.left('IPv6 zones are not allowed')
  }
  const ip = new Uint8Array(16)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s === '') return E.right(ip)
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const v = hexValue(s.charCodeAt(off))
      if (v < 0) break
      if (off > 3) return E.left('each group must have 4 or less digits')
      acc = acc * 16 + v
    }
    if (off === 0) return E.left('each colon-separated field must have at least one digit')
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return E.left('embedded IPv4 address must replace the final 2 fields of the address')
      if (i + 4 > 16) return E.left('too many hex fields to fit an embedded IPv4 at the end of the address')
      const err = ipv4Fields(s, ip, i)
      if (err !== undefined) return E.left(err)
      s = ''
      i += 4
      break
    }
    ip[i] = acc >> 8
    ip[i + 1] = acc & 0xff
    i += 2
    s = s.slice(off)
    if (s === '') break
    if (s[0] !== ':') return E.left('unexpected character, want colon')
    if (s.length === 1) return E.left('colon must be followed by more characters')
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) return E.left('multiple :: in address')
      ellipsis = i
      s = s.slice(1)
      if (s === '') break
    }
  }
  if (s !== '') return E.left('trailing garbage after address')
  if (i < 16) {
    if (ellipsis < 0) return E.left('address string too short')
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    return E.left('the :: must expand to at least one field of zeros')
  }
  return E.right(ip)
}

/** isIP: an IPv4 or IPv6 address. */
export const isIP = (s: string): Verdict => {
  const ip = parseIP(s)
  return E.isRight(ip) ? pass : fail(`${s} is not an IP address (${ip.left})`)
}

/** isIPv4: an IPv4 address, or an IPv4-mapped IPv6 one (`::ffff:10.0.0.1`), as Go's To4 accepts. */
export const isIPv4 = (s: string): Verdict => {
  const ip = parseIP(s)
  if (E.isLeft(ip)) return fail(`${s} is not an IPv4 address (${ip.left})`)
  return isV4(ip.right) ? pass : fail(`${s} is not an IPv4 address`)
}

/** isIPv6: an IPv6 address that is not IPv4-mapped. */
export const isIPv6 = (s: string): Verdict => {
  const ip = parseIP(s)
  if (E.isLeft(ip)) return fail(`${s} is not an IPv6 address (${ip.left})`)
  return isV4(ip.right) ? fail(`${s} is not an IPv6 address`) : pass
}

// numbers (math/big, base 10)

/** isInt: big.Int SetString in base 10: an optional sign and decimal digits, of any size. */
export const isInt = (s: string): Verdict => (/^[+-]?[0-9]+$/.test(s) ? pass : fail(`${s} is not an integer`))

const minExp = -(2 ** 31)
const maxExp = 2 ** 31 - 1
const int64Min = -(2n ** 63n)
const int64Max = 2n ** 63n - 1n

/**
 * isFloat: big.ParseFloat in base 10: an optional sign, then `inf`/`Inf`, or a decimal mantissa
 * with an optional decimal (`e`) or binary (`p`) exponent. No underscores, no NaN, no hex; an
 * exponent beyond what big.Float holds (2^±2147483647) is refused as Go refuses it.
 */
export const isFloat = (s: string): Verdict => {
  const bad = fail(`${s} is not a floating point number`)
  if (/^[+-]?(inf|Inf)$/.test(s)) return pass
  const m = /^[+-]?(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))(?:[eEpP]([+-]?[0-9]+))?$/.exec(s)
  if (m === null) return bad
  const intPart = m[1] ?? ''
  const frac = m[1] !== undefined ? (m[2] ?? '') : (m[3] ?? '')
  const exp = m[4] === undefined ? 0n : BigInt(m[4])
  if (exp < int64Min || exp > int64Max) return bad
  const digits = (intPart + frac).replace(/^0+/, '')
  if (digits === '') return pass // zero: no exponent check
  const bits = BigInt(BigInt(digits).toString(2).length)
  const exp2 = bits - BigInt(frac.length) + exp
  return exp2 >= BigInt(minExp) && exp2 <= BigInt(maxExp) ? pass : bad
}

// durations (fisk.ParseDuration: Go's units plus w, d, M, y)

const goUnits: Readonly<Record<string, bigint>> = { ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n }
const longUnits = new Set(['w', 'W', 'd', 'D', 'M', 'y', 'Y'])
const float32Max = 3.4028234663852886e38

/**
 * isDuration: fisk.ParseDuration: "0", or segments `[sign]<number><unit>` with Go's units (ns, us,
 * ms, s, m, h) and w/W, d/D, M (30 days), y/Y (365 days): `1h30m`, `-1y1d`, `1.5w`. Unlike fisk,
 * which skips text between segments, the whole string must be segments.
 */
export const isDuration = (raw: string): Verdict => {
  const bad = (why: string): Verdict => fail(`${raw} is not a duration (${why})`)
  if (raw === '0') return pass
  const s = WhiteSpace.trimGo(raw) // Go's strings.TrimSpace, walked by index (a regex trim is quadratic: WhiteSpace.ts)
  if (s === '') return bad('empty')
  const segment = /([-+]?)(([\d.]+)([a-zA-Z]+))/y
  let at = 0
  while (at < s.length) {
    segment.lastIndex = at
    const m = segment.exec(s)
    if (m === null) return bad(`unexpected "${s.slice(at)}"`)
    at = segment.lastIndex
    const num = m[3]!
    const unit = m[4]!
    if (longUnits.has(unit)) {
      if (!/^(?:\d+\.?\d*|\.\d+)$/.test(num) || Number(num) > float32Max) return bad(`invalid number ${num}`)
    } else if (goUnits[unit] !== undefined) {
      const why = goDurationProblem(num, goUnits[unit]!)
      if (why !== undefined) return bad(why)
    } else {
      return bad(`invalid unit ${unit}`)
    }
  }
  return pass
}

// time.ParseDuration of one unsigned `<number><unit>`: digits, optional fraction, and no overflow.
const goDurationProblem = (num: string, unit: bigint): string | undefined => {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(num)
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) return `invalid number ${num}`
  const whole = m[1] === '' ? 0n : BigInt(m[1]!)
  if (whole > 2n ** 63n / unit) return 'overflow'
  let total = whole * unit
  const frac = m[2] ?? ''
  if (frac !== '' && /[1-9]/.test(frac)) total += BigInt(Math.floor(Number('0.' + frac) * Number(unit)))
  return total > int64Max ? 'overflow' : undefined
}

// shell safety and host names

const shellUnsafe = ['`', '$', ';', '|', '&', '>', '<', '(', ')', '\n'] as const

/** isShellSafe: after trimming space, none of `` ` $ ; | & > < ( ) `` or a newline. */
export const isShellSafe = (s: string): Verdict => {
  const t = WhiteSpace.trimGo(s)
  for (const c of shellUnsafe) if (t.includes(c)) return fail(`may not contain '${c === '\n' ? '\\n' : c}'`)
  return pass
}

const hostnameRFC1123 = /^([a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62}){1}(\.[a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62})*?$/
const fqdnRFC1123 = /^([a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62})(\.[a-zA-Z0-9]{1}[a-zA-Z0-9-]{0,62})*?(\.[a-zA-Z]{1}[a-zA-Z0-9-]{0,62})\.?$/

/** isHostname: dot-separated labels of letters, digits and hyphens, each starting with a letter or digit. */
export const isHostname = (s: string): Verdict => (hostnameRFC1123.test(s) ? pass : fail(`"${s}" is not a valid hostname`))

/** isFQDN: two labels or more, the last starting with a letter, and an optional final dot. */
export const isFQDN = (s: string): Verdict => (fqdnRFC1123.test(s) ? pass : fail(`"${s}" is not a valid FQDN`))

/** isRegex: the value matches a Go (RE2) regular expression anywhere; an invalid pattern is an error. */
export const isRegex = (value: string, pattern: string): E.Either<string, Verdict> => {
  const re = compileRegex(pattern)
  if (E.isLeft(re)) return E.left(`invalid regex ${JSON.stringify(pattern)}: ${re.left}`)
  return E.right(re.right.test(value) ? pass : fail(`${JSON.stringify(value)} does not match ${JSON.stringify(pattern)}`))
}

// the table

const one = (name: string, alias: string, f: (s: string) => Verdict): Validator =>
  Object.freeze({ name, alias, params: ['value'], check: (args: ReadonlyArray<string>) => E.right(f(args[0]!)) })

/** Every validator CCM's `@validate` knows, in the order of CCM's documentation. */
export const all: ReadonlyArray<Validator> = Object.freeze([
  one('isIP', 'is_ip', isIP),
  one('isIPv4', 'is_ipv4', isIPv4),
  one('isIPv6', 'is_ipv6', isIPv6),
  one('isInt', 'is_int', isInt),
  one('isFloat', 'is_float', isFloat),
  one('isDuration', 'is_duration', isDuration),
  Object.freeze({ name: 'isRegex', alias: 'is_regex', params: ['value', 'pattern'], check: (args: ReadonlyArray<string>) => isRegex(args[0]!, args[1]!) }),
  one('isShellSafe', 'is_shellsafe', isShellSafe),
  one('isHostname', 'is_hostname', isHostname),
  one('isFQDN', 'is_fqdn', isFQDN),
])

/** The validators by every name they answer to (camelCase and snake_case). */
export const byName: ReadonlyMap<string, Validator> = new Map(all.flatMap((v) => [[v.name, v] as const, [v.alias, v] as const]))

/** Calls a validator by name with evaluated arguments, checking their number and types as expr-lang does. */
export const call = (name: string, args: ReadonlyArray<unknown>): E.Either<string, Verdict> => {
  const v = byName.get(name)
  if (v === undefined) return E.left(`unknown function ${name}`)
  if (args.length !== v.params.length) {
    return E.left(`${name} takes ${v.params.length} argument${v.params.length === 1 ? '' : 's'} (${v.params.join(', ')}), got ${args.length}`)
  }
  const strings: string[] = []
  for (const [k, a] of args.entries()) {
    if (typeof a !== 'string') return E.left(`${name}: argument ${k + 1} (${v.params[k]}) must be a string, got ${a === null ? 'nil' : typeof a}`)
    strings.push(a)
  }
  return v.check(strings)
}

/**
 * The validators as functions for an expression language (every name, camelCase and snake_case):
 * each gives a boolean, or an error for wrong arguments or an invalid pattern; the reason of each
 * call that fails goes to `onFail`, for the message of a failed `@validate`.
 */
export const functions = (onFail: (reason: string) => void = () => undefined): ReadonlyMap<string, (args: ReadonlyArray<unknown>) => E.Either<string, boolean>> =>
  new Map(
    [...byName.keys()].map((name) => [
      name,
      (args: ReadonlyArray<unknown>) =>
        E.map((v: Verdict) => {
          if (!v.ok) onFail(v.reason)
          return v.ok
        })(call(name, args)),
    ]),
  )

// interop

/** A data value as Go's fmt.Sprint writes it (CCM validates that text); undefined for maps, lists and nil. */
export const text = (v: unknown): string | undefined => {
  if (typeof v !== 'string' && typeof v !== 'boolean' && typeof v !== 'bigint' && typeof v !== 'number') return undefined
  // CCM turns integral numbers that fit an int into ints; the expression language prints values as Go does.
  return Value.format(typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v) : v)
}
