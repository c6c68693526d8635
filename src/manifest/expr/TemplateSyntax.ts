// TemplateSyntax: a string with `{{ expr }}` and `${ expr }` holes, split into text and parsed
// holes. `${{` is a literal `$` followed by a `{{ }}` hole. A hole ends at the first `}}` (or `}`)
// that is outside the expression's string literals and brackets.
import * as E from 'fp-ts/lib/Either.js'
import type { Node } from './Ast.js'
import * as ExprError from './ExprError.js'
import * as Parser from './Parser.js'

// model

export type Part =
  | { readonly _tag: 'Text'; readonly text: string; readonly offset: number }
  | {
      readonly _tag: 'Hole'
      readonly node: Node
      /** The expression's source and its offset in the template. */
      readonly source: string
      readonly offset: number
      readonly open: '{{' | '${'
    }

export type Hole = Extract<Part, { _tag: 'Hole' }>

export interface Template {
  readonly source: string
  readonly parts: ReadonlyArray<Part>
}

// guards

/** True when a string has no hole at all (the common case, which needs no parsing). */
export const isPlain = (src: string): boolean => !src.includes('{{') && !src.includes('${')

/** The hole of a template that is exactly one expression (whitespace around it aside), if it is one. */
export const single = (t: Template): Hole | undefined => {
  const holes = t.parts.filter((p): p is Hole => p._tag === 'Hole')
  if (holes.length !== 1) return undefined
  return t.parts.every((p) => p._tag === 'Hole' || p.text.trim() === '') ? holes[0] : undefined
}

// parsing

/** Finds where a hole's expression ends: the offset of the closing delimiter, or -1. */
const closing = (src: string, from: number, close: string): number => {
  let depth = 0
  let i = from
  while (i < src.length) {
    const c = src[i]!
    if (c === '"' || c === "'" || c === '`') {
      i += 1
      while (i < src.length && src[i] !== c) i += c !== '`' && src[i] === '\\' ? 2 : 1
      i += 1
      continue
    }
    if (depth === 0 && src.startsWith(close, i)) return i
    if (c === '(' || c === '[' || c === '{') depth += 1
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth -= 1
    i += 1
  }
  return -1
}

/**
 * Parsed expressions by source, shared by every template of a run: manifests repeat the same few
 * holes (`{{ Data.x }}`) in many values. A syntax tree is immutable, so sharing one is safe; the
 * memory is bounded by starting afresh when it is full.
 */
const expressions = new Map<string, E.Right<Node>>()
const expressionsLimit = 4096

/** Parses a hole's expression, once per source text while it is remembered (the answer itself kept: no Either made per hit). */
const expression = (source: string): E.Either<ExprError.ExprError, Node> => {
  const known = expressions.get(source)
  if (known !== undefined) return known
  const node = Parser.parse(source)
  if (E.isRight(node)) {
    if (expressions.size >= expressionsLimit) expressions.clear()
    expressions.set(source, node)
  }
  return node
}

/**
 * A finder of the next `{{` or `${` at or after i (or -1), for calls with i never decreasing. Each
 * opener's next offset is remembered and searched for again only once i has passed it, -1 meaning
 * none is left: searching both at every step scanned to the end for an opener the text lacks (or
 * from each `$` of a shell variable), quadratic in the holes (40,000 took 11 s).
 */
export const opener = (src: string): ((i: number) => number) => {
  let curly = -2 // not searched yet
  let dollar = -2
  return (i) => {
    if (curly !== -1 && curly < i) curly = src.indexOf('{{', i)
    if (dollar !== -1 && dollar < i) dollar = src.indexOf('${', i)
    return curly < 0 ? dollar : dollar < 0 ? curly : Math.min(curly, dollar)
  }
}

/**
 * The last templates parsed, by source: a short one (a property's `{{ Data.x }}`) is often written
 * in many values, and a value is rendered twice in a row when it reads a managed file (compile
 * first asks which files it reads, then renders it). Bounded like `expressions`. A long source (a
 * file's content) is remembered only as the last one parsed: contents rarely repeat, and keying a
 * map by each of ten thousand contents hashed every character of each, about a microsecond apiece.
 */
const templates = new Map<string, E.Right<Template>>()
const templatesLimit = 256
/** The longest source `templates` keeps. */
const shortSource = 64
let last: E.Right<Template> | undefined

/** Splits a template into text and parsed holes; errors carry offsets into the template. */
export const parse = (src: string): E.Either<ExprError.ExprError, Template> => {
  const short = src.length <= shortSource
  const known = short ? templates.get(src) : last?.right.source === src ? last : undefined
  if (known !== undefined) return known
  const parsed = split(src)
  if (E.isRight(parsed)) {
    if (!short) last = parsed
    else {
      if (templates.size >= templatesLimit) templates.clear()
      templates.set(src, parsed)
    }
  }
  return parsed
}

// A template is split once per value, in code that runs once per value of a manifest and is never
// optimized: every closure and string it makes is allocated. So the loop keeps its state in locals
// (no closures over them: V8 would move them into a context object), and the blank check makes
// no trimmed copy.
const split = (src: string): E.Either<ExprError.ExprError, Template> => {
  const parts: Part[] = []
  // the text part being gathered: from textAt, as pieces (more than one only where `${{` cut it)
  let text = ''
  let textAt = 0
  let i = 0
  const nextOpen = opener(src)
  while (i < src.length) {
    const next = nextOpen(i)
    if (next < 0) {
      if (text === '') textAt = i
      text += src.slice(i)
      break
    }
    if (next > i) {
      if (text === '') textAt = i
      text += src.slice(i, next)
      i = next
    }
    if (src.startsWith('${{', i)) {
      // a literal `$`; the `{{` after it opens a hole
      if (text === '') textAt = i
      text += '$'
      i += 1
      continue
    }
    const open: '{{' | '${' = src.charCodeAt(i) === 123 ? '{{' : '${'
    const close = open === '{{' ? '}}' : '}'
    const start = i + 2
    const end = closing(src, start, close)
    if (end < 0) return E.left(ExprError.syntax(`unterminated ${open}: no closing ${close}`, i))
    const source = src.slice(start, end)
    if (isBlank(source)) return E.left(ExprError.syntax(`empty expression in ${open} ${close}`, i))
    const node = expression(source)
    if (E.isLeft(node)) return E.left(ExprError.shift(node.left, start))
    if (text !== '') parts.push({ _tag: 'Text', text, offset: textAt })
    text = ''
    parts.push({ _tag: 'Hole', node: node.right, source, offset: start, open })
    i = end + close.length
  }
  if (text !== '') parts.push({ _tag: 'Text', text, offset: textAt })
  return E.right({ source: src, parts })
}

/** Whether a string is all whitespace (as `trim() === ''`, without making the trimmed string). */
const isBlank = (s: string): boolean => /^\s*$/.test(s)
