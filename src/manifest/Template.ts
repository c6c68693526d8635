// Template: strings with `{{ expr }}` and `${ expr }` interpolations; `${{` is a literal `$` then `{{`.
import * as E from 'fp-ts/lib/Either.js'
import * as Expr from './Expr.js'

export type Part =
  | { readonly _tag: 'Text'; readonly text: string }
  | { readonly _tag: 'Hole'; readonly expr: Expr.Expr; readonly offset: number }

/** Splits a string into text and expression holes, or an error with the offset in the string. */
export const parse = (src: string): E.Either<Expr.ExprError, ReadonlyArray<Part>> => {
  const parts: Part[] = []
  let text = ''
  let i = 0
  while (i < src.length) {
    let open = -1
    let close = ''
    if (src.startsWith('${{', i)) {
      text += '$'
      i += 1
      continue
    } else if (src.startsWith('{{', i)) {
      open = i + 2
      close = '}}'
    } else if (src.startsWith('${', i)) {
      open = i + 2
      close = '}'
    }
    if (open < 0) {
      text += src[i]
      i += 1
      continue
    }
    const end = src.indexOf(close, open)
    if (end < 0) return E.left({ message: `unterminated '${close === '}}' ? '{{' : '${'}'`, offset: i })
    const body = src.slice(open, end)
    const parsed = Expr.parse(body)
    if (E.isLeft(parsed)) return E.left({ message: parsed.left.message, offset: open + parsed.left.offset })
    if (text !== '') parts.push({ _tag: 'Text', text })
    text = ''
    parts.push({ _tag: 'Hole', expr: parsed.right, offset: open })
    i = end + close.length
  }
  if (text !== '') parts.push({ _tag: 'Text', text })
  return E.right(parts)
}

/** True when a string contains no interpolation at all (the fast path). */
export const isPlain = (src: string): boolean => !src.includes('{{') && !src.includes('${')

/**
 * Renders a template. A string that is exactly one expression keeps the expression's type;
 * otherwise holes are turned into text and concatenated.
 */
export const render = (src: string, scope: Expr.Scope): E.Either<Expr.ExprError, unknown> => {
  if (isPlain(src)) return E.right(src)
  const parsed = parse(src)
  if (E.isLeft(parsed)) return parsed
  const parts = parsed.right
  const only = parts.length === 1 ? parts[0] : undefined
  if (only?._tag === 'Hole') {
    const v = Expr.evaluate(only.expr, scope)
    return E.isLeft(v) ? E.left({ message: v.left.message, offset: only.offset + v.left.offset }) : v
  }
  let out = ''
  for (const p of parts) {
    if (p._tag === 'Text') {
      out += p.text
    } else {
      const v = Expr.evaluate(p.expr, scope)
      if (E.isLeft(v)) return E.left({ message: v.left.message, offset: p.offset + v.left.offset })
      out += Expr.toText(v.right)
    }
  }
  return E.right(out)
}
