// Parser: tokens to a syntax tree, following expr-lang's grammar and precedence (current
// expr-lang, the version CCM uses: `??`, `?.`, chained comparisons, `not in` / `not contains`).
import * as E from 'fp-ts/lib/Either.js'
import * as Ast from './Ast.js'
import { binary, children, isBinaryOp, isCompareOp, negatable, unary, type BinaryOp, type Node, type UnaryOp } from './Ast.js'
import * as ExprError from './ExprError.js'
import * as Lexer from './Lexer.js'

/** Built-ins of expr-lang that take a predicate as their second argument (`filter(list, {# > 1})`). */
export const predicates: ReadonlySet<string> = new Set(Ast.predicates.keys())

/** How deeply a tree may nest; deeper expressions are refused rather than exhausting the stack. */
export const maxDepth = 256

/** Parses an expression into a tree, or the first syntax error with its offset. */
export const parse = (src: string): E.Either<ExprError.ExprError, Node> => parseAs(src, false)

/** Parses the body of a predicate on its own (`.type == "package"`: `#` and `.x` allowed), for callers that supply the list. */
export const parsePredicate = (src: string): E.Either<ExprError.ExprError, Node> => parseAs(src, true)

const parseAs = (src: string, predicate: boolean): E.Either<ExprError.ExprError, Node> => {
  const tokens = Lexer.lex(src)
  if (E.isLeft(tokens)) return tokens
  try {
    const node = new Parser(tokens.right, predicate ? 1 : 0).top()
    const deep = tooDeep(node)
    return deep === undefined ? E.right(node) : E.left(ExprError.syntax(`expression nests too deeply (more than ${maxDepth} levels)`, deep.at))
  } catch (e) {
    if (e instanceof Stop) return E.left(e.error)
    if (e instanceof RangeError) return E.left(ExprError.syntax(`expression nests too deeply (more than ${maxDepth} levels)`, 0))
    throw e
  }
}

/** The first node below the allowed depth, found without recursion. */
const tooDeep = (root: Node): Node | undefined => {
  const stack: Array<readonly [Node, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [n, d] = stack.pop()!
    if (d > maxDepth) return n
    // The left operand of a binary operator continues a chain (`a + b + c` nests to the left):
    // a flat chain of any length is as deep as its deepest term, not as long as it is.
    const left = n._tag === 'Binary' ? n.left : undefined
    for (const c of children(n)) stack.push([c, c === left ? d : d + 1])
  }
  return undefined
}

/** Thrown inside the parser only, and turned into a Left by `parse`. */
class Stop {
  constructor(readonly error: ExprError.ExprError) {}
}

class Parser {
  private pos = 0
  private depth = 0
  constructor(
    private readonly tokens: ReadonlyArray<Lexer.Token>,
    /** How many predicates enclose the current token (`#` and `.x` are allowed only inside one). */
    private closures: number,
  ) {}

  private get current(): Lexer.Token {
    return this.tokens[this.pos]!
  }

  private fail(message: string, at: Lexer.Token = this.current): never {
    throw new Stop(ExprError.syntax(message, at.offset))
  }

  private next(): void {
    if (this.pos + 1 >= this.tokens.length) this.fail('unexpected end of expression')
    this.pos += 1
  }

  private expect(kind: Lexer.Kind, value?: string): Lexer.Token {
    const t = this.current
    if (!Lexer.is(t, kind, ...(value === undefined ? [] : [value]))) this.fail(`unexpected token ${Lexer.describe(t)}`)
    this.next()
    return t
  }

  top(): Node {
    const node = this.expression(0)
    if (this.current.kind !== 'EOF') this.fail(`unexpected token ${Lexer.describe(this.current)}`)
    return node
  }

  private expression(precedence: number): Node {
    this.depth += 1
    try {
      if (this.depth > maxDepth) this.fail(`expression nests too deeply (more than ${maxDepth} levels)`)
      return this.operators(precedence)
    } finally {
      this.depth -= 1
    }
  }

  private operators(precedence: number): Node {
    if (precedence === 0 && Lexer.is(this.current, 'Operator', 'let')) this.fail('variable declarations (let) are not supported')
    let left = this.primary()
    let previous = ''
    while (this.current.kind === 'Operator') {
      let opToken = this.current
      let negated = false
      if (opToken.value === 'not') {
        const following = this.tokens[this.pos + 1]!
        if (!(following.kind === 'Operator' && negatable.has(following.value))) this.fail(`unexpected token ${Lexer.describe(following)}`, following)
        if (binary[following.value as BinaryOp].precedence < precedence) break
        this.next()
        opToken = following
        negated = true
      }
      const op = opToken.value
      if (op === '|' && precedence === 0) {
        this.next()
        const name = this.expect('Identifier')
        left = this.call(name, [left])
        previous = op
        continue
      }
      if (!isBinaryOp(op) || binary[op].precedence < precedence) break
      this.next()
      if (previous === '??' && op !== '??') {
        this.fail(`Operator (${op}) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.`, opToken)
      }
      if (isCompareOp(op)) {
        left = this.comparison(left, opToken, negated)
      } else {
        const right = this.expression(binary[op].right ? binary[op].precedence : binary[op].precedence + 1)
        left = { _tag: 'Binary', op, left, right, negated: false, at: opToken.offset }
      }
      previous = op
    }
    return precedence === 0 ? this.conditional(left) : left
  }

  /** `a < b < c`: each comparison after the first takes the previous right operand as its left. */
  private comparison(first: Node, opToken: Lexer.Token, negated: boolean): Node {
    const links: Ast.Link[] = []
    let token = opToken
    let neg = negated
    while (true) {
      const operand = this.expression(binary[token.value as BinaryOp].precedence + 1)
      links.push({ op: token.value as Ast.CompareOp, negated: neg, operand, at: token.offset })
      if (!(this.current.kind === 'Operator' && isCompareOp(this.current.value))) break
      token = this.current
      neg = false
      this.next()
    }
    if (links.length === 1) {
      const only = links[0]!
      return { _tag: 'Binary', op: only.op, left: first, right: only.operand, negated: only.negated, at: only.at }
    }
    return { _tag: 'Compare', first, links, at: opToken.offset }
  }

  private conditional(cond: Node): Node {
    let node = cond
    while (Lexer.is(this.current, 'Operator', '?')) {
      const q = this.current
      this.next()
      if (Lexer.is(this.current, 'Operator', ':')) {
        this.next()
        const otherwise = this.expression(0)
        node = { _tag: 'Conditional', cond: node, otherwise, at: q.offset }
      } else {
        const then = this.expression(0)
        this.expect('Operator', ':')
        const otherwise = this.expression(0)
        node = { _tag: 'Conditional', cond: node, then, otherwise, at: q.offset }
      }
    }
    return node
  }

  private primary(): Node {
    const t = this.current
    if (t.kind === 'Operator' && Object.prototype.hasOwnProperty.call(unary, t.value)) {
      this.next()
      const operand = this.expression(unary[t.value as UnaryOp])
      return this.postfix({ _tag: 'Unary', op: t.value as UnaryOp, operand, at: t.offset })
    }
    if (Lexer.is(t, 'Bracket', '(')) {
      this.next()
      const inner = this.expression(0)
      this.expect('Bracket', ')')
      return this.postfix(inner)
    }
    if (Lexer.is(t, 'Operator', '#') || Lexer.is(t, 'Operator', '.')) {
      if (this.closures === 0) this.fail('cannot use pointer accessor outside predicate')
      return this.postfix(this.pointer())
    }
    return this.secondary()
  }

  private secondary(): Node {
    const t = this.current
    switch (t.kind) {
      case 'Identifier': {
        this.next()
        if (t.value === 'true' || t.value === 'false') return { _tag: 'Bool', value: t.value === 'true', at: t.offset }
        if (t.value === 'nil') return { _tag: 'Nil', at: t.offset }
        const node: Node = Lexer.is(this.current, 'Bracket', '(') ? this.call(t, []) : { _tag: 'Ident', name: t.value, at: t.offset }
        return this.postfix(node)
      }
      case 'Number':
        this.next()
        return this.number(t)
      case 'String':
        this.next()
        return this.postfix({ _tag: 'Str', value: t.value, at: t.offset })
      default:
        if (Lexer.is(t, 'Bracket', '[')) return this.postfix(this.array())
        if (Lexer.is(t, 'Bracket', '{')) return this.postfix(this.map())
        return this.fail(`unexpected token ${Lexer.describe(t)}`)
    }
  }

  private number(t: Lexer.Token): Node {
    const text = t.value.replace(/_/g, '')
    const lower = text.toLowerCase()
    const int = (digits: string, prefix: string, what: string): Node => {
      const ok = { x: /^[0-9a-f]+$/, o: /^[0-7]+$/, b: /^[01]+$/, '': /^[0-9]+$/ }[prefix]!
      if (!ok.test(digits)) this.fail(`invalid ${what} literal: ${JSON.stringify(t.value)}`, t)
      const value = BigInt(prefix === '' ? digits : `0${prefix}${digits}`)
      if (value > 9223372036854775807n) this.fail('integer literal is too large', t)
      return { _tag: 'Int', value, at: t.offset }
    }
    if (lower.startsWith('0x')) return int(lower.slice(2), 'x', 'hex')
    if (lower.includes('.') || lower.includes('e')) {
      const value = Number(text)
      if (!/^([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?$/.test(lower) || !Number.isFinite(value)) {
        this.fail(`invalid float literal: ${JSON.stringify(t.value)}`, t)
      }
      return { _tag: 'Float', value, at: t.offset }
    }
    if (lower.startsWith('0b')) return int(lower.slice(2), 'b', 'binary')
    if (lower.startsWith('0o')) return int(lower.slice(2), 'o', 'octal')
    return int(lower, '', 'integer')
  }

  /** `#`, `#index`, `#acc` (the name written right after `#`), or `.name` for `#.name`. */
  private pointer(): Node {
    const t = this.current
    this.next()
    if (t.value === '.') {
      const name = this.current
      const isName = name.kind === 'Identifier' || (name.kind === 'Operator' && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name.value))
      if (!isName) this.fail('expected name')
      this.next()
      const self: Node = { _tag: 'Pointer', name: '', at: t.offset }
      return { _tag: 'Member', object: self, property: { _tag: 'Str', value: name.value, at: name.offset }, computed: false, optional: false, at: name.offset }
    }
    const after = this.current
    if (after.kind === 'Identifier' && after.offset === t.end) {
      if (after.value !== 'index' && after.value !== 'acc') this.fail(`unknown pointer #${after.value}`, after)
      this.next()
      return { _tag: 'Pointer', name: after.value, at: t.offset }
    }
    return { _tag: 'Pointer', name: '', at: t.offset }
  }

  private call(name: Lexer.Token, leading: ReadonlyArray<Node>): Node {
    // A predicate built-in's second argument (the first written, after a pipe) is a predicate.
    const closureAt = predicates.has(name.value) ? 1 - leading.length : -1
    const args = [...leading, ...this.arguments(closureAt)]
    return { _tag: 'Call', name: name.value, args, at: name.offset }
  }

  /** Call arguments; the one at `closureAt` (when not negative) is a predicate. */
  private arguments(closureAt = -1): ReadonlyArray<Node> {
    this.expect('Bracket', '(')
    const args: Node[] = []
    while (!Lexer.is(this.current, 'Bracket', ')')) {
      if (args.length > 0) {
        this.expect('Operator', ',')
        if (Lexer.is(this.current, 'Bracket', ')')) break
      }
      args.push(args.length === closureAt ? this.closure() : this.expression(0))
    }
    this.expect('Bracket', ')')
    return args
  }

  /** A predicate: `{ body }`, or a bare body (`filter(xs, # > 1)`), as expr-lang reads both. */
  private closure(): Node {
    const open = this.current
    const braced = Lexer.is(open, 'Bracket', '{')
    if (braced) this.next()
    this.closures += 1
    try {
      const body = this.expression(0)
      if (braced) this.expect('Bracket', '}')
      return { _tag: 'Closure', body, at: open.offset }
    } finally {
      this.closures -= 1
    }
  }

  private array(): Node {
    const open = this.expect('Bracket', '[')
    const items: Node[] = []
    while (!Lexer.is(this.current, 'Bracket', ']')) {
      if (items.length > 0) {
        this.expect('Operator', ',')
        if (Lexer.is(this.current, 'Bracket', ']')) break
      }
      items.push(this.expression(0))
    }
    this.expect('Bracket', ']')
    return { _tag: 'Array', items, at: open.offset }
  }

  private map(): Node {
    const open = this.expect('Bracket', '{')
    const entries: Ast.Entry[] = []
    while (!Lexer.is(this.current, 'Bracket', '}')) {
      if (entries.length > 0) {
        this.expect('Operator', ',')
        if (Lexer.is(this.current, 'Bracket', '}')) break
        if (Lexer.is(this.current, 'Operator', ',')) this.fail(`unexpected token ${Lexer.describe(this.current)}`)
      }
      const k = this.current
      let key: Node
      if (k.kind === 'Number' || k.kind === 'String' || k.kind === 'Identifier') {
        key = { _tag: 'Str', value: k.value, at: k.offset }
        this.next()
      } else if (Lexer.is(k, 'Bracket', '(')) {
        key = this.expression(0)
      } else {
        return this.fail(
          `a map key must be a quoted string, a number, a identifier, or an expression enclosed in parentheses (unexpected token ${Lexer.describe(k)})`,
        )
      }
      this.expect('Operator', ':')
      entries.push({ key, value: this.expression(0) })
    }
    this.expect('Bracket', '}')
    return { _tag: 'Map', entries, at: open.offset }
  }

  private postfix(start: Node): Node {
    let node = start
    while (true) {
      const t = this.current
      if (Lexer.is(t, 'Operator', '.') || Lexer.is(t, 'Operator', '?.')) {
        const optional = t.value === '?.'
        this.next()
        if (optional && Lexer.is(this.current, 'Bracket', '[')) {
          node = this.bracket(node, true)
          continue
        }
        const name = this.current
        this.next()
        const isName = name.kind === 'Identifier' || (name.kind === 'Operator' && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name.value))
        if (!isName) this.fail('expected name')
        if (Lexer.is(this.current, 'Bracket', '(')) {
          node = { _tag: 'Method', object: node, name: name.value, args: this.arguments(), optional, at: name.offset }
        } else {
          node = { _tag: 'Member', object: node, property: { _tag: 'Str', value: name.value, at: name.offset }, computed: false, optional, at: name.offset }
        }
      } else if (Lexer.is(t, 'Bracket', '[')) {
        node = this.bracket(node, false)
      } else {
        return node
      }
    }
  }

  /** `[i]`, `[a:b]`, `[:b]`, `[a:]`, `[:]` after a value. */
  private bracket(object: Node, optional: boolean): Node {
    const open = this.expect('Bracket', '[')
    if (Lexer.is(this.current, 'Operator', ':')) {
      this.next()
      const to = Lexer.is(this.current, 'Bracket', ']') ? undefined : this.expression(0)
      this.expect('Bracket', ']')
      return to === undefined ? { _tag: 'Slice', object, at: open.offset } : { _tag: 'Slice', object, to, at: open.offset }
    }
    const from = this.expression(0)
    if (Lexer.is(this.current, 'Operator', ':')) {
      this.next()
      const to = Lexer.is(this.current, 'Bracket', ']') ? undefined : this.expression(0)
      this.expect('Bracket', ']')
      return to === undefined ? { _tag: 'Slice', object, from, at: open.offset } : { _tag: 'Slice', object, from, to, at: open.offset }
    }
    this.expect('Bracket', ']')
    return { _tag: 'Member', object, property: from, computed: true, optional, at: open.offset }
  }
}
