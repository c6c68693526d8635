// Evaluate: runs a checked expression in an environment and records what it read: every facts,
// data and environ path, every file, and whether it read the clock. The clock and the file system
// are inputs (a time value and a readFile capability), so evaluation stays pure.
import * as Budget from './Budget.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Ast from './Ast.js'
import type { Node } from './Ast.js'
import * as Builtins from './Builtins.js'
import * as Ccm from './Ccm.js'
import * as Checked from './Checked.js'
import * as ExprError from './ExprError.js'
import * as Operators from './Operators.js'
import * as Predicates from './Predicates.js'
import * as TemplateSyntax from './TemplateSyntax.js'
import { State, type R, type Ref } from './EvalState.js'
import * as Value from './Value.js'
import * as Work from './Work.js'
import { fail, orFail, run, Stop } from './EvalStop.js'

// model

import type { Env, Extra, Read, Reads, Root } from './Env.js'

export type { Env, Extra, Read, Reads, Root }
export { env } from './Env.js'

export interface Outcome {
  readonly value: Value.Value
  readonly reads: Reads
}

/** How deeply `template()` may nest. */
export const maxTemplateDepth = 8

// evaluation

/** Type-checks and evaluates a tree. */
export const evaluate = (node: Node, environment: Env): E.Either<ExprError.ExprError, Outcome> => {
  const checked = Checked.check(node, environment)
  if (E.isLeft(checked)) return checked
  return run(evaluated, node, new State(environment))
}

const evaluated = (node: Node, state: State): Outcome => {
  const value = state.use(evaluateNode(node, state))
  return { value, reads: state.result() }
}

/** Renders a parsed template (see Template.render); `matched` is false when every hole gave "" or nil. */
export const renderTemplate = (
  template: TemplateSyntax.Template,
  environment: Env,
): E.Either<ExprError.ExprError, Outcome & { readonly matched: boolean }> => run(rendered, template, new State(environment))

// no spread copy of render's result: this runs once for every value a manifest templates, in code that is never optimized
const rendered = (template: TemplateSyntax.Template, state: State): Outcome & { readonly matched: boolean } => {
  const r = render(template, state)
  return { value: r.value, matched: r.matched, reads: state.result() }
}

/** A template's hole, checked and evaluated; a failure's offset is the template's. */
const hole = (h: TemplateSyntax.Hole, state: State): Value.Value => {
  const checked = Checked.check(h.node, state.env)
  if (E.isLeft(checked)) throw new Stop(ExprError.shift(checked.left, h.offset))
  try {
    return state.use(evaluateNode(h.node, state))
  } catch (e) {
    if (e instanceof Stop) throw new Stop(ExprError.shift(e.error, h.offset))
    throw e
  }
}

const empty = (v: Value.Value): boolean => v === null || v === ''

const render = (template: TemplateSyntax.Template, state: State): { value: Value.Value; matched: boolean } => {
  const one = TemplateSyntax.single(template)
  if (one !== undefined) {
    const value = hole(one, state)
    // A lone hole keeps a non-string value's type; a string keeps the whitespace written around
    // the hole, so that "{{ Data.motd }}\n" still ends in a newline.
    if (typeof value !== 'string') return { value, matched: !empty(value) }
    const text = template.parts.map((p) => (p._tag === 'Text' ? p.text : value)).join('')
    return { value: text, matched: !empty(value) }
  }
  const parts = template.parts
  // indexed loops: for-of makes an iterator result per part in code never optimized
  let matched = parts.length > 0 && template.source !== ''
  for (let i = 0; i < parts.length; i++) if (parts[i]!._tag !== 'Text') matched = false
  const pieces: string[] = []
  let length = 0
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    if (p._tag === 'Text') {
      pieces.push(p.text)
      length += p.text.length
    } else {
      const v = hole(p, state)
      if (!empty(v)) matched = true
      const text = Value.format(v)
      if (length + text.length > Budget.maxString) throw new Stop(ExprError.runtime(`the template's result is longer than the limit of ${Budget.maxString} characters`, p.offset))
      pieces.push(text)
      length += text.length
    }
  }
  // Joined, not concatenated: one flat string. `+=` left a rope of the pieces, which a file
  // resource kept with its content until the content was first hashed, and flattened into a copy then.
  return { value: pieces.join(''), matched }
}

/** Where each root's value comes from: one each (a ref and its path are never changed once made, only copied longer). */
const roots: Readonly<Record<Root, Ref>> = {
  facts: Object.freeze({ root: 'facts', path: Object.freeze([]) }),
  data: Object.freeze({ root: 'data', path: Object.freeze([]) }),
  environ: Object.freeze({ root: 'environ', path: Object.freeze([]) }),
}

const variable = (name: string, state: State): R => {
  const { env } = state
  const own = env.extra?.variables?.get(name)
  if (own !== undefined) return { value: own }
  if (env.mode === 'policy') return fail(`unknown name ${name}`, 0)
  if (env.mode === 'hierarchy') return name === 'facts' ? { value: env.facts, ref: roots.facts } : fail(`unknown name ${name}`, 0)
  switch (name) {
    case 'Facts':
      return { value: env.facts, ref: roots.facts }
    case 'Data':
      return { value: env.data, ref: roots.data }
    case 'Environ':
      return { value: env.environ, ref: roots.environ }
  }
  return fail(`unknown name ${name}`, 0)
}

/**
 * Evaluates one node within the budget: steps counted, a result too large refused. A value a node
 * builds (a literal list or map, a call's, a slice's or an operator's result; not one it only
 * reads, from data, facts or a variable) is measured and charged as work (Work.ts).
 */
const evaluateNode = (n: Node, state: State): R => {
  state.steps += 1
  if (state.steps > Budget.maxSteps) return fail(`the expression takes more than ${Budget.maxSteps} steps`, n.at)
  const r = evaluateInner(n, state)
  const v = r.value
  if (typeof v === 'string' && v.length > Budget.maxString) return fail(`the value is longer than the limit of ${Budget.maxString} characters`, n.at)
  if (Array.isArray(v) && v.length > Budget.maxItems) return fail(`the list has more than the limit of ${Budget.maxItems} items`, n.at)
  if (builds(n)) orFail(Work.charge(state, orFail(Work.ofBuilt(v), n.at)), n.at)
  return r
}

/** Whether a node's value is one it built (measured and charged), not one it read. */
const builds = (n: Node): boolean => n._tag === 'Array' || n._tag === 'Map' || n._tag === 'Call' || n._tag === 'Slice' || n._tag === 'Unary' || n._tag === 'Binary'

/** A node's value, evaluated and recorded as read. */
const use = (x: Node, state: State): Value.Value => state.use(evaluateNode(x, state))

// No closures made at each call (`ev`, `use` over the state, as before): this runs for every node of
// every value a manifest templates, in code that is never optimized, where each is allocated.
const evaluateInner = (n: Node, state: State): R => {
  switch (n._tag) {
    case 'Nil':
      return { value: null }
    case 'Bool':
    case 'Int':
    case 'Float':
    case 'Str':
      return { value: n.value }
    case 'Ident':
      try {
        return variable(n.name, state)
      } catch (e) {
        if (e instanceof Stop) fail(e.error.message, n.at)
        throw e
      }
    case 'Array':
      return { value: Value.array(n.items.map((x) => use(x, state))) }
    case 'Map':
      return {
        value: Value.map(
          n.entries.map((e) => {
            const k = use(e.key, state)
            if (typeof k !== 'string') fail(`a map key must be a string, not ${Value.goType(k)}`, e.key.at)
            return [k as string, use(e.value, state)] as const
          }),
        ),
      }
    case 'Unary':
      return { value: orFail(Operators.unary(n.op, use(n.operand, state)), n.at) }
    case 'Binary':
      return binary(n, state)
    case 'Compare': {
      let left = use(n.first, state)
      for (const link of n.links) {
        const right = use(link.operand, state)
        orFail(Work.charge(state, Work.ofRead(left) + Work.ofRead(right)), n.at)
        const r = orFail(Operators.binary(link.op, left, right), link.at)
        if ((r === true) === link.negated) return { value: false }
        left = right
      }
      return { value: true }
    }
    case 'Member':
      return member(n, state)
    case 'Slice': {
      const o = evaluateNode(n.object, state)
      if (o.shorted) return o
      const from = n.from === undefined ? null : use(n.from, state)
      const to = n.to === undefined ? null : use(n.to, state)
      return { value: orFail(Operators.slice(state.use(o), from, to), n.at) }
    }
    case 'Call':
      return { value: call(n, state) }
    case 'Method': {
      const o = evaluateNode(n.object, state)
      if (o.shorted) return o
      if (o.value === null && n.optional) return { value: null, shorted: true }
      const v = state.use(o)
      n.args.forEach((a) => use(a, state))
      if (!(v instanceof Value.Time)) return fail(`type ${Value.goType(v)} has no method ${n.name}`, n.at)
      return { value: orFail(Builtins.timeMethod(v, n.name, n.args.length), n.at) }
    }
    case 'Pointer': {
      const scope = state.scopes[state.scopes.length - 1]
      if (scope === undefined) return fail('cannot use pointer accessor outside predicate', n.at)
      if (n.name === 'index') return { value: BigInt(scope.index) }
      if (n.name === 'acc') return scope.acc === undefined ? fail('unknown pointer #acc (only reduce has an accumulator)', n.at) : { value: scope.acc }
      return { value: scope.item }
    }
    case 'Closure':
      return fail('a predicate is allowed only as the second argument of a predicate built-in', n.at)
    case 'Conditional': {
      const c = use(n.cond, state)
      if (typeof c !== 'boolean') return fail(`non-bool expression (type ${Value.goType(c)}) used as condition`, n.cond.at)
      if (c) return n.then === undefined ? { value: c } : evaluateNode(n.then, state)
      return evaluateNode(n.otherwise, state)
    }
  }
}

type Binary = Extract<Node, { _tag: 'Binary' }>

/**
 * Evaluates a chain of binary operators along its left spine without recursion (`a + b + c + ...`
 * nests to the left, one level per term): the leftmost operand first, then each operator with its
 * right operand, in the order recursion would take.
 */
const binary = (n: Binary, state: State): R => {
  const spine: Binary[] = []
  let x: Node = n
  while (x._tag === 'Binary') {
    spine.push(x)
    x = x.left
  }
  let acc = evaluateNode(x, state)
  for (let i = spine.length - 1; i >= 0; i -= 1) {
    if (i < spine.length - 1) {
      state.steps += 1
      if (state.steps > Budget.maxSteps) return fail(`the expression takes more than ${Budget.maxSteps} steps`, spine[i]!.at)
    }
    acc = binaryStep(spine[i]!, acc, state)
  }
  return acc
}

/** One operator of a chain, its left operand already evaluated (not yet used). */
const binaryStep = (n: Binary, left: R, state: State): R => {
  const ev = (x: Node): R => evaluateNode(x, state)
  const use = (x: Node): Value.Value => state.use(ev(x))
  const bool = (v: Value.Value): boolean => (typeof v === 'boolean' ? v : fail(`non-bool value (type ${Value.goType(v)}) used with ${n.op}`, n.at))
  switch (n.op) {
    case 'and':
    case '&&': {
      if (!bool(state.use(left))) return { value: false }
      return { value: bool(use(n.right)) }
    }
    case 'or':
    case '||': {
      if (bool(state.use(left))) return { value: true }
      return { value: bool(use(n.right)) }
    }
    case '??': {
      if (left.value !== null) return left
      if (left.ref !== undefined) state.record(left.ref)
      return ev(n.right)
    }
    default: {
      const l = state.use(left)
      const r = use(n.right)
      orFail(Work.charge(state, Work.ofRead(l) + Work.ofRead(r)), n.at)
      const v = orFail(n.op === 'matches' ? orFail(Work.metered(state, () => Operators.binary(n.op, l, r)), n.at) : Operators.binary(n.op, l, r), n.at)
      return { value: n.negated ? !v : v }
    }
  }
}

const keyText = (k: Value.Value): string => (typeof k === 'string' ? k : Value.format(k))

/** The result of reading `key` of `o`: `value`, from where `o` came with the key added. */
const child = (o: R, value: Value.Value, key: string): R => (o.ref === undefined ? { value } : { value, ref: { root: o.ref.root, path: o.ref.path.concat(key) } })

const member = (n: Extract<Node, { _tag: 'Member' }>, state: State): R => {
  const o = evaluateNode(n.object, state)
  if (o.shorted) return o
  if (o.value === null && n.optional) {
    if (o.ref !== undefined) state.record(o.ref)
    return { value: null, shorted: true }
  }
  const k = state.use(evaluateNode(n.property, state))
  const v = o.value
  if (Value.isMap(v)) {
    if (typeof k !== 'string') return fail(`invalid operation: cannot use ${Value.goType(k)} as index to ${Value.goType(v)}`, n.at)
    const found = Value.get(v, k)
    const environ = o.ref !== undefined && o.ref.root === 'environ' && o.ref.path.length === 0
    return child(o, found ?? (environ ? '' : null), k)
  }
  // An array element extends the array's path; anything else reads the object itself.
  if (!Value.isArray(v)) state.use(o)
  if (Value.isArray(v) || typeof v === 'string') {
    if (typeof k !== 'bigint') return fail(`invalid operation: cannot use ${Value.goType(k)} as index to ${Value.goType(v)}`, n.at)
    const bytes = typeof v === 'string' ? Value.utf8.encode(v) : undefined
    const length = bytes === undefined ? (v as ReadonlyArray<Value.Value>).length : bytes.length
    const i = k < 0n ? k + BigInt(length) : k
    if (i < 0n || i >= BigInt(length)) return fail(`index out of range: ${i} (array length is ${length})`, n.at)
    return bytes === undefined ? child(o, (v as ReadonlyArray<Value.Value>)[Number(i)]!, i.toString()) : { value: BigInt(bytes[Number(i)]!) }
  }
  return fail(`cannot fetch ${keyText(k)} from ${Value.goType(v)}`, n.at)
}

/** A predicate built-in: the list first, then the other arguments, then the predicate once per element (each a step). */
const predicateCall = (n: Extract<Node, { _tag: 'Call' }>, state: State): Value.Value => {
  const [listNode, closure, ...restNodes] = n.args
  const list = state.use(evaluateNode(listNode!, state))
  const rest = restNodes.map((a) => state.use(evaluateNode(a, state)))
  const body = closure?._tag === 'Closure' ? closure.body : undefined
  const test: Predicates.Test | undefined =
    body === undefined
      ? undefined
      : (item, index, acc) => {
          state.steps += 1
          if (state.steps > Budget.maxSteps) return fail(`the expression takes more than ${Budget.maxSteps} steps`, body.at)
          state.scopes.push(acc === undefined ? { item, index } : { item, index, acc })
          try {
            return state.use(evaluateNode(body, state))
          } finally {
            state.scopes.pop()
          }
        }
  return orFail(Predicates.run(n.name, list, test, rest), n.at)
}

const call = (n: Extract<Node, { _tag: 'Call' }>, state: State): Value.Value => {
  if (Ast.predicates.has(n.name)) return predicateCall(n, state)
  const args = n.args.map((a) => state.use(evaluateNode(a, state)))
  const b = Builtins.builtins.get(n.name)
  if (b !== undefined) {
    orFail(Builtins.arity(n.name, b, args.length), n.at)
    return orFail(b.run(args), n.at)
  }
  const own = state.env.extra?.functions?.get(n.name)
  if (own !== undefined) return orFail(own(args), n.at)
  switch (n.name) {
    case 'now':
      if (state.env.now === undefined) return fail('now() is not available here: no clock was given to the evaluator', n.at)
      state.readClock()
      return state.env.now
    case 'lookup':
      return orFail(Ccm.lookup(args, state.env, state), n.at)
    case 'readFile':
    case 'file':
      return orFail(Ccm.readFile(n.name, args, state.env, state), n.at)
    case 'template':
      return template(args, state, n.at)
  }
  return fail(`unknown func ${n.name}`, n.at)
}

const template = (args: ReadonlyArray<Value.Value>, state: State, at: number): Value.Value => {
  const text = args[0]
  if (args.length !== 1 || typeof text !== 'string') return fail('template requires a string argument', at)
  if (text.endsWith('.jet')) return fail('Jet templates are not supported by plait', at)
  const body = text.endsWith('.templ') ? orFail(Ccm.readFile('template', [text], state.env, state), at) : text
  if (state.depth >= maxTemplateDepth) return fail('templates are nested too deeply', at)
  const parsed = TemplateSyntax.parse(body)
  if (E.isLeft(parsed)) return fail(`template: ${parsed.left.message}`, at)
  state.depth += 1
  try {
    return render(parsed.right, state).value
  } catch (e) {
    if (e instanceof Stop) return fail(`template: ${e.error.message}`, at)
    throw e
  } finally {
    state.depth -= 1
  }
}
