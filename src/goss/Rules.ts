// Rules: decodes goss_rules (a map of kinds to maps of names to attributes) into rules, with a
// positioned message for every unknown kind, attribute or matcher and every ill-typed value (pure).
import type * as Diagnostic from '../core/Diagnostic.js'
import * as Diag from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import * as Node from '../manifest/Node.js'
import * as Re2 from '../re2/Re2.js'
import * as Kinds from './Kinds.js'
import * as M from './Matcher.js'

// model

/** One attribute a rule expects. */
export interface Check {
  readonly attribute: string
  readonly matcher: M.Matcher
}

/** One goss resource: what to probe (kind and name, with its options) and what to expect of it. */
export interface Rule {
  readonly kind: string
  readonly name: string
  readonly options: Readonly<Record<string, string | number | boolean>>
  readonly checks: ReadonlyArray<Check>
}

/** The most rules one health check may hold (each is a probe). */
export const maxRules = 500

// decoding

type Problems = Diagnostic.Diagnostic[]
const bad = (problems: Problems, message: string, at: Position.Position, hint?: string): undefined => {
  problems.push(Diag.make('Validation', `goss_rules: ${message}`, { at, ...(hint !== undefined ? { hint } : {}) }))
  return undefined
}

const list = (xs: ReadonlyArray<string>): string => xs.join(', ')
const matcherNames = ['equal', 'not', 'and', 'or', 'lt', 'le', 'gt', 'ge', 'have-prefix', 'have-suffix', 'contain-substring', 'match-regexp', 'contain-element', 'contain-elements', 'consist-of', 'have-len']

/** A plain scalar's spelling (`0644` stays "0644", `1.10` stays "1.10"), a quoted one's string. */
const scalarText = (n: Node.Scalar): string => (typeof n.value === 'string' || typeof n.value === 'number' ? n.text : String(n.value))

/** A bare scalar as the attribute's type wants it. */
const bare = (n: Node.Scalar, type: Kinds.AttrType | 'any', what: string, problems: Problems): M.Matcher | undefined => {
  if (type === 'bool') return typeof n.value === 'boolean' ? M.equal(n.value) : bad(problems, `${what} must be true or false, found ${Node.describe(n)}`, n.at)
  if (type === 'int') {
    const v = typeof n.value === 'number' ? n.value : typeof n.value === 'string' && /^-?\d+$/.test(n.value.trim()) ? Number(n.value) : undefined
    return v !== undefined && Number.isInteger(v) ? M.equal(v) : bad(problems, `${what} must be a whole number, found ${Node.describe(n)}`, n.at)
  }
  if (n.value === null) return bad(problems, `${what} must have a value, found null`, n.at)
  return M.equal(type === 'any' && typeof n.value === 'boolean' ? n.value : scalarText(n))
}

const items = (n: Node.Node, name: string, what: string, problems: Problems): ReadonlyArray<Node.Node> | undefined =>
  n._tag === 'Seq' ? n.items : bad(problems, `${what}: ${name} needs a list, found ${Node.describe(n)}`, n.at)

const number = (n: Node.Node, name: string, what: string, problems: Problems, whole: boolean): number | undefined =>
  n._tag === 'Scalar' && typeof n.value === 'number' && (!whole || (Number.isInteger(n.value) && n.value >= 0)) ? n.value : bad(problems, `${what}: ${name} needs ${whole ? 'a whole number' : 'a number'}, found ${Node.describe(n)}`, n.at)

const all = <A>(xs: ReadonlyArray<A | undefined>): ReadonlyArray<A> | undefined => (xs.every((x) => x !== undefined) ? (xs as ReadonlyArray<A>) : undefined)

/** Decodes an attribute's expected value: a bare value (by its type) or a matcher map. */
export const matcher = (n: Node.Node, type: Kinds.AttrType | 'any', what: string, problems: Problems): M.Matcher | undefined => {
  if (n._tag === 'Scalar') return bare(n, type, what, problems)
  if (n._tag === 'Seq') {
    if (type === 'text') {
      const patterns = all(n.items.map((i) => (i._tag === 'Scalar' && i.value !== null ? scalarText(i) : bad(problems, `${what}: a pattern must be a string, found ${Node.describe(i)}`, i.at))))
      const wrong = patterns?.find((p) => p.startsWith('/') && p.endsWith('/') && p.length >= 2 && Re2.compileRegex(p.slice(1, -1))._tag === 'Left')
      if (wrong !== undefined) return bad(problems, `${what}: pattern ${JSON.stringify(wrong)} is not a valid regular expression`, n.at)
      return patterns === undefined ? undefined : { _tag: 'Patterns', patterns }
    }
    if (type === 'list' || type === 'any') {
      const ms = all(n.items.map((i) => matcher(i, 'any', what, problems)))
      return ms === undefined ? undefined : { _tag: 'ContainElements', matchers: ms }
    }
    return bad(problems, `${what} must be ${type === 'bool' ? 'true or false' : type === 'int' ? 'a whole number' : 'a string'} or a matcher, found a list`, n.at)
  }
  if (n.entries.length !== 1) return bad(problems, `${what}: a matcher is a map with one key, found ${n.entries.length}`, n.at, `matchers: ${list(matcherNames)}`)
  const e = n.entries[0] as Node.Entry
  const sub = (x: Node.Node): M.Matcher | undefined => matcher(x, type, what, problems)
  const element = (x: Node.Node): M.Matcher | undefined => matcher(x, 'any', what, problems)
  switch (e.key) {
    case 'equal':
      return e.value._tag === 'Scalar' ? bare(e.value, type, what, problems) : M.equal(Node.toJS(e.value) as M.Json)
    case 'not': {
      const m = sub(e.value)
      return m === undefined ? undefined : M.not(m)
    }
    case 'and':
    case 'or': {
      const xs = items(e.value, e.key, what, problems)
      const ms = xs === undefined ? undefined : all(xs.map(sub))
      return ms === undefined ? undefined : e.key === 'and' ? M.and(ms) : M.or(ms)
    }
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge': {
      const v = number(e.value, e.key, what, problems, false)
      return v === undefined ? undefined : M.compare(e.key, v)
    }
    case 'have-prefix':
    case 'have-suffix':
    case 'contain-substring':
    case 'match-regexp': {
      if (e.value._tag !== 'Scalar' || e.value.value === null) return bad(problems, `${what}: ${e.key} needs a string, found ${Node.describe(e.value)}`, e.value.at)
      const s = scalarText(e.value)
      if (e.key === 'match-regexp') {
        const re = Re2.compileRegex(s)
        if (re._tag === 'Left') return bad(problems, `${what}: match-regexp ${JSON.stringify(s)}: ${re.left}`, e.value.at)
      }
      return M.text(e.key, s)
    }
    case 'contain-element': {
      const m = element(e.value)
      return m === undefined ? undefined : { _tag: 'ContainElement', matcher: m }
    }
    case 'contain-elements':
    case 'consist-of': {
      const xs = items(e.value, e.key, what, problems)
      const ms = xs === undefined ? undefined : all(xs.map(element))
      return ms === undefined ? undefined : e.key === 'consist-of' ? { _tag: 'ConsistOf', matchers: ms } : { _tag: 'ContainElements', matchers: ms }
    }
    case 'have-len': {
      const v = number(e.value, e.key, what, problems, true)
      return v === undefined ? undefined : { _tag: 'HaveLen', value: v }
    }
    default:
      return bad(problems, `${what}: unknown matcher "${e.key}"`, e.keyAt, `matchers: ${list(matcherNames)}`)
  }
}

const option = (e: Node.Entry, type: Kinds.OptionType, what: string, problems: Problems): string | number | boolean | undefined => {
  const v = e.value._tag === 'Scalar' ? e.value.value : undefined
  if (type === 'bool') return typeof v === 'boolean' ? v : bad(problems, `${what} must be true or false, found ${Node.describe(e.value)}`, e.value.at)
  if (type === 'string') return typeof v === 'string' && v !== '' ? v : bad(problems, `${what} must be a string, found ${Node.describe(e.value)}`, e.value.at)
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= Kinds.maxTimeoutMs ? v : bad(problems, `${what} must be a whole number of milliseconds from 1 to ${Kinds.maxTimeoutMs}, found ${Node.describe(e.value)}`, e.value.at)
}

const rule = (kind: string, spec: Kinds.Kind, name: Node.Entry, problems: Problems): Rule | undefined => {
  const where = `${kind} ${JSON.stringify(name.key)}`
  if (name.key.trim() === '' || name.key.includes('\0')) return bad(problems, `${kind}: a name must be a non-empty string without NUL bytes`, name.keyAt)
  if (name.value._tag !== 'Map') return bad(problems, `${where} must be a map of attributes, found ${Node.describe(name.value)}`, name.value.at)
  const before = problems.length
  const options: Record<string, string | number | boolean> = {}
  const checks: Check[] = []
  for (const a of name.value.entries) {
    const what = `${where} ${a.key}`
    const attr = spec.attributes[a.key]
    const opt = spec.options[a.key]
    if (attr !== undefined && Object.hasOwn(spec.attributes, a.key)) {
      const m = matcher(a.value, attr, what, problems)
      if (m !== undefined) checks.push({ attribute: a.key, matcher: m })
    } else if (opt !== undefined && Object.hasOwn(spec.options, a.key)) {
      const v = option(a, opt, what, problems)
      if (v !== undefined) options[a.key] = v
    } else bad(problems, `${where}: unknown attribute "${a.key}"`, a.keyAt, `${kind} has: ${list([...Object.keys(spec.attributes), ...Object.keys(spec.options)])}`)
  }
  if (problems.length > before) return undefined
  if (checks.length === 0) return bad(problems, `${where} checks nothing: give it at least one of ${list(Object.keys(spec.attributes))}`, name.value.at)
  return { kind, name: name.key, options, checks }
}

/** Decodes a goss_rules value; the rules in order (kinds, then names, as written), or every problem found. */
export const decode = (n: Node.Node): { readonly rules: ReadonlyArray<Rule>; readonly problems: ReadonlyArray<Diagnostic.Diagnostic> } => {
  const problems: Problems = []
  const rules: Rule[] = []
  if (n._tag !== 'Map') {
    bad(problems, `must be a map of resource kinds (${list(Kinds.names)}), found ${Node.describe(n)}`, n.at)
    return { rules, problems }
  }
  for (const k of n.entries) {
    const spec = Object.hasOwn(Kinds.kinds, k.key) ? Kinds.kinds[k.key] : undefined
    if (spec === undefined) {
      bad(problems, `unknown resource kind "${k.key}"`, k.keyAt, `plait checks: ${list(Kinds.names)}`)
      continue
    }
    if (k.value._tag !== 'Map') {
      bad(problems, `${k.key} must be a map of names to attributes, found ${Node.describe(k.value)}`, k.value.at)
      continue
    }
    for (const name of k.value.entries) {
      const r = rule(k.key, spec, name, problems)
      if (r !== undefined) rules.push(r)
    }
  }
  if (rules.length > maxRules) bad(problems, `${rules.length} rules, more than the ${maxRules} one health check may hold`, n.at)
  if (problems.length === 0 && rules.length === 0) bad(problems, 'has no rules', n.at)
  return { rules: problems.length > 0 ? [] : rules, problems }
}

// interop

/** A JSON value (goss_rules as a plan carries it) as a node, every position the given one. */
export const nodeOf = (v: unknown, at: Position.Position): Node.Node => {
  if (Array.isArray(v)) return { _tag: 'Seq', items: v.map((x) => nodeOf(x, at)), at }
  if (v !== null && typeof v === 'object') return { _tag: 'Map', entries: Object.entries(v).map(([key, x]) => ({ key, keyAt: at, value: nodeOf(x, at) })), at }
  const value = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null
  return { _tag: 'Scalar', value, text: value === null ? '' : String(value), quoted: typeof v === 'string', at }
}

/** Decodes goss_rules as a plan carries them (resolved, as JSON). */
export const decodeJson = (v: unknown): { readonly rules: ReadonlyArray<Rule>; readonly problems: ReadonlyArray<Diagnostic.Diagnostic> } => decode(nodeOf(v, Position.make('plan', 1, 1)))
