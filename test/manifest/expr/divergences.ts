// Cases of table.json where plait deliberately gives a different answer from the expr-lang that
// produced the table (Debian's v1.8.9). plait follows current expr-lang, the version CCM builds
// with, or makes an argument error an error; docs/expressions.md explains each group. The table
// test checks both sides: the table still says what is written in `table`, and plait says `ours`.

/** A result in the table's encoding ({ int: "3" }, { float: 3.5 }, ...) or an error. */
export type Expected = Readonly<Record<string, unknown>> | 'error'

export interface Divergence {
  readonly expr: string
  /** What expr-lang v1.8.9 said (as in table.json). */
  readonly table: Expected
  /** What plait says. */
  readonly ours: Expected
  readonly why: string
}

const division = 'current expr-lang: `/` always divides as floats (v1.8.9 divided ints as ints)'
const negative = 'current expr-lang: negative indexes and slice bounds count from the end'
const postfix = 'current expr-lang: a string literal takes [] and slices'
const negated = 'current expr-lang: `not contains`, `not startsWith`, `not endsWith`, `not matches`'

export const divergences: ReadonlyArray<Divergence> = [
  { expr: '7 / 2', table: { int: '3' }, ours: { float: 3.5 }, why: division },
  { expr: '6 / 3', table: { int: '2' }, ours: { float: 2 }, why: division },
  { expr: '1 / 0', table: 'error', ours: { float: '+Inf' }, why: division },
  { expr: '-1 / 0', table: 'error', ours: { float: '-Inf' }, why: division },
  { expr: '0 / 0', table: 'error', ours: { float: 'NaN' }, why: division },
  { expr: 'Data.port / 2', table: { int: '4040' }, ours: { float: 4040 }, why: division },
  { expr: 'Facts.memory.total / 1024', table: { int: '16' }, ours: { float: 16 }, why: division },
  { expr: 'Data.zero / Data.zero', table: 'error', ours: { float: 'NaN' }, why: division },
  { expr: 'Data.port / Data.zero', table: 'error', ours: { float: '+Inf' }, why: division },
  { expr: 'string(1 / 3)', table: { string: '0' }, ours: { string: '0.3333333333333333' }, why: division },
  { expr: 'string(1 / 0)', table: 'error', ours: { string: '+Inf' }, why: division },
  { expr: 'string(0 / 0)', table: 'error', ours: { string: 'NaN' }, why: division },
  { expr: '(Data.port + 1) * 2 - 3 / 3', table: { int: '16161' }, ours: { float: 16161 }, why: division },
  { expr: '10 / 4 * 2', table: { int: '4' }, ours: { float: 5 }, why: division },
  { expr: '-2 ** 2', table: { float: 4 }, ours: { float: -4 }, why: 'current expr-lang: unary minus binds looser than ** (v1.8.9: tighter)' },
  { expr: '1 < 2 < 3', table: 'error', ours: { bool: true }, why: 'current expr-lang: comparisons chain (a < b < c is a < b and b < c)' },
  { expr: '1 == 1 == true', table: { bool: true }, ours: 'error', why: 'current expr-lang: chained, the second comparison is 1 == true, a type error' },
  { expr: '3..1', table: 'error', ours: { array: [] }, why: 'current expr-lang: an empty range is an empty array' },
  { expr: 'Data.users[-1].name', table: 'error', ours: { string: 'bob' }, why: negative },
  { expr: '[10, 20, 30][-1]', table: 'error', ours: { int: '30' }, why: negative },
  { expr: '[1, 2, 3, 4][-2:]', table: 'error', ours: { array: [{ int: '3' }, { int: '4' }] }, why: negative },
  { expr: '[1, 2, 3, 4][:-1]', table: 'error', ours: { array: [{ int: '1' }, { int: '2' }, { int: '3' }] }, why: negative },
  { expr: '"hello"[1:3]', table: 'error', ours: { string: 'el' }, why: postfix },
  { expr: '"hello"[:2]', table: 'error', ours: { string: 'he' }, why: postfix },
  { expr: '"hello"[3:]', table: 'error', ours: { string: 'lo' }, why: postfix },
  { expr: '"abc" not contains "b"', table: 'error', ours: { bool: false }, why: negated },
  { expr: '"abc" not startsWith "a"', table: 'error', ours: { bool: false }, why: negated },
  { expr: '"abc" not endsWith "x"', table: 'error', ours: { bool: true }, why: negated },
  { expr: '"abc" not matches "^a"', table: 'error', ours: { bool: false }, why: negated },
  {
    expr: '2 * Data.ratio == 3',
    table: 'error',
    ours: { bool: true },
    why: 'a v1.8.9 bug: its type check compiled an int comparison for a float; current expr-lang gives true',
  },
  {
    expr: "lookup('data.port', 1, 2)",
    table: { int: '8080' },
    ours: 'error',
    why: 'plait: lookup takes a path and at most one default; CCM ignores extra arguments',
  },
]
