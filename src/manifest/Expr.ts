// Expr: the expression subset of this stage: literals, `Data.x.y`, `x['k']`, `lookup(path[, default])`.
import * as E from 'fp-ts/lib/Either.js'

// model

export type Expr =
  | { readonly _tag: 'Literal'; readonly value: Value; readonly at: number }
  | { readonly _tag: 'Ident'; readonly name: string; readonly at: number }
  | { readonly _tag: 'Member'; readonly object: Expr; readonly key: Expr; readonly at: number }
  | { readonly _tag: 'Call'; readonly name: string; readonly args: ReadonlyArray<Expr>; readonly at: number }

export type Value = string | number | boolean | null | ReadonlyArray<unknown> | { readonly [k: string]: unknown }

/** An evaluation or parse error with the 0-based offset in the expression it concerns. */
export interface ExprError {
  readonly message: string
  readonly offset: number
}

/** What expressions can see: the manifest's data (facts and environment come with the full language). */
export interface Scope {
  readonly data: unknown
}

// parsing

type Token =
  | { readonly kind: 'str'; readonly value: string; readonly at: number }
  | { readonly kind: 'num'; readonly value: number; readonly at: number }
  | { readonly kind: 'id'; readonly value: string; readonly at: number }
  | { readonly kind: 'punct'; readonly value: string; readonly at: number }

const tokenize = (src: string): E.Either<ExprError, Token[]> => {
  const out: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (/\s/.test(c)) {
      i += 1
    } else if (c === '"' || c === "'") {
      const start = i
      let s = ''
      i += 1
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) {
          const n = src[i + 1]!
          s += n === 'n' ? '\n' : n === 't' ? '\t' : n
          i += 2
        } else {
          s += src[i]
          i += 1
        }
      }
      if (i >= src.length) return E.left({ message: 'unterminated string', offset: start })
      i += 1
      out.push({ kind: 'str', value: s, at: start })
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(src.slice(i))!
      out.push({ kind: 'num', value: Number(m[0]), at: i })
      i += m[0].length
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!
      out.push({ kind: 'id', value: m[0], at: i })
      i += m[0].length
    } else if ('.,()[]-'.includes(c)) {
      out.push({ kind: 'punct', value: c, at: i })
      i += 1
    } else {
      return E.left({ message: `unexpected character '${c}'`, offset: i })
    }
  }
  return E.right(out)
}

/** Parses an expression of the subset. */
export const parse = (src: string): E.Either<ExprError, Expr> =>
  E.chain((tokens: Token[]) => {
    let pos = 0
    const peek = (): Token | undefined => tokens[pos]
    const fail = (message: string, t?: Token): E.Either<ExprError, never> =>
      E.left({ message, offset: t?.at ?? src.length })
    const expect = (v: string): E.Either<ExprError, Token> => {
      const t = peek()
      if (t?.kind === 'punct' && t.value === v) {
        pos += 1
        return E.right(t)
      }
      return fail(t === undefined ? `expected '${v}' at end of expression` : `expected '${v}'`, t)
    }
    const primary = (): E.Either<ExprError, Expr> => {
      const t = peek()
      if (t === undefined) return fail('expected a value at end of expression')
      pos += 1
      if (t.kind === 'str' || t.kind === 'num') return E.right({ _tag: 'Literal', value: t.value, at: t.at })
      if (t.kind === 'punct' && t.value === '-') {
        const n = peek()
        if (n?.kind === 'num') {
          pos += 1
          return E.right({ _tag: 'Literal', value: -n.value, at: t.at })
        }
        return fail('expected a number after -', n)
      }
      if (t.kind === 'punct' && t.value === '(') {
        const inner = expr()
        if (E.isLeft(inner)) return inner
        const close = expect(')')
        return E.isLeft(close) ? close : inner
      }
      if (t.kind === 'id') {
        if (t.value === 'true' || t.value === 'false') return E.right({ _tag: 'Literal', value: t.value === 'true', at: t.at })
        if (t.value === 'nil') return E.right({ _tag: 'Literal', value: null, at: t.at })
        const n = peek()
        if (n?.kind === 'punct' && n.value === '(') {
          pos += 1
          const args: Expr[] = []
          const next = peek()
          if (!(next?.kind === 'punct' && next.value === ')')) {
            for (;;) {
              const a = expr()
              if (E.isLeft(a)) return a
              args.push(a.right)
              const sep = peek()
              if (sep?.kind === 'punct' && sep.value === ',') {
                pos += 1
                continue
              }
              break
            }
          }
          const close = expect(')')
          if (E.isLeft(close)) return close
          return E.right({ _tag: 'Call', name: t.value, args, at: t.at })
        }
        return E.right({ _tag: 'Ident', name: t.value, at: t.at })
      }
      return fail(`unexpected '${t.value}'`, t)
    }
    const expr = (): E.Either<ExprError, Expr> => {
      let left = primary()
      for (;;) {
        if (E.isLeft(left)) return left
        const t = peek()
        if (t?.kind === 'punct' && t.value === '.') {
          pos += 1
          const k = peek()
          if (k?.kind !== 'id') return fail('expected a name after .', k)
          pos += 1
          left = E.right({ _tag: 'Member', object: left.right, key: { _tag: 'Literal', value: k.value, at: k.at }, at: k.at })
        } else if (t?.kind === 'punct' && t.value === '[') {
          pos += 1
          const key = expr()
          if (E.isLeft(key)) return key
          const close = expect(']')
          if (E.isLeft(close)) return close
          left = E.right({ _tag: 'Member', object: left.right, key: key.right, at: t.at })
        } else {
          return left
        }
      }
    }
    const result = expr()
    if (E.isRight(result) && pos < tokens.length) return fail(`unexpected '${String(tokens[pos]!.value)}'`, tokens[pos])
    return result
  })(tokenize(src))

// evaluation

/** Looks a dotted path up in a value (`a.b.0.c`; `#` gives a length), or undefined. */
export const lookupPath = (root: unknown, path: string): unknown => {
  let cur: unknown = root
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined) return undefined
    if (seg === '#') {
      if (Array.isArray(cur)) cur = cur.length
      else return undefined
    } else if (Array.isArray(cur)) {
      cur = /^[0-9]+$/.test(seg) ? cur[Number(seg)] : undefined
    } else if (typeof cur === 'object') {
      cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined
    } else {
      return undefined
    }
  }
  return cur
}

/** Evaluates an expression in a scope. */
export const evaluate = (e: Expr, scope: Scope): E.Either<ExprError, unknown> => {
  switch (e._tag) {
    case 'Literal':
      return E.right(e.value)
    case 'Ident':
      if (e.name === 'Data') return E.right(scope.data)
      if (e.name === 'Facts' || e.name === 'Environ') {
        return E.left({ message: `${e.name} is not available in this version of plait`, offset: e.at })
      }
      return E.left({ message: `unknown name '${e.name}'`, offset: e.at })
    case 'Member': {
      const obj = evaluate(e.object, scope)
      if (E.isLeft(obj)) return obj
      const key = evaluate(e.key, scope)
      if (E.isLeft(key)) return key
      const o = obj.right
      const k = key.right
      if (o === null || o === undefined) return E.right(null)
      if (Array.isArray(o) && typeof k === 'number') return E.right(o[k] ?? null)
      if (typeof o === 'object' && typeof k === 'string') {
        return E.right(Object.prototype.hasOwnProperty.call(o, k) ? ((o as Record<string, unknown>)[k] ?? null) : null)
      }
      return E.left({ message: `cannot index ${typeName(o)} with ${typeName(k)}`, offset: e.at })
    }
    case 'Call':
      return call(e, scope)
  }
}

const call = (e: Extract<Expr, { _tag: 'Call' }>, scope: Scope): E.Either<ExprError, unknown> => {
  if (e.name !== 'lookup') return E.left({ message: `unknown function '${e.name}'`, offset: e.at })
  if (e.args.length < 1 || e.args.length > 2) {
    return E.left({ message: 'lookup takes a path and an optional default', offset: e.at })
  }
  const path = evaluate(e.args[0]!, scope)
  if (E.isLeft(path)) return path
  if (typeof path.right !== 'string') return E.left({ message: 'lookup: the path must be a string', offset: e.args[0]!.at })
  const p = path.right
  const [head] = p.split('.')
  if (head !== 'data') {
    return E.left({
      message: `lookup('${p}'): only data.* is available in this version of plait (facts and environ come later)`,
      offset: e.at,
    })
  }
  const found = lookupPath({ data: scope.data }, p)
  if (found !== undefined && found !== null) return E.right(found)
  if (e.args.length === 2) return evaluate(e.args[1]!, scope)
  return E.left({ message: `lookup('${p}'): no such key`, offset: e.at })
}

const typeName = (v: unknown): string =>
  v === null ? 'nil' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'map' : typeof v

/** Turns an evaluated value into the text a template interpolates. */
export const toText = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)
