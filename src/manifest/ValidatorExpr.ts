// ValidatorExpr: the small expression form `@validate` uses without the expression language:
// validator calls joined by ||, && and !, over the annotated value (`isIPv4(value) || isIPv6(value)`).
import * as E from 'fp-ts/lib/Either.js'
import { byName, call, type Outcome } from './Validators.js'

// the expression form: `isIPv4(value) || isIPv6(value)`, `!isInt(value)`, `is_regex(value, "^a")`

type Token =
  | { readonly k: 'id'; readonly v: string; readonly at: number }
  | { readonly k: 'str'; readonly v: string; readonly at: number }
  | { readonly k: 'op'; readonly v: string; readonly at: number }

const unsupported = (what: string, at: number): string =>
  `${what} at column ${at + 1}: without the expression language plait evaluates validator calls joined by ||, && and !`

const unquote = (body: string, quote: string, at: number): E.Either<string, string> => {
  if (quote === '`') return E.right(body)
  let out = ''
  for (let k = 0; k < body.length; k++) {
    const c = body[k]!
    if (c !== '\\') {
      out += c
      continue
    }
    const n = body[k + 1]
    const simple: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' }
    if (n !== undefined && simple[n] !== undefined) {
      out += simple[n]
      k += 1
      continue
    }
    const hex = n === 'x' ? 2 : n === 'u' ? 4 : n === 'U' ? 8 : 0
    if (hex > 0 && /^[0-9a-fA-F]+$/.test(body.slice(k + 2, k + 2 + hex)) && body.slice(k + 2, k + 2 + hex).length === hex) {
      const cp = parseInt(body.slice(k + 2, k + 2 + hex), 16)
      if (cp > 0x10ffff) return E.left(`invalid escape in string at column ${at + k + 2}`)
      out += String.fromCodePoint(cp)
      k += 1 + hex
      continue
    }
    if (n !== undefined && /^[0-7]{3}$/.test(body.slice(k + 1, k + 4)) && parseInt(body.slice(k + 1, k + 4), 8) < 256) {
      out += String.fromCharCode(parseInt(body.slice(k + 1, k + 4), 8))
      k += 3
      continue
    }
    return E.left(`invalid escape \\${n ?? ''} in string at column ${at + k + 2}`)
  }
  return E.right(out)
}

const tokenize = (src: string): E.Either<string, ReadonlyArray<Token>> => {
  const out: Token[] = []
  let k = 0
  while (k < src.length) {
    const c = src[k]!
    if (/\s/.test(c)) {
      k += 1
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(k))![0]
      out.push({ k: 'id', v: m, at: k })
      k += m.length
    } else if (c === '"' || c === "'" || c === '`') {
      let end = k + 1
      while (end < src.length && src[end] !== c) end += c !== '`' && src[end] === '\\' ? 2 : 1
      if (end >= src.length) return E.left(`unterminated string at column ${k + 1}`)
      const v = unquote(src.slice(k + 1, end), c, k)
      if (E.isLeft(v)) return v
      out.push({ k: 'str', v: v.right, at: k })
      k = end + 1
    } else if (src.startsWith('&&', k) || src.startsWith('||', k)) {
      out.push({ k: 'op', v: src.slice(k, k + 2), at: k })
      k += 2
    } else if ('(),!'.includes(c) && !src.startsWith('!=', k)) {
      out.push({ k: 'op', v: c, at: k })
      k += 1
    } else {
      return E.left(unsupported(`unsupported "${src.slice(k, k + 2).trim()}"`, k))
    }
  }
  return E.right(out)
}

/**
 * Evaluates a `@validate` expression with `value` (and `Value`) bound to the data value as text:
 * validator calls, string literals, `true`/`false`, `!`/`not`, `&&`/`and`, `||`/`or` and
 * parentheses. Left for an expression it cannot evaluate (a syntax error, an unknown name, or a
 * construct that needs the full expression language).
 */
export const evaluate = (expression: string, value: string): E.Either<string, Outcome> => {
  const tokens = tokenize(expression)
  if (E.isLeft(tokens)) return tokens
  const ts = tokens.right
  let pos = 0
  const reasons: string[] = []
  const peek = (): Token | undefined => ts[pos]
  const isOp = (t: Token | undefined, ...vs: string[]): boolean =>
    t !== undefined && ((t.k === 'op' && vs.includes(t.v)) || (t.k === 'id' && vs.includes(t.v)))
  const end = (): number => (ts.length === 0 ? 0 : ts[ts.length - 1]!.at + 1)
  type R = E.Either<string, boolean>

  const or = (live: boolean): R => {
    let left = and(live)
    while (E.isRight(left) && isOp(peek(), '||', 'or')) {
      pos += 1
      const right = and(live && !left.right)
      if (E.isLeft(right)) return right
      left = E.right(left.right || right.right)
    }
    return left
  }
  const and = (live: boolean): R => {
    let left = not(live)
    while (E.isRight(left) && isOp(peek(), '&&', 'and')) {
      pos += 1
      const right = not(live && left.right)
      if (E.isLeft(right)) return right
      left = E.right(left.right && right.right)
    }
    return left
  }
  const not = (live: boolean): R => {
    if (isOp(peek(), '!', 'not')) {
      pos += 1
      return E.map((b: boolean) => !b)(not(live))
    }
    return primary(live)
  }
  const argument = (): E.Either<string, unknown> => {
    const t = peek()
    if (t === undefined) return E.left(`expected an argument at column ${end() + 1}`)
    pos += 1
    if (t.k === 'str') return E.right(t.v)
    if (t.k === 'id' && (t.v === 'value' || t.v === 'Value')) return E.right(value)
    if (t.k === 'id' && (t.v === 'true' || t.v === 'false')) return E.right(t.v === 'true')
    if (t.k === 'id') return E.left(`unknown name ${t.v} at column ${t.at + 1}`)
    return E.left(`unexpected "${t.v}" at column ${t.at + 1}`)
  }
  // `live` is false where a short circuit means the call would not run: it is checked, not counted.
  const primary = (live: boolean): R => {
    const t = peek()
    if (t === undefined) return E.left(`expected a validator call at column ${end() + 1}`)
    pos += 1
    if (t.k === 'op' && t.v === '(') {
      const inner = or(live)
      if (E.isLeft(inner)) return inner
      if (!isOp(peek(), ')')) return E.left(`expected ")" at column ${peek()?.at === undefined ? end() + 1 : peek()!.at + 1}`)
      pos += 1
      return inner
    }
    if (t.k === 'id' && (t.v === 'true' || t.v === 'false')) return E.right(t.v === 'true')
    if (t.k === 'id' && !isOp(peek(), '(')) {
      return E.left(t.v === 'value' || t.v === 'Value' ? unsupported(`"${t.v}" on its own`, t.at) : `unknown name ${t.v} at column ${t.at + 1}`)
    }
    if (t.k !== 'id') return E.left(t.k === 'str' ? unsupported('a string on its own', t.at) : `unexpected "${t.v}" at column ${t.at + 1}`)
    if (!byName.has(t.v)) return E.left(unsupported(`unknown function ${t.v}`, t.at))
    pos += 1
    const args: unknown[] = []
    if (!isOp(peek(), ')')) {
      for (;;) {
        const a = argument()
        if (E.isLeft(a)) return a
        args.push(a.right)
        if (isOp(peek(), ',')) {
          pos += 1
          continue
        }
        break
      }
    }
    if (!isOp(peek(), ')')) return E.left(`expected ")" to close ${t.v}( at column ${peek()?.at === undefined ? end() + 1 : peek()!.at + 1}`)
    pos += 1
    const verdict = call(t.v, args)
    if (E.isLeft(verdict)) return verdict
    if (!verdict.right.ok && live) reasons.push(verdict.right.reason)
    return E.right(verdict.right.ok)
  }

  if (ts.length === 0) return E.left('empty expression')
  const result = or(true)
  if (E.isLeft(result)) return result
  if (pos < ts.length) {
    const t = ts[pos]!
    return E.left(t.k === 'op' && t.v === ')' ? `unexpected ")" at column ${t.at + 1}` : unsupported(`unexpected "${t.v}"`, t.at))
  }
  return E.right(Object.freeze({ ok: result.right, reasons: result.right ? [] : Object.freeze(reasons) }))
}
