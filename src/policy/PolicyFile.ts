// PolicyFile: a policy file's YAML to a Policy, or every problem at its `file:line:col`: unknown
// keys, missing fields, bad levels and names, duplicate names, and expressions that do not parse
// or type-check (pointing into the expression's text).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import * as Check from '../manifest/expr/Check.js'
import type * as ExprError from '../manifest/expr/ExprError.js'
import * as Parser from '../manifest/expr/Parser.js'
import * as Template from '../manifest/expr/Template.js'
import type * as Node from '../manifest/Node.js'
import * as Yaml from '../manifest/Yaml.js'
import * as Policy from './Policy.js'
import * as View from './View.js'

/** The keys a rule may have. */
export const ruleKeys: ReadonlyArray<string> = ['name', 'level', 'message', 'deny', 'assert', 'each', 'when', 'description']

/** The most rules a policy may have. */
export const maxRules = 1_000

type Problems = Diagnostic.Diagnostic[]

const problem = (out: Problems, message: string, at: Position.Position, hint?: string): void => {
  out.push(Diagnostic.make('Validation', message, { at, hint }))
}

/** Parses a policy file's text; `file` names it in positions. */
export const parse = (file: string, text: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Policy.Policy> => {
  const doc = Yaml.parse(file, text)
  if (E.isLeft(doc)) return doc
  const out: Problems = []
  const root = doc.right
  if (root._tag !== 'Map') return E.left([Diagnostic.make('Decode', 'a policy file is a map with a `rules` list', { at: root.at })])
  for (const e of root.entries) if (e.key !== 'rules') problem(out, `unknown key "${e.key}" (a policy file has only \`rules\`)`, e.keyAt)
  const rulesEntry = root.entries.find((e) => e.key === 'rules')
  if (rulesEntry === undefined) return E.left([...out, Diagnostic.make('Decode', 'a policy file needs a `rules` list', { at: root.at })])
  const list = rulesEntry.value
  if (list._tag !== 'Seq') return E.left([...out, Diagnostic.make('Decode', '`rules` must be a list of rules', { at: list.at })])
  if (list.items.length > maxRules) problem(out, `a policy may have at most ${maxRules} rules`, list.at)
  const rules: Policy.Rule[] = []
  const names = new Map<string, Position.Position>()
  for (const item of list.items.slice(0, maxRules)) {
    const r = rule(item, out)
    if (r === undefined) continue
    const seen = names.get(r.name)
    if (seen !== undefined) problem(out, `duplicate rule name "${r.name}" (also at ${Position.render(seen)})`, r.at)
    else names.set(r.name, r.at)
    rules.push(r)
  }
  return out.length > 0 ? E.left([...out].sort(Diagnostic.compare)) : E.right({ file, rules })
}

const rule = (n: Node.Node, out: Problems): Policy.Rule | undefined => {
  if (n._tag !== 'Map') {
    problem(out, 'a rule is a map with name, level, message and deny or assert', n.at)
    return undefined
  }
  const before = out.length
  for (const e of n.entries) if (!ruleKeys.includes(e.key)) problem(out, `unknown key "${e.key}" in a rule (expected one of ${ruleKeys.join(', ')})`, e.keyAt)
  const field = (key: string): Node.Scalar | undefined => {
    const e = n.entries.find((x) => x.key === key)
    if (e === undefined) return undefined
    // any scalar but null: `deny: true` and `name: 2024` are read as written
    if (e.value._tag !== 'Scalar' || e.value.value === null || e.value.text.trim() === '') {
      problem(out, `\`${key}\` must be a non-empty string`, e.value.at)
      return undefined
    }
    return e.value
  }
  const name = field('name')
  const level = field('level')
  const message = field('message')
  const deny = field('deny')
  const assert = field('assert')
  field('description')
  if (name === undefined && !n.entries.some((e) => e.key === 'name')) problem(out, 'a rule needs a `name`', n.at)
  if (name !== undefined && !Policy.namePattern.test(name.text)) problem(out, `rule name "${name.text}": use letters, digits, ".", "_" and "-" (at most 100, starting with a letter or digit)`, name.at)
  if (level === undefined && !n.entries.some((e) => e.key === 'level')) problem(out, 'a rule needs a `level`: advisory, soft or hard', n.at)
  if (level !== undefined && !(Policy.levels as ReadonlyArray<string>).includes(level.text)) problem(out, `level "${level.text}": expected advisory, soft or hard`, level.at)
  if (message === undefined && !n.entries.some((e) => e.key === 'message')) problem(out, 'a rule needs a `message`', n.at)
  if (message !== undefined) {
    const t = Template.parse(message.text, whereOf(message))
    if (E.isLeft(t)) problem(out, `message: ${t.left.message}`, t.left.at ?? message.at)
  }
  if (n.entries.some((e) => e.key === 'deny') === n.entries.some((e) => e.key === 'assert')) {
    problem(out, 'a rule needs exactly one of `deny` (a finding when it holds) and `assert` (a finding when it does not)', n.at)
  }
  const eachNode = field('each')
  const each = eachNode === undefined ? undefined : expression(eachNode, false, out)
  const whenNode = field('when')
  const when = whenNode === undefined ? undefined : expression(whenNode, false, out)
  const testNode = deny ?? assert
  const body = testNode === undefined ? undefined : expression(testNode, eachNode !== undefined, out)
  if (out.length > before || name === undefined || level === undefined || message === undefined || body === undefined) return undefined
  return {
    name: name.text,
    level: level.text as Policy.Level,
    message: message.text,
    messageWhere: whereOf(message),
    test: { _tag: deny !== undefined ? 'Deny' : 'Assert', expression: body, ...(each !== undefined ? { each } : {}) },
    ...(when !== undefined ? { when } : {}),
    at: n.at,
  }
}

/** Where a scalar's text starts: after the quote of a quoted one (a block scalar's lines are approximate). */
const whereOf = (s: Node.Scalar): Template.Where => ({ base: s.at, shift: s.quoted ? 1 : 0, indent: s.at.col })

/** Parses and type-checks an expression (a predicate body when `predicate`), or records its problem inside the text. */
const expression = (s: Node.Scalar, predicate: boolean, out: Problems): Policy.Expression | undefined => {
  const where = whereOf(s)
  const fail = (e: ExprError.ExprError): undefined => {
    problem(out, e.message, Template.position(s.text, e.offset, where))
    return undefined
  }
  const parsed = predicate ? Parser.parsePredicate(s.text) : Parser.parse(s.text)
  if (E.isLeft(parsed)) return fail(parsed.left)
  const checked = Check.check(predicate ? View.overEach(parsed.right) : parsed.right, 'policy', { variables: new Set([...View.names, View.eachName]) })
  if (E.isLeft(checked)) return fail(checked.left)
  return { source: s.text, node: parsed.right, where }
}
