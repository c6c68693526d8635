// Ast: the syntax tree of an expression. Every node carries `at`, the offset of the token that
// errors about it point at (an operator, a property name, a call's name), as expr-lang's do.

// model

export type UnaryOp = '-' | '+' | '!' | 'not'

export type BinaryOp =
  | 'or' | '||' | 'and' | '&&'
  | '==' | '!=' | '<' | '>' | '<=' | '>='
  | 'in' | 'matches' | 'contains' | 'startsWith' | 'endsWith'
  | '..' | '+' | '-' | '*' | '/' | '%' | '**' | '^' | '??'

/** Comparison operators, which chain: `a < b < c` means `a < b and b < c`. */
export type CompareOp = '==' | '!=' | '<' | '>' | '<=' | '>=' | 'in' | 'matches' | 'contains' | 'startsWith' | 'endsWith'

export type Node =
  | { readonly _tag: 'Nil'; readonly at: number }
  | { readonly _tag: 'Bool'; readonly value: boolean; readonly at: number }
  | { readonly _tag: 'Int'; readonly value: bigint; readonly at: number }
  | { readonly _tag: 'Float'; readonly value: number; readonly at: number }
  | { readonly _tag: 'Str'; readonly value: string; readonly at: number }
  | { readonly _tag: 'Ident'; readonly name: string; readonly at: number }
  | { readonly _tag: 'Array'; readonly items: ReadonlyArray<Node>; readonly at: number }
  | { readonly _tag: 'Map'; readonly entries: ReadonlyArray<Entry>; readonly at: number }
  | { readonly _tag: 'Unary'; readonly op: UnaryOp; readonly operand: Node; readonly at: number }
  /** `negated` is the `not` of `a not in b` (and `not contains`, `not matches`, ...). */
  | { readonly _tag: 'Binary'; readonly op: BinaryOp; readonly left: Node; readonly right: Node; readonly negated: boolean; readonly at: number }
  /** Two or more chained comparisons: `first ops[0] rest[0] ops[1] rest[1] ...`, each operand evaluated once. */
  | { readonly _tag: 'Compare'; readonly first: Node; readonly links: ReadonlyArray<Link>; readonly at: number }
  /** `a.b` (computed false, property a Str) or `a[b]`; `optional` for `?.`. */
  | { readonly _tag: 'Member'; readonly object: Node; readonly property: Node; readonly computed: boolean; readonly optional: boolean; readonly at: number }
  | { readonly _tag: 'Slice'; readonly object: Node; readonly from?: Node; readonly to?: Node; readonly at: number }
  /** A function call by name: a built-in or an environment function (`lookup`). */
  | { readonly _tag: 'Call'; readonly name: string; readonly args: ReadonlyArray<Node>; readonly at: number }
  /** A method call on a value: `now().Year()`. */
  | { readonly _tag: 'Method'; readonly object: Node; readonly name: string; readonly args: ReadonlyArray<Node>; readonly optional: boolean; readonly at: number }
  /** `cond ? then : otherwise`; `then` is absent for `cond ?: otherwise`. */
  | { readonly _tag: 'Conditional'; readonly cond: Node; readonly then?: Node; readonly otherwise: Node; readonly at: number }
  /** Inside a predicate: `#` (name ""), the current element; `#index`, its index; `#acc`, reduce's accumulator. `.x` is `#.x`. */
  | { readonly _tag: 'Pointer'; readonly name: PointerName; readonly at: number }
  /** A predicate `{ body }`: only ever the second argument of a predicate built-in (see `predicates`). */
  | { readonly _tag: 'Closure'; readonly body: Node; readonly at: number }

/** The pointers a predicate's body may use: `#`, `#index`, `#acc` (reduce only). */
export type PointerName = '' | 'index' | 'acc'

export interface Entry {
  readonly key: Node
  readonly value: Node
}

export interface Link {
  readonly op: CompareOp
  readonly negated: boolean
  readonly operand: Node
  readonly at: number
}

export type Tag = Node['_tag']

/** Built-ins that take a predicate as their second argument (`filter(list, {# > 1})`), with expr-lang's argument counts. */
export const predicates: ReadonlyMap<string, { readonly min: number; readonly max: number }> = new Map([
  ['all', { min: 2, max: 2 }],
  ['none', { min: 2, max: 2 }],
  ['any', { min: 2, max: 2 }],
  ['one', { min: 2, max: 2 }],
  ['filter', { min: 2, max: 2 }],
  ['map', { min: 2, max: 2 }],
  ['count', { min: 1, max: 2 }],
  ['sum', { min: 1, max: 2 }],
  ['find', { min: 2, max: 2 }],
  ['findIndex', { min: 2, max: 2 }],
  ['findLast', { min: 2, max: 2 }],
  ['findLastIndex', { min: 2, max: 2 }],
  ['groupBy', { min: 2, max: 2 }],
  ['sortBy', { min: 2, max: 3 }],
  ['reduce', { min: 2, max: 3 }],
])

/** Binary operators with their precedence and associativity (expr-lang's table). */
export const binary: Readonly<Record<BinaryOp, { readonly precedence: number; readonly right: boolean }>> = {
  or: { precedence: 10, right: false },
  '||': { precedence: 10, right: false },
  and: { precedence: 15, right: false },
  '&&': { precedence: 15, right: false },
  '==': { precedence: 20, right: false },
  '!=': { precedence: 20, right: false },
  '<': { precedence: 20, right: false },
  '>': { precedence: 20, right: false },
  '<=': { precedence: 20, right: false },
  '>=': { precedence: 20, right: false },
  in: { precedence: 20, right: false },
  matches: { precedence: 20, right: false },
  contains: { precedence: 20, right: false },
  startsWith: { precedence: 20, right: false },
  endsWith: { precedence: 20, right: false },
  '..': { precedence: 25, right: false },
  '+': { precedence: 30, right: false },
  '-': { precedence: 30, right: false },
  '*': { precedence: 60, right: false },
  '/': { precedence: 60, right: false },
  '%': { precedence: 60, right: false },
  '**': { precedence: 100, right: true },
  '^': { precedence: 100, right: true },
  '??': { precedence: 500, right: false },
}

/** Unary operators' precedence: `not` binds looser than comparisons, `-` tighter than `*`. */
export const unary: Readonly<Record<UnaryOp, number>> = { not: 50, '!': 50, '-': 90, '+': 90 }

/** Operators that take a `not` prefix: `a not in b`. */
export const negatable: ReadonlySet<string> = new Set(['in', 'matches', 'contains', 'startsWith', 'endsWith'])

// guards

/** True for a binary operator name. */
export const isBinaryOp = (s: string): s is BinaryOp => Object.prototype.hasOwnProperty.call(binary, s)

/** True for a comparison operator (precedence 20). */
export const isCompareOp = (s: string): s is CompareOp => isBinaryOp(s) && binary[s].precedence === 20

// combinators

/** Folds over a node's children, depth first, parents before children. */
export const walk = (n: Node, visit: (n: Node) => void): void => {
  visit(n)
  for (const c of children(n)) walk(c, visit)
}

/** A node's direct children in source order. */
export const children = (n: Node): ReadonlyArray<Node> => {
  switch (n._tag) {
    case 'Nil':
    case 'Bool':
    case 'Int':
    case 'Float':
    case 'Str':
    case 'Ident':
    case 'Pointer':
      return []
    case 'Closure':
      return [n.body]
    case 'Array':
      return n.items
    case 'Map':
      return n.entries.flatMap((e) => [e.key, e.value])
    case 'Unary':
      return [n.operand]
    case 'Binary':
      return [n.left, n.right]
    case 'Compare':
      return [n.first, ...n.links.map((l) => l.operand)]
    case 'Member':
      return [n.object, n.property]
    case 'Slice':
      return [n.object, ...(n.from ? [n.from] : []), ...(n.to ? [n.to] : [])]
    case 'Call':
      return n.args
    case 'Method':
      return [n.object, ...n.args]
    case 'Conditional':
      return [n.cond, ...(n.then ? [n.then] : []), n.otherwise]
  }
}

/** A node with every `at` set to 0, for comparing trees regardless of spelling and spacing. */
export const withoutPositions = (n: Node): Node => {
  const s = withoutPositions
  switch (n._tag) {
    case 'Nil':
    case 'Bool':
    case 'Int':
    case 'Float':
    case 'Str':
    case 'Ident':
    case 'Pointer':
      return { ...n, at: 0 }
    case 'Closure':
      return { ...n, body: s(n.body), at: 0 }
    case 'Array':
      return { ...n, items: n.items.map(s), at: 0 }
    case 'Map':
      return { ...n, entries: n.entries.map((e) => ({ key: s(e.key), value: s(e.value) })), at: 0 }
    case 'Unary':
      return { ...n, operand: s(n.operand), at: 0 }
    case 'Binary':
      return { ...n, left: s(n.left), right: s(n.right), at: 0 }
    case 'Compare':
      return { ...n, first: s(n.first), links: n.links.map((l) => ({ ...l, operand: s(l.operand), at: 0 })), at: 0 }
    case 'Member':
      return { ...n, object: s(n.object), property: s(n.property), at: 0 }
    case 'Slice': {
      const out: { -readonly [K in keyof Extract<Node, { _tag: 'Slice' }>]: Extract<Node, { _tag: 'Slice' }>[K] } = { _tag: 'Slice', object: s(n.object), at: 0 }
      if (n.from) out.from = s(n.from)
      if (n.to) out.to = s(n.to)
      return out
    }
    case 'Call':
      return { ...n, args: n.args.map(s), at: 0 }
    case 'Method':
      return { ...n, object: s(n.object), args: n.args.map(s), at: 0 }
    case 'Conditional': {
      const base = { _tag: 'Conditional' as const, cond: s(n.cond), otherwise: s(n.otherwise), at: 0 }
      return n.then ? { ...base, then: s(n.then) } : base
    }
  }
}
