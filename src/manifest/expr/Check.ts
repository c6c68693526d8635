// Check: the type check expr-lang does before evaluating. Unknown names and functions, and
// operators or built-ins applied to literal types that cannot take them, are errors even in a
// branch that would never run (`false and 1 + "a"` fails, as in expr-lang).
import * as E from 'fp-ts/lib/Either.js'
import * as Ast from './Ast.js'
import type { Node } from './Ast.js'
import * as Builtins from './Builtins.js'
import * as ExprError from './ExprError.js'
import * as Regex from './Regex.js'
import * as Value from './Value.js'

type Type = Builtins.Type

// model

/** Where an expression is evaluated: a manifest, a hierarchy entry (facts and lookup only), or a policy (only the names its caller adds: the plan). */
export type Mode = 'manifest' | 'hierarchy' | 'policy'

/** The variables of each mode, with their types. */
export const variables: Readonly<Record<Mode, ReadonlyMap<string, Type>>> = {
  manifest: new Map<string, Type>([
    ['Facts', 'map'],
    ['Data', 'map'],
    ['Environ', 'environ'],
  ]),
  hierarchy: new Map<string, Type>([['facts', 'map']]),
  policy: new Map<string, Type>(),
}

/** The environment functions (CCM's, beside expr-lang's built-ins) of each mode, with result types. */
export const functions: Readonly<Record<Mode, ReadonlyMap<string, Type>>> = {
  manifest: new Map<string, Type>([
    ['lookup', 'any'],
    ['readFile', 'any'],
    ['file', 'any'],
    ['template', 'any'],
    ['now', 'time'],
  ]),
  hierarchy: new Map<string, Type>([
    ['lookup', 'any'],
    ['now', 'time'],
  ]),
  policy: new Map<string, Type>(),
}

/** CCM functions plait does not provide, named so that the error says so. */
export const unsupported: ReadonlyMap<string, string> = new Map([
  ['jet', 'Jet templates are not supported by plait'],
  ['registrations', 'registrations() (Choria service registrations) is not supported by plait'],
  ['kvGet', 'kvGet() (Choria key-value store) is not supported by plait'],
])

// checking

const known = (t: Type): t is Value.Kind => t !== 'any' && t !== 'environ'
const kindOf = (t: Type): Value.Kind | 'any' => (t === 'environ' ? 'map' : t)
const isNum = (t: Type): boolean => t === 'int' || t === 'float'
const go = (t: Type): string => Value.goTypeOf(kindOf(t) === 'any' ? 'nil' : (kindOf(t) as Value.Kind))

class Stop {
  constructor(readonly error: ExprError.ExprError) {}
}

/** Names a caller adds to a mode (validators' `value` and `isIPv4()`, say): they are any-typed. */
export interface Extra {
  readonly variables?: ReadonlySet<string>
  readonly functions?: ReadonlySet<string>
}

/** Type-checks a tree for a mode; the result is the expression's static type. */
export const check = (node: Node, mode: Mode, extra: Extra = {}): E.Either<ExprError.ExprError, Type> => {
  try {
    return E.right(typeOf(node, mode, extra, []))
  } catch (e) {
    if (e instanceof Stop) return E.left(e.error)
    throw e
  }
}

const fail = (message: string, at: number): never => {
  throw new Stop(ExprError.type(message, at))
}

/** The static rule of a binary operator on two types; undefined when it cannot apply. */
const binaryType = (op: string, l: Type, r: Type): Type | undefined => {
  const lk = kindOf(l)
  const rk = kindOf(r)
  const either = (ok: (t: Type) => boolean, result: Type): Type | undefined =>
    (lk === 'any' || ok(l)) && (rk === 'any' || ok(r)) ? result : undefined
  switch (op) {
    case 'and':
    case '&&':
    case 'or':
    case '||':
      return either((t) => t === 'bool', 'bool')
    case '==':
    case '!=':
      if (lk === 'any' || rk === 'any' || lk === 'nil' || rk === 'nil' || lk === rk || (isNum(l) && isNum(r))) return 'bool'
      return undefined
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (lk === 'any' || rk === 'any') return either((t) => isNum(t) || t === 'string' || t === 'time', 'bool')
      return (isNum(l) && isNum(r)) || (lk === rk && (lk === 'string' || lk === 'time')) ? 'bool' : undefined
    case 'in':
      if (rk === 'any') return 'bool'
      if (rk === 'array') return 'bool'
      if (rk === 'map') return lk === 'any' || lk === 'string' ? 'bool' : undefined
      return undefined
    case 'matches':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return either((t) => t === 'string', 'bool')
    case '..':
      return either((t) => t === 'int', 'array')
    case '??':
      return lk === 'any' || rk === 'any' ? 'any' : lk === 'nil' ? r : lk === rk ? l : 'any'
    case '+':
      if (lk === 'string' && rk === 'string') return 'string'
      if (isNum(l) && isNum(r)) return lk === 'int' && rk === 'int' ? 'int' : 'float'
      return lk === 'any' || rk === 'any' ? either((t) => isNum(t) || t === 'string', 'any') : undefined
    case '-':
    case '*':
      if (isNum(l) && isNum(r)) return lk === 'int' && rk === 'int' ? 'int' : 'float'
      return lk === 'any' || rk === 'any' ? either(isNum, 'any') : undefined
    case '%':
      return either((t) => t === 'int', lk === 'any' || rk === 'any' ? 'any' : 'int')
    case '/':
    case '**':
    case '^':
      return either(isNum, 'float')
  }
  return undefined
}

/** What each predicate built-in gives, and whether its predicate must give a bool. */
const predicateResults: ReadonlyMap<string, { readonly result: Type; readonly bool: boolean }> = new Map([
  ['all', { result: 'bool', bool: true }],
  ['none', { result: 'bool', bool: true }],
  ['any', { result: 'bool', bool: true }],
  ['one', { result: 'bool', bool: true }],
  ['filter', { result: 'array', bool: true }],
  ['map', { result: 'array', bool: false }],
  ['count', { result: 'int', bool: true }],
  ['sum', { result: 'any', bool: false }],
  ['find', { result: 'any', bool: true }],
  ['findIndex', { result: 'int', bool: true }],
  ['findLast', { result: 'any', bool: true }],
  ['findLastIndex', { result: 'int', bool: true }],
  ['groupBy', { result: 'map', bool: false }],
  ['sortBy', { result: 'array', bool: false }],
  ['reduce', { result: 'any', bool: false }],
])

/** A call of a predicate built-in: its list, its predicate (checked inside the built-in's scope), its other arguments. */
const predicateCall = (n: Extract<Node, { _tag: 'Call' }>, mode: Mode, extra: Extra, scopes: ReadonlyArray<string>): Type => {
  const { min, max } = Ast.predicates.get(n.name)!
  const count = n.args.length
  if (count < min || count > max) fail(`invalid number of arguments for ${n.name} (expected ${min === max ? min : `${min} or ${max}`}, got ${count})`, n.at)
  const spec = predicateResults.get(n.name)!
  n.args.forEach((a, i) => {
    if ((a._tag === 'Closure') !== (i === 1)) fail(i === 1 ? `the second argument of ${n.name} must be a predicate` : `a predicate is allowed only as the second argument of ${n.name}`, a.at)
    const at = a._tag === 'Closure' ? typeOf(a.body, mode, extra, [...scopes, n.name]) : typeOf(a, mode, extra, scopes)
    if (i === 0 && known(at) && at !== 'array') fail(`builtin ${n.name} takes only array (got ${go(at)})`, a.at)
    if (i === 1 && spec.bool && known(at) && at !== 'bool') fail(`predicate should return boolean (got ${go(at)})`, a.at)
    if (i === 2 && n.name === 'sortBy' && known(at) && at !== 'string') fail(`invalid argument for sortBy (type ${go(at)})`, a.at)
  })
  return spec.result
}

const typeOf = (n: Node, mode: Mode, extra: Extra, scopes: ReadonlyArray<string>): Type => {
  const t = (x: Node): Type => typeOf(x, mode, extra, scopes)
  switch (n._tag) {
    case 'Pointer':
      if (scopes.length === 0) return fail('cannot use pointer accessor outside predicate', n.at)
      if (n.name === 'acc' && scopes[scopes.length - 1] !== 'reduce') return fail('unknown pointer #acc (only reduce has an accumulator)', n.at)
      return n.name === 'index' ? 'int' : 'any'
    case 'Closure':
      return fail('a predicate is allowed only as the second argument of a predicate built-in', n.at)
    case 'Nil':
      return 'nil'
    case 'Bool':
      return 'bool'
    case 'Int':
      return 'int'
    case 'Float':
      return 'float'
    case 'Str':
      return 'string'
    case 'Ident': {
      const v = variables[mode].get(n.name) ?? (extra.variables?.has(n.name) ? 'any' : undefined)
      return v ?? fail(`unknown name ${n.name}`, n.at)
    }
    case 'Array':
      n.items.forEach(t)
      return 'array'
    case 'Map':
      for (const e of n.entries) {
        const k = t(e.key)
        if (known(k) && k !== 'string') fail(`a map key must be a string, not ${go(k)}`, e.key.at)
        t(e.value)
      }
      return 'map'
    case 'Unary': {
      const o = t(n.operand)
      if (!known(o)) return 'any'
      if ((n.op === '-' || n.op === '+') && isNum(o)) return o
      if ((n.op === '!' || n.op === 'not') && o === 'bool') return 'bool'
      return fail(`invalid operation: ${n.op} (mismatched type ${go(o)})`, n.at)
    }
    case 'Binary': {
      // along the left spine without recursion: a flat chain of any length (`a + b + c + ...`)
      const spine: Array<Extract<Node, { _tag: 'Binary' }>> = []
      let x: Node = n
      while (x._tag === 'Binary') {
        spine.push(x)
        x = x.left
      }
      let l = t(x)
      for (let i = spine.length - 1; i >= 0; i -= 1) {
        const b = spine[i]!
        const r = t(b.right)
        if (b.op === 'matches' && b.right._tag === 'Str') {
          const re = Regex.compile(b.right.value)
          if (E.isLeft(re)) fail(re.left, b.right.at)
        }
        const out = binaryType(b.op, l, r)
        l = out ?? fail(`invalid operation: ${b.op} (mismatched types ${go(l)} and ${go(r)})`, b.at)
      }
      return l
    }
    case 'Compare': {
      let left = t(n.first)
      for (const link of n.links) {
        const right = t(link.operand)
        if (binaryType(link.op, left, right) === undefined) fail(`invalid operation: ${link.op} (mismatched types ${go(left)} and ${go(right)})`, link.at)
        left = right
      }
      return 'bool'
    }
    case 'Member': {
      const o = t(n.object)
      const p = t(n.property)
      if (o === 'environ') return 'string'
      const ok = kindOf(o)
      if (ok === 'array' || ok === 'string') {
        if (known(p) && p !== 'int') fail(`invalid operation: cannot use ${go(p)} as index to ${go(o)}`, n.at)
        return ok === 'string' ? 'int' : 'any'
      }
      if (ok === 'map') {
        if (known(p) && p !== 'string') fail(`invalid operation: cannot use ${go(p)} as index to ${go(o)}`, n.at)
        return 'any'
      }
      if (ok === 'any' || ok === 'nil') return 'any'
      const name = n.property._tag === 'Str' ? n.property.value : '[...]'
      return fail(n.computed ? `invalid operation: type ${go(o)} does not support indexing` : `type ${go(o)} has no field ${name}`, n.at)
    }
    case 'Slice': {
      const o = t(n.object)
      for (const bound of [n.from, n.to]) {
        if (bound === undefined) continue
        const b = t(bound)
        if (known(b) && b !== 'int') fail(`invalid operation: non-integer slice index ${go(b)}`, bound.at)
      }
      const ok = kindOf(o)
      if (ok === 'array' || ok === 'string' || ok === 'any') return ok
      return fail(`invalid operation: cannot slice ${go(o)}`, n.at)
    }
    case 'Call': {
      if (Ast.predicates.has(n.name)) return predicateCall(n, mode, extra, scopes)
      const args = n.args.map(t)
      const b = Builtins.builtins.get(n.name)
      if (b !== undefined) {
        const a = Builtins.arity(n.name, b, args.length)
        if (E.isLeft(a)) fail(a.left, n.at)
        args.forEach((at, i) => {
          const ok = Builtins.accepts(b, i)
          if (ok !== undefined && known(at) && !ok.includes(at)) fail(`invalid argument for ${n.name} (type ${go(at)})`, n.at)
        })
        return b.result
      }
      if (extra.functions?.has(n.name)) return 'any'
      const why = unsupported.get(n.name)
      if (why !== undefined) return fail(why, n.at)
      const f = functions[mode].get(n.name)
      if (f === undefined) return fail(`unknown func ${n.name}`, n.at)
      if (n.name === 'now' && args.length > 0) fail(`invalid number of arguments for now (expected 0, got ${args.length})`, n.at)
      return f
    }
    case 'Method': {
      const o = t(n.object)
      n.args.forEach(t)
      if (o === 'time') return Builtins.timeMethods.has(n.name) ? 'int' : fail(`type time.Time has no method ${n.name}`, n.at)
      if (known(o) && o !== 'nil') return fail(`type ${go(o)} has no method ${n.name}`, n.at)
      return 'any'
    }
    case 'Conditional': {
      const c = t(n.cond)
      if (known(c) && c !== 'bool') fail(`non-bool expression (type ${go(c)}) used as condition`, n.cond.at)
      const a = n.then === undefined ? c : t(n.then)
      const b = t(n.otherwise)
      return a === b ? a : 'any'
    }
  }
}
