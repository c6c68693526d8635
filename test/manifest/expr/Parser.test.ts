import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Ast from '../../../src/manifest/expr/Ast.js'
import * as Lexer from '../../../src/manifest/expr/Lexer.js'
import * as Parser from '../../../src/manifest/expr/Parser.js'
import * as Printer from '../../../src/manifest/expr/Printer.js'

const parsed = (src: string): Ast.Node => {
  const r = Parser.parse(src)
  if (E.isLeft(r)) throw new Error(`${src}: ${r.left.message}`)
  return r.right
}
const shape = (src: string): Ast.Node => Ast.withoutPositions(parsed(src))

// Syntax trees the parser can produce, to check that printing and parsing again gives them back.
const { node } = fc.letrec<{ node: Ast.Node }>((tie) => {
  const sub = tie('node')
  const names = fc.constantFrom('Facts', 'Data', 'Environ', 'x', 'foo_1', '$a', 'é')
  const property = fc.constantFrom('a', 'host', 'not', 'in', 'matches', 'true', 'x9')
  const compare = fc.constantFrom<Ast.CompareOp>('==', '!=', '<', '>', '<=', '>=', 'in', 'matches', 'contains', 'startsWith', 'endsWith')
  const other = fc.constantFrom<Ast.BinaryOp>('or', '||', 'and', '&&', '..', '+', '-', '*', '/', '%', '**', '^', '??')
  const leaf = fc.oneof(
    fc.constant<Ast.Node>({ _tag: 'Nil', at: 0 }),
    fc.boolean().map((value): Ast.Node => ({ _tag: 'Bool', value, at: 0 })),
    fc.bigInt({ min: 0n, max: 9223372036854775807n }).map((value): Ast.Node => ({ _tag: 'Int', value, at: 0 })),
    fc.double({ min: 0, max: 1e300, noNaN: true }).filter((f) => !Object.is(f, -0)).map((value): Ast.Node => ({ _tag: 'Float', value, at: 0 })),
    fc.string({ unit: 'grapheme', maxLength: 8 }).map((value): Ast.Node => ({ _tag: 'Str', value, at: 0 })),
    names.map((name): Ast.Node => ({ _tag: 'Ident', name, at: 0 })),
  )
  const negatedFor = (op: string): fc.Arbitrary<boolean> => (Ast.negatable.has(op) ? fc.boolean() : fc.constant(false))
  return {
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(sub, { maxLength: 3 }).map((items): Ast.Node => ({ _tag: 'Array', items, at: 0 })),
      fc
        .array(fc.record({ key: fc.oneof(leaf.filter((k) => k._tag === 'Str'), sub), value: sub }), { maxLength: 3 })
        .map((entries): Ast.Node => ({ _tag: 'Map', entries, at: 0 })),
      fc.tuple(fc.constantFrom<Ast.UnaryOp>('-', '+', '!', 'not'), sub).map(([op, operand]): Ast.Node => ({ _tag: 'Unary', op, operand, at: 0 })),
      fc.tuple(other, sub, sub).map(([op, left, right]): Ast.Node => ({ _tag: 'Binary', op, left, right, negated: false, at: 0 })),
      compare
        .chain((op) => fc.tuple(fc.constant(op), negatedFor(op), sub, sub))
        .map(([op, negated, left, right]): Ast.Node => ({ _tag: 'Binary', op, left, right, negated, at: 0 })),
      fc
        .tuple(sub, fc.array(fc.tuple(compare, sub), { minLength: 2, maxLength: 3 }), fc.boolean())
        .map(([first, links, neg]): Ast.Node => ({
          _tag: 'Compare',
          first,
          links: links.map(([op, operand], i) => ({ op, operand, negated: i === 0 && neg && Ast.negatable.has(op), at: 0 })),
          at: 0,
        })),
      fc.tuple(sub, property, fc.boolean()).map(([object, name, optional]): Ast.Node => ({
        _tag: 'Member', object, property: { _tag: 'Str', value: name, at: 0 }, computed: false, optional, at: 0,
      })),
      fc.tuple(sub, sub, fc.boolean()).map(([object, property, optional]): Ast.Node => ({ _tag: 'Member', object, property, computed: true, optional, at: 0 })),
      fc.tuple(sub, fc.option(sub, { nil: undefined }), fc.option(sub, { nil: undefined })).map(([object, from, to]): Ast.Node => ({
        _tag: 'Slice', object, ...(from ? { from } : {}), ...(to ? { to } : {}), at: 0,
      })),
      fc.tuple(fc.constantFrom('len', 'upper', 'lookup', 'f'), fc.array(sub, { maxLength: 3 })).map(([name, args]): Ast.Node => ({ _tag: 'Call', name, args, at: 0 })),
      fc.tuple(sub, fc.constantFrom('Year', 'foo'), fc.array(sub, { maxLength: 2 }), fc.boolean()).map(([object, name, args, optional]): Ast.Node => ({
        _tag: 'Method', object, name, args, optional, at: 0,
      })),
      fc.tuple(sub, fc.option(sub, { nil: undefined }), sub).map(([cond, then, otherwise]): Ast.Node => ({
        _tag: 'Conditional', cond, ...(then ? { then } : {}), otherwise, at: 0,
      })),
      // a predicate built-in: its body may use the pointers anywhere (here as its own term, a
      // member of `#`, or an operand), and may hold further predicates
      fc
        .tuple(fc.constantFrom(...Ast.predicates.keys()), sub, fc.oneof(sub, pointerTerm(sub)), fc.option(sub, { nil: undefined }))
        .map(([name, list, body, third]): Ast.Node => {
          const { max } = Ast.predicates.get(name)!
          const args = [list, { _tag: 'Closure' as const, body, at: 0 }, ...(third !== undefined && max === 3 ? [third] : [])]
          return { _tag: 'Call', name, args, at: 0 }
        }),
    ),
  }
})

/** A predicate body that uses a pointer: `#`, `#index`, `#.name`, `#[i]`, or one beside another term. */
function pointerTerm(sub: fc.Arbitrary<Ast.Node>): fc.Arbitrary<Ast.Node> {
  const pointer = fc.constantFrom<Ast.PointerName>('', 'index').map((name): Ast.Node => ({ _tag: 'Pointer', name, at: 0 }))
  return fc.oneof(
    pointer,
    fc.tuple(pointer, fc.constantFrom('type', 'action', 'in')).map(([object, name]): Ast.Node => ({
      _tag: 'Member', object, property: { _tag: 'Str', value: name, at: 0 }, computed: false, optional: false, at: 0,
    })),
    fc.tuple(pointer, sub).map(([object, property]): Ast.Node => ({ _tag: 'Member', object, property, computed: true, optional: false, at: 0 })),
    fc.tuple(pointer, fc.constantFrom<Ast.BinaryOp>('==', '+', 'in', '&&'), sub).map(([left, op, right]): Ast.Node => ({ _tag: 'Binary', op, left, right, negated: false, at: 0 })),
  )
}

describe('Printer.print', () => {
  fcTest.prop([node], { numRuns: 400 })('parsing the printed source gives the same tree back', (n) => {
    const printed = Printer.print(n)
    const back = Parser.parse(printed)
    if (E.isLeft(back)) throw new Error(`${printed}: ${back.left.message} at ${back.left.offset}`)
    expect(Ast.withoutPositions(back.right)).toEqual(n)
  })

  it.each([
    ['1 + 2 * 3', '1 + 2 * 3'],
    ['(1 + 2) * 3', '(1 + 2) * 3'],
    ['2 ** 3 ** 2', '2 ** 3 ** 2'],
    ['(2 ** 3) ** 2', '(2 ** 3) ** 2'],
    ['-2 ** 2', '-2 ** 2'],
    ['(-2) ** 2', '(-2) ** 2'],
    ["Data['a'].b[0]", 'Data["a"].b[0]'],
    ['a not in [1, 2]', 'a not in [1, 2]'],
    ['(a < b) < c', '(a < b) < c'],
    ['a < b < c', 'a < b < c'],
    ['a ?? b ?? c', 'a ?? b ?? c'],
    ['(a ?? b) + 1', '(a ?? b) + 1'],
    ['x?.y?.[0]', 'x?.y?.[0]'],
    ['c ? 1 : 2.0', 'c ? 1 : 2.0'],
    ['c ?: "d"', 'c ?: "d"'],
    ['{a: 1, (k): 2}', '{"a": 1, (k): 2}'],
    ["'it\\'s'", '"it\'s"'],
    ['x[1:]', 'x[1:]'],
    ['now().Year()', 'now().Year()'],
    ['Data.port | string()', 'string(Data.port)'],
    ['filter(xs, # > 1)', 'filter(xs, {# > 1})'],
    ['any(rs, {.type == "package"})', 'any(rs, {#.type == "package"})'],
    ['reduce(xs, #acc + #index, 0)', 'reduce(xs, {#acc + #index}, 0)'],
    ['map(xs, {{"a": #}})', 'map(xs, {{"a": #}})'],
    ['xs | filter(# > 1) | count()', 'count(filter(xs, {# > 1}))'],
  ])('prints %s as %s', (src, want) => {
    expect(Printer.print(parsed(src))).toBe(want)
  })
})

describe('Parser.parse', () => {
  it('follows expr-lang precedence', () => {
    expect(shape('not a == b')).toEqual(shape('(not a) == b'))
    expect(shape('a or b and c')).toEqual(shape('a or (b and c)'))
    expect(shape('-x.y')).toEqual(shape('-(x.y)'))
    expect(shape('1 + 2 .. 3')).toEqual(shape('(1 + 2) .. 3'))
    expect(shape('a ? b : c ? d : e')).toEqual(shape('a ? b : (c ? d : e)'))
  })

  it('reads chained comparisons as one node', () => {
    const n = parsed('1 < x <= 3')
    expect(n._tag).toBe('Compare')
  })

  it('reads numbers in every base and with underscores', () => {
    expect(shape('0x1F')).toEqual({ _tag: 'Int', value: 31n, at: 0 })
    expect(shape('0o17')).toEqual({ _tag: 'Int', value: 15n, at: 0 })
    expect(shape('0b101')).toEqual({ _tag: 'Int', value: 5n, at: 0 })
    expect(shape('1_000')).toEqual({ _tag: 'Int', value: 1000n, at: 0 })
    expect(shape('2.0')).toEqual({ _tag: 'Float', value: 2, at: 0 })
    expect(shape('`raw \\n`')).toEqual({ _tag: 'Str', value: 'raw \\n', at: 0 })
  })

  it('skips comments', () => {
    expect(shape('1 /* one */ + // two\n 2')).toEqual(shape('1 + 2'))
  })

  it('reads a pipe as a call with the left side first', () => {
    expect(shape('Data.x | split(",")')).toEqual(shape('split(Data.x, ",")'))
  })

  it.each([
    ['1 +', 'unexpected token EOF', 2],
    ['(1 + 2', 'unexpected token EOF', 5],
    ['1 + 2)', 'unexpected token Bracket(")")', 5],
    ['a b', 'unexpected token Identifier("b")', 2],
    ['"open', 'literal not terminated', 5],
    ['"bad \\q"', 'invalid char escape', 7],
    ['1 @ 2', "unrecognized character: U+0040 '@'", 2],
    ['Data.', 'unexpected end of expression', 4],
    ['x.(1)', 'expected name', 3],
    ['9223372036854775808', 'integer literal is too large', 0],
    ['1e', 'invalid float literal: "1e"', 0],
    ['12abc', 'bad number syntax: "12a"', 2],
    ['a ?? b + c', 'Operator (+) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.', 7],
    ['# > 1', 'cannot use pointer accessor outside predicate', 0],
    ['.a == 1', 'cannot use pointer accessor outside predicate', 0],
    ['filter(x, #foo)', 'unknown pointer #foo', 11],
    ['filter(x, {# > 1)', 'unexpected token Bracket(")")', 16],
    ['let x = 1; x', 'variable declarations (let) are not supported', 0],
    ['{a 1}', 'unexpected token Number("1")', 3],
    ['a not b', 'unexpected token Identifier("b")', 6],
  ])('rejects %s: %s at %d', (src, message, offset) => {
    const r = Parser.parse(src)
    expect(r).toEqual(E.left(expect.objectContaining({ message, offset, stage: 'Syntax' })))
  })

  fcTest.prop([fc.string({ maxLength: 30 })])('never throws: any text parses or gives an error inside the source', (src) => {
    const r = Parser.parse(src)
    if (E.isLeft(r)) {
      expect(r.left.offset).toBeGreaterThanOrEqual(0)
      expect(r.left.offset).toBeLessThanOrEqual(src.length)
    }
  })
})

describe('Lexer.lex', () => {
  it('gives every token its offsets', () => {
    const r = Lexer.lex('a.b + "x"')
    expect(E.isRight(r) && r.right.map((t) => [t.kind, t.value, t.offset, t.end])).toEqual([
      ['Identifier', 'a', 0, 1],
      ['Operator', '.', 1, 2],
      ['Identifier', 'b', 2, 3],
      ['Operator', '+', 4, 5],
      ['String', 'x', 6, 9],
      ['EOF', '', 8, 9],
    ])
  })

  it('decodes Go escapes, \\x bytes as UTF-8', () => {
    const r = Lexer.lex('"\\xC3\\xA9\\u00e9\\101\\t"')
    expect(E.isRight(r) && r.right[0]!.value).toBe('ééA\t')
  })
})

describe('deep expressions', () => {
  it.each([
    ['nested parentheses', `${'('.repeat(5000)}1${')'.repeat(5000)}`],
    ['a long member chain', `Data${'.a'.repeat(5000)}`],
    ['nested arrays', `${'['.repeat(3000)}${']'.repeat(3000)}`],
  ])('refuses %s with an error, not a crash', (_, src) => {
    const r = Parser.parse(src)
    expect(E.isLeft(r) && r.left.message).toMatch(/nests too deeply/)
  })

  it('accepts reasonably deep expressions, and flat chains of any length (they nest only to the left)', () => {
    expect(E.isRight(Parser.parse(Array.from({ length: 200 }, () => '1').join(' + ')))).toBe(true)
    expect(E.isRight(Parser.parse(Array.from({ length: 5000 }, () => '1').join(' + ')))).toBe(true)
    expect(E.isRight(Parser.parse(Array.from({ length: 5000 }, () => 'true').join(' && ')))).toBe(true)
  })
})

describe('regressions', () => {
  it('a string that ends in a lone backslash errs at the end of the source, not past it', () => {
    expect(Parser.parse('"\\')).toEqual(E.left(expect.objectContaining({ message: 'invalid char escape', offset: 2 })))
  })
})
