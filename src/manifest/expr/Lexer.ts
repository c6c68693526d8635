// Lexer: expression source to tokens with their offsets, following expr-lang's lexer.
import * as E from 'fp-ts/lib/Either.js'
import * as ExprError from './ExprError.js'

// model

export type Kind = 'Identifier' | 'Number' | 'String' | 'Operator' | 'Bracket' | 'EOF'

export interface Token {
  readonly kind: Kind
  /** The token's value: a string literal's decoded text, a number's spelling, an operator. */
  readonly value: string
  /** Offsets (UTF-16 code units) of the token's first character and just past its last. */
  readonly offset: number
  readonly end: number
}

/** Words that lex as operators. */
export const wordOperators: ReadonlySet<string> = new Set(['not', 'in', 'or', 'and', 'matches', 'contains', 'startsWith', 'endsWith', 'let'])

// guards

/** Draws a token as expr-lang's messages do: `Operator("+")`, `EOF`. */
export const describe = (t: Token): string => (t.value === '' ? t.kind : `${t.kind}(${JSON.stringify(t.value)})`)

/** True for a token of the kind and, when given, one of the values. */
export const is = (t: Token, kind: Kind, ...values: ReadonlyArray<string>): boolean =>
  t.kind === kind && (values.length === 0 || values.includes(t.value))

const isSpace = (c: string): boolean => /^\s$/u.test(c)
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9'
/** Letters, digits, `_` and `$` make identifiers, as in expr-lang. */
export const isIdentChar = (c: string | undefined): boolean => c !== undefined && (c === '_' || c === '$' || /^[\p{L}\p{N}]$/u.test(c))
export const isIdentStart = (c: string | undefined): boolean => c !== undefined && (c === '_' || c === '$' || /^\p{L}$/u.test(c))

// lexing

/** Splits a source into tokens ending with EOF, or the first lexical error. */
export const lex = (src: string): E.Either<ExprError.ExprError, ReadonlyArray<Token>> => {
  const out: Token[] = []
  let i = 0
  const push = (kind: Kind, value: string, start: number): void => {
    out.push(Object.freeze({ kind, value, offset: start, end: i }))
  }
  while (i < src.length) {
    const c = String.fromCodePoint(src.codePointAt(i)!)
    const start = i
    if (isSpace(c)) {
      i += c.length
    } else if (c === '"' || c === "'") {
      const s = scanString(src, i, c)
      if (E.isLeft(s)) return s
      i = s.right.end
      push('String', s.right.value, start)
    } else if (c === '`') {
      const close = src.indexOf('`', i + 1)
      if (close < 0) return E.left(ExprError.syntax('literal not terminated', src.length))
      i = close + 1
      push('String', src.slice(start + 1, close), start)
    } else if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
      const n = scanNumber(src, i)
      if (E.isLeft(n)) return n
      i = n.right
      push('Number', src.slice(start, i), start)
    } else if ('([{)]}'.includes(c)) {
      i += 1
      push('Bracket', c, start)
    } else if (c === '/' && src[i + 1] === '/') {
      const nl = src.indexOf('\n', i)
      i = nl < 0 ? src.length : nl
    } else if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2)
      if (close < 0) return E.left(ExprError.syntax('unclosed comment', src.length))
      i = close + 2
    } else if (c === '?') {
      i += src[i + 1] === '.' || src[i + 1] === '?' ? 2 : 1
      push('Operator', src.slice(start, i), start)
    } else if (c === '.') {
      i += src[i + 1] === '.' ? 2 : 1
      push('Operator', src.slice(start, i), start)
    } else if ('#,:%+-^/;'.includes(c)) {
      i += c === ':' && src[i + 1] === ':' ? 2 : 1
      push('Operator', src.slice(start, i), start)
    } else if ('&|!=*<>'.includes(c)) {
      i += '&|=*'.includes(src[i + 1] ?? '') ? 2 : 1
      push('Operator', src.slice(start, i), start)
    } else if (isIdentStart(c)) {
      while (i < src.length) {
        const d = String.fromCodePoint(src.codePointAt(i)!)
        if (!isIdentChar(d)) break
        i += d.length
      }
      const word = src.slice(start, i)
      push(wordOperators.has(word) ? 'Operator' : 'Identifier', word, start)
    } else {
      const cp = c.codePointAt(0)!
      return E.left(ExprError.syntax(`unrecognized character: U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${c}'`, start))
    }
  }
  // As in expr-lang, the end of the expression is reported at its last character.
  out.push(Object.freeze({ kind: 'EOF', value: '', offset: Math.max(0, src.length - 1), end: src.length }))
  return E.right(out)
}

/** Scans digits, `.`, exponent and `_` as expr-lang does; the parser validates the spelling. */
const scanNumber = (src: string, from: number): E.Either<ExprError.ExprError, number> => {
  let i = from
  let digits = /[0-9_]/
  if (src[i] === '0' && /[xXoObB]/.test(src[i + 1] ?? '')) {
    const p = src[i + 1]!.toLowerCase()
    digits = p === 'x' ? /[0-9a-fA-F_]/ : p === 'o' ? /[0-7_]/ : /[01_]/
    i += 2
  }
  const run = (): void => {
    while (i < src.length && digits.test(src[i]!)) i += 1
  }
  run()
  if (src[i] === '.' && src[i + 1] !== '.') {
    i += 1
    run()
  }
  if (src[i] === 'e' || src[i] === 'E') {
    i += 1
    if (src[i] === '+' || src[i] === '-') i += 1
    run()
  }
  if (isIdentChar(src[i])) return E.left(ExprError.syntax(`bad number syntax: ${JSON.stringify(src.slice(from, i + 1))}`, i))
  return E.right(i)
}

/** Scans a quoted string with Go's escapes; errors point just past the offending character. */
const scanString = (src: string, from: number, quote: string): E.Either<ExprError.ExprError, { value: string; end: number }> => {
  let i = from + 1
  let value = ''
  // \x and octal escapes give bytes, as in Go: consecutive ones are decoded together as UTF-8.
  let bytes: number[] = []
  const add = (s: string): void => {
    flush()
    value += s
  }
  const flush = (): void => {
    if (bytes.length > 0) value += new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bytes))
    bytes = []
  }
  const bad = (at: number): E.Either<ExprError.ExprError, never> => E.left(ExprError.syntax('invalid char escape', Math.min(at, src.length)))
  const simple: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' }
  while (true) {
    if (i >= src.length || src[i] === '\n') return E.left(ExprError.syntax('literal not terminated', i))
    const c = src[i]!
    if (c === quote) {
      flush()
      return E.right({ value, end: i + 1 })
    }
    if (c !== '\\') {
      add(c)
      i += 1
      continue
    }
    const e = src[i + 1]
    i += 2
    if (e !== undefined && simple[e] !== undefined) {
      add(simple[e]!)
    } else if (e === quote) {
      add(e)
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8
      const hex = src.slice(i, i + n)
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return bad(i + 1)
      const cp = parseInt(hex, 16)
      if (e === 'x') bytes.push(cp)
      else if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return bad(i + n)
      else add(String.fromCodePoint(cp))
      i += n
    } else if (e !== undefined && e >= '0' && e <= '7') {
      const oct = src.slice(i - 1, i + 2)
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) return bad(i + 1)
      bytes.push(parseInt(oct, 8))
      i += 2
    } else {
      return bad(i)
    }
  }
}
