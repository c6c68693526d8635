// TemplateSyntax.parse against a reference splitter that walks the template one character at a
// time (the plain reading of the rules): the parser skips to the next `{{` or `${` and remembers
// parsed expressions, and must give the same parts, offsets and errors on any text.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as ExprError from '../../../src/manifest/expr/ExprError.js'
import * as Parser from '../../../src/manifest/expr/Parser.js'
import * as TemplateSyntax from '../../../src/manifest/expr/TemplateSyntax.js'

/** Where a hole's expression ends (the same rule as the parser's: quotes and brackets skipped). */
const closingOf = (src: string, from: number, close: string): number => {
  let depth = 0
  for (let i = from; i < src.length; ) {
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

/** The reference: one character at a time. */
const reference = (src: string): E.Either<ExprError.ExprError, TemplateSyntax.Template> => {
  const parts: TemplateSyntax.Part[] = []
  let text = ''
  let textAt = 0
  const flush = (): void => {
    if (text !== '') parts.push({ _tag: 'Text', text, offset: textAt })
    text = ''
  }
  let i = 0
  while (i < src.length) {
    if (src.startsWith('${{', i) || !(src.startsWith('{{', i) || src.startsWith('${', i))) {
      if (text === '') textAt = i
      text += src[i]
      i += 1
      continue
    }
    const open = src.startsWith('{{', i) ? '{{' : '${'
    const close = open === '{{' ? '}}' : '}'
    const end = closingOf(src, i + 2, close)
    if (end < 0) return E.left(ExprError.syntax(`unterminated ${open}: no closing ${close}`, i))
    const source = src.slice(i + 2, end)
    if (source.trim() === '') return E.left(ExprError.syntax(`empty expression in ${open} ${close}`, i))
    const node = Parser.parse(source)
    if (E.isLeft(node)) return E.left(ExprError.shift(node.left, i + 2))
    flush()
    parts.push({ _tag: 'Hole', node: node.right, source, offset: i + 2, open })
    i = end + close.length
  }
  flush()
  return E.right({ source: src, parts })
}

const pieces = ['a', ' ', 'x y', '{', '}', '{{', '}}', '$', '${', '${{', 'Data.x', ' Data.x ', '1 + 2', '"}}"', "'{'", '(', ')', '[1]', '\\', '`', 'é', '\n', '#', 'upper("a")']
const template = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((ps) => ps.join(''))

describe('TemplateSyntax.parse', () => {
  fcTest.prop([template], { numRuns: 3000 })('gives what a character-by-character reading gives', (src) => {
    expect(TemplateSyntax.parse(src)).toStrictEqual(reference(src))
  })

  fcTest.prop([fc.string({ maxLength: 40 })])('gives what a character-by-character reading gives, on any text', (src) => {
    expect(TemplateSyntax.parse(src)).toStrictEqual(reference(src))
  })

  it('parses a repeated expression once and gives the same tree each time', () => {
    const a = TemplateSyntax.parse('x {{ Data.memoTest }} y')
    const b = TemplateSyntax.parse('z {{ Data.memoTest }}')
    expect(E.isRight(a) && E.isRight(b)).toBe(true)
    if (E.isRight(a) && E.isRight(b)) expect((a.right.parts[1] as TemplateSyntax.Hole).node).toBe((b.right.parts[1] as TemplateSyntax.Hole).node)
  })

  it('reads `${{` as a dollar sign before a hole', () => {
    const t = TemplateSyntax.parse('a${{ 1 }}')
    expect(t).toStrictEqual(reference('a${{ 1 }}'))
    expect(E.isRight(t) ? t.right.parts.map((p) => p._tag) : []).toStrictEqual(['Text', 'Hole'])
    expect(E.isRight(t) ? t.right.parts[0] : undefined).toStrictEqual({ _tag: 'Text', text: 'a$', offset: 0 })
  })
})

describe('TemplateSyntax.opener', () => {
  /** The next `{{` or `${` at or after i, both searched afresh. */
  const searched = (src: string, i: number): number => {
    const a = src.indexOf('{{', i)
    const b = src.indexOf('${', i)
    return a < 0 ? b : b < 0 ? a : Math.min(a, b)
  }

  fcTest.prop([template, fc.array(fc.nat(6), { maxLength: 30 })], { numRuns: 3000 })(
    'finds, for offsets that never decrease, what searching afresh for both openers finds',
    (src, steps) => {
      const next = TemplateSyntax.opener(src)
      const offsets = steps.reduce<number[]>((acc, d) => [...acc, (acc[acc.length - 1] ?? 0) + d], [])
      for (const i of offsets) expect(next(i)).toBe(searched(src, i))
    },
  )
})
