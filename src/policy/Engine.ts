// Engine: judges a plan by a policy (pure). Every rule is evaluated on the plan's view alone, in
// the policy's order; a rule over a list gives one finding per offending element, at the manifest
// position of that element (its resource's line), never at a line of the plan's JSON.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import * as Position from '../core/Position.js'
import type * as Ast from '../manifest/expr/Ast.js'
import * as Evaluate from '../manifest/expr/Evaluate.js'
import type * as ExprError from '../manifest/expr/ExprError.js'
import * as Template from '../manifest/expr/Template.js'
import * as Value from '../manifest/expr/Value.js'
import type * as Policy from './Policy.js'
import * as View from './View.js'
import * as Append from '../core/Append.js'

// model

/** One offending element (or the whole plan) of one rule. */
export interface Finding {
  readonly rule: string
  readonly level: Policy.Level
  readonly message: string
  /** The manifest position that caused it: the offending resource's line, or the manifest's first line. */
  readonly at: Position.Position
  /** The offending resource's id, when the element names one. */
  readonly resource?: string
}

export interface Outcome {
  /** In policy order, then in the order of each rule's list. */
  readonly findings: ReadonlyArray<Finding>
  /** Rules that could not be evaluated on this plan (each fails the check), at the policy file's line. */
  readonly errors: ReadonlyArray<Diagnostic.Diagnostic>
}

// evaluation

const envOf = (variables: View.Variables): Evaluate.Env => Evaluate.env({ mode: 'policy', extra: { variables } })

const run = (e: Policy.Expression, node: Ast.Node, variables: View.Variables): E.Either<Diagnostic.Diagnostic, Value.Value> =>
  E.bimap(
    (err: ExprError.ExprError) => Diagnostic.make('Expression', err.message, { at: Template.position(e.source, err.offset, e.where) }),
    (o: Evaluate.Outcome) => o.value,
  )(Evaluate.evaluate(node, envOf(variables)))

/** The list a rule judges element by element and its predicate, when it has one (see Policy.Test). */
const split = (t: Policy.Test): { readonly list: Ast.Node; readonly listOf: Policy.Expression; readonly body: Ast.Node; readonly bodyOf: Policy.Expression } | undefined => {
  if (t.each !== undefined) return { list: t.each.node, listOf: t.each, body: t.expression.node, bodyOf: t.expression }
  const n = t.expression.node
  const wanted = t._tag === 'Deny' ? 'any' : 'all'
  if (n._tag === 'Call' && n.name === wanted && n.args.length === 2 && n.args[1]!._tag === 'Closure') {
    return { list: n.args[0]!, listOf: t.expression, body: n.args[1]!.body, bodyOf: t.expression }
  }
  return undefined
}

const bool = (v: Value.Value, e: Policy.Expression, what: string): E.Either<Diagnostic.Diagnostic, boolean> =>
  typeof v === 'boolean' ? E.right(v) : E.left(Diagnostic.make('Expression', `${what} must give a bool, not ${Value.kind(v)}`, { at: e.where.base }))

/** The offending elements of a rule (undefined: the whole plan offends), or none. */
const offending = (r: Policy.Rule, variables: View.Variables): E.Either<Diagnostic.Diagnostic, ReadonlyArray<Value.Value | undefined>> => {
  const parts = split(r.test)
  if (parts === undefined) {
    const v = run(r.test.expression, r.test.expression.node, variables)
    if (E.isLeft(v)) return v
    const holds = bool(v.right, r.test.expression, r.test._tag === 'Deny' ? 'deny' : 'assert')
    if (E.isLeft(holds)) return holds
    return E.right(holds.right === (r.test._tag === 'Deny') ? [undefined] : [])
  }
  const list = run(parts.listOf, parts.list, variables)
  if (E.isLeft(list)) return list
  if (!Value.isArray(list.right)) return E.left(Diagnostic.make('Expression', `the list a rule judges must be a list, not ${Value.kind(list.right)}`, { at: parts.listOf.where.base }))
  const withList = new Map(variables).set(View.eachName, list.right)
  const verdicts = run(parts.bodyOf, View.overEach(parts.body), withList)
  if (E.isLeft(verdicts)) return verdicts
  const out: Value.Value[] = []
  const items = list.right
  for (const [i, v] of (verdicts.right as ReadonlyArray<Value.Value>).entries()) {
    const holds = bool(v, parts.bodyOf, 'the predicate')
    if (E.isLeft(holds)) return holds
    if (holds.right === (r.test._tag === 'Deny')) out.push(items[i]!)
  }
  return E.right(out)
}

/** The findings of one rule on a plan's view. */
export const judge = (r: Policy.Rule, variables: View.Variables, manifest: string): E.Either<Diagnostic.Diagnostic, ReadonlyArray<Finding>> => {
  if (r.when !== undefined) {
    const w = run(r.when, r.when.node, variables)
    if (E.isLeft(w)) return w
    const applies = bool(w.right, r.when, 'when')
    if (E.isLeft(applies)) return applies
    if (!applies.right) return E.right([])
  }
  const bad = offending(r, variables)
  if (E.isLeft(bad)) return bad
  const findings: Finding[] = []
  for (const item of bad.right) {
    const text = Template.renderText(r.message, envOf(new Map(variables).set('item', item ?? null)), r.messageWhere)
    if (E.isLeft(text)) return E.left(Diagnostic.make('Expression', `message: ${text.left.message}`, { at: text.left.at ?? r.messageWhere.base }))
    const where = item === undefined ? { at: Position.make(manifest, 1, 1) } : View.locate(item, manifest)
    findings.push({ rule: r.name, level: r.level, message: text.right.value, ...where })
  }
  return E.right(findings)
}

/** Judges a plan by every rule of a policy. */
export const check = (policy: Policy.Policy, plan: Plan.Body & { readonly hash?: string }): Outcome => {
  const variables = View.of(plan)
  const findings: Finding[] = []
  const errors: Diagnostic.Diagnostic[] = []
  for (const r of policy.rules) {
    const j = judge(r, variables, plan.inputs.manifest.path)
    if (E.isLeft(j)) errors.push(Diagnostic.make(j.left.code, `rule ${r.name}: ${j.left.message}`, { at: j.left.at }))
    else Append.append(findings, j.right)
  }
  return { findings, errors }
}
