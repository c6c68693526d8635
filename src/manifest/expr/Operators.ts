// Operators: what expr-lang's unary and binary operators compute on values (Go's int and float
// rules: int arithmetic wraps at 64 bits, `/` and `**` always give a float, `%` takes ints only).
import * as Budget from './Budget.js'
import * as E from 'fp-ts/lib/Either.js'
import type { BinaryOp, UnaryOp } from './Ast.js'
import * as Regex from './Regex.js'
import * as Value from './Value.js'

type V = Value.Value
type Result = E.Either<string, V>

/** expr-lang's run-time message for operands of the wrong types (the type check words it differently). */
const mismatch = (op: string, a: V, b: V): Result => E.left(`invalid operation: ${Value.goType(a)} ${op} ${Value.goType(b)}`)

/** The largest array `..` builds, as expr-lang's memory budget. */
export const rangeLimit = 1_000_000

/** Applies a unary operator. */
export const unary = (op: UnaryOp, v: V): Result => {
  switch (op) {
    case '-':
      if (typeof v === 'bigint') return E.right(BigInt.asIntN(64, -v))
      if (typeof v === 'number') return E.right(-v)
      break
    case '+':
      if (Value.isNumber(v)) return E.right(v)
      break
    case '!':
    case 'not':
      if (typeof v === 'boolean') return E.right(!v)
      break
  }
  return E.left(`invalid operation: ${op} ${Value.goType(v)}`)
}

/** Orders two values for `<`, `>`, `<=`, `>=`: numbers, strings (bytewise) and times. */
export const compare = (op: string, a: V, b: V): E.Either<string, number> => {
  if (typeof a === 'bigint' && typeof b === 'bigint') return E.right(a < b ? -1 : a > b ? 1 : 0)
  if (Value.isNumber(a) && Value.isNumber(b)) {
    const x = Number(a)
    const y = Number(b)
    return E.right(x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN)
  }
  if (typeof a === 'string' && typeof b === 'string') return E.right(Value.compareStrings(a, b))
  if (a instanceof Value.Time && b instanceof Value.Time) return E.right(Math.sign(a.millis - b.millis))
  return E.left(`invalid operation: ${Value.goType(a)} ${op} ${Value.goType(b)}`)
}

/** `in`: an element of an array (by `==`), a key of a map; nothing is in nil. */
export const member = (needle: V, haystack: V): Result => {
  if (haystack === null) return E.right(false)
  if (Value.isArray(haystack)) return E.right(haystack.some((x) => Value.equal(x, needle)))
  if (Value.isMap(haystack)) {
    if (typeof needle !== 'string') return E.left(`cannot use ${Value.goType(needle)} as index to ${Value.goType(haystack)}`)
    return E.right(Value.get(haystack, needle) !== undefined)
  }
  return E.left(`operator "in" not defined on ${Value.goType(haystack)}`)
}

/**
 * Applies a binary operator to two evaluated operands. `and`, `or` and `??` short-circuit, so the
 * evaluator handles them; here they only check their operands.
 */
export const binary = (op: BinaryOp, a: V, b: V): Result => {
  switch (op) {
    case 'and':
    case '&&':
    case 'or':
    case '||':
      if (typeof a !== 'boolean' || typeof b !== 'boolean') return mismatch(op, a, b)
      return E.right(op === 'and' || op === '&&' ? a && b : a || b)
    case '??':
      return E.right(a === null ? b : a)
    case '==':
      return E.right(Value.equal(a, b))
    case '!=':
      return E.right(!Value.equal(a, b))
    case '<':
    case '>':
    case '<=':
    case '>=':
      return E.map((c: number) => (op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0))(compare(op, a, b))
    case 'in':
      return member(a, b)
    case 'matches':
      if (typeof a !== 'string' || typeof b !== 'string') return mismatch(op, a, b)
      return E.map((r: { test: (s: string) => boolean }) => r.test(a))(Regex.compile(b))
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      if (typeof a !== 'string' || typeof b !== 'string') return mismatch(op, a, b)
      return E.right(op === 'contains' ? a.includes(b) : op === 'startsWith' ? a.startsWith(b) : a.endsWith(b))
    case '..':
      if (typeof a !== 'bigint' || typeof b !== 'bigint') return mismatch(op, a, b)
      if (b - a + 1n > BigInt(rangeLimit)) return E.left('memory budget exceeded')
      return E.right(b < a ? Value.array([]) : Value.array(Array.from({ length: Number(b - a + 1n) }, (_, i) => a + BigInt(i))))
    case '+':
      if (typeof a === 'string' && typeof b === 'string') return E.map(() => a + b)(Budget.string('+', a.length + b.length))
      return arithmetic(op, a, b, (x, y) => x + y, (x, y) => x + y)
    case '-':
      return arithmetic(op, a, b, (x, y) => x - y, (x, y) => x - y)
    case '*':
      return arithmetic(op, a, b, (x, y) => x * y, (x, y) => x * y)
    case '/':
      if (!Value.isNumber(a) || !Value.isNumber(b)) return mismatch(op, a, b)
      return E.right(Number(a) / Number(b))
    case '%':
      if (typeof a !== 'bigint' || typeof b !== 'bigint') return mismatch(op, a, b)
      if (b === 0n) return E.left('integer divide by zero')
      return E.right(BigInt.asIntN(64, a % b))
    case '**':
    case '^':
      if (!Value.isNumber(a) || !Value.isNumber(b)) return mismatch(op, a, b)
      return E.right(Math.pow(Number(a), Number(b)))
  }
}

const arithmetic = (op: string, a: V, b: V, ints: (x: bigint, y: bigint) => bigint, floats: (x: number, y: number) => number): Result => {
  if (typeof a === 'bigint' && typeof b === 'bigint') return E.right(BigInt.asIntN(64, ints(a, b)))
  if (Value.isNumber(a) && Value.isNumber(b)) return E.right(floats(Number(a), Number(b)))
  return mismatch(op, a, b)
}

/** Slices an array or a string (in bytes), with negative bounds counted from the end, clamped. */
export const slice = (v: Value.Value, from: Value.Value, to: Value.Value): E.Either<string, Value.Value> => {
  const isString = typeof v === 'string'
  if (!Value.isArray(v) && !isString) return E.left(`cannot slice ${Value.goType(v)}`)
  for (const b of [from, to]) if (b !== null && typeof b !== 'bigint') return E.left(`invalid operation: non-integer slice index ${Value.goType(b)}`)
  const bytes = isString ? Value.utf8.encode(v) : undefined
  const length = bytes === undefined ? (v as ReadonlyArray<Value.Value>).length : bytes.length
  const bound = (b: Value.Value, dflt: number): number => {
    if (b === null) return dflt
    const x = Number(b as bigint)
    return Math.min(Math.max(x < 0 ? length + x : x, 0), length)
  }
  const b = bound(to, length)
  const a = Math.min(bound(from, 0), b)
  return E.right(bytes === undefined ? Value.array((v as ReadonlyArray<Value.Value>).slice(a, b)) : Value.utf8.decode(bytes.slice(a, b)))
}
