// Properties: the properties every resource type shares (CCM's common properties): `alias`,
// `require`, `subscribe`, `control` and `health_checks`. Decoded before the type's own
// properties, which see only the rest.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type { Position } from '../core/Position.js'
import * as Template from '../manifest/expr/Template.js'
import * as Value from '../manifest/expr/Value.js'
import { record, renderString, type RawResource, type Scope } from '../manifest/Manifest.js'
import * as Node from '../manifest/Node.js'
import * as GossResolve from '../goss/Resolve.js'
import * as GossRules from '../goss/Rules.js'
import * as ExecSpec from './exec/Spec.js'
import * as ShellWords from './exec/ShellWords.js'
import * as Append from '../core/Append.js'

// model

/** A reference as written (`type#name` or an alias), with where. */
export interface Ref {
  readonly text: string
  readonly at: Position
}

/** A nagios-style health check (exit 0 OK, 1 WARNING, 2 CRITICAL, 3 or anything else UNKNOWN), or goss rules (docs/goss.md). */
export interface HealthCheck {
  readonly name: string
  /** The check's words (split like a posix exec command); empty for goss rules. */
  readonly argv: ReadonlyArray<string>
  /** The goss_rules with their templates resolved, as JSON (they decode: Rules.decode found no problem). */
  readonly goss?: Readonly<Record<string, unknown>>
  readonly timeoutMs: number
  readonly tries: number
  readonly trySleepMs: number
}

/** Why control skips a resource, when it does. */
export interface Control {
  readonly skip?: string
}

export interface Properties {
  readonly alias?: Ref
  readonly require: ReadonlyArray<Ref>
  readonly subscribe: ReadonlyArray<Ref>
  readonly control: Control
  readonly healthChecks: ReadonlyArray<HealthCheck>
}

/** The common properties' keys. */
export const keys = ['alias', 'require', 'subscribe', 'control', 'health_checks', 'register_when_stable'] as const

/** Whether an entry's type refreshes on `subscribe` (a property of the type: ResourceType.subscribes), and the kinds that do, for the message when it does not. */
export interface Subscribers {
  readonly accepts: boolean
  readonly kinds: ReadonlyArray<string>
}

/** A health check's timeout when it sets none. */
export const defaultCheckTimeoutMs = 60_000

// decoding

const refs = (e: Node.Entry, scope: Scope, problems: Diagnostic.Diagnostic[]): Ref[] => {
  const items = e.value._tag === 'Seq' ? e.value.items : e.value._tag === 'Scalar' && typeof e.value.value === 'string' ? [e.value] : undefined
  if (items === undefined) {
    problems.push(Diagnostic.make('Decode', `${e.key} must be a list of references (type#name or an alias), found ${Node.describe(e.value)}`, { at: e.value.at }))
    return []
  }
  const out: Ref[] = []
  for (const item of items) {
    const v = renderString(item, scope, problems)
    if (v === undefined) continue
    if (v.trim() === '') problems.push(Diagnostic.make('Validation', `${e.key}: an empty reference`, { at: item.at }))
    else out.push({ text: v, at: item.at })
  }
  return out
}

/** Evaluates a control expression: it must give a boolean. */
const condition = (n: Node.Node, key: string, scope: Scope, problems: Diagnostic.Diagnostic[]): boolean | undefined => {
  if (n._tag !== 'Scalar' || typeof n.value !== 'string') {
    if (n._tag === 'Scalar' && typeof n.value === 'boolean') return n.value
    problems.push(Diagnostic.make('Decode', `control.${key} must be an expression, found ${Node.describe(n)}`, { at: n.at }))
    return undefined
  }
  // A bare expression (CCM's form) or a template holding one.
  const text = /\{\{|\$\{/.test(n.text) ? n.text : `{{ ${n.text} }}`
  const shift = /\{\{|\$\{/.test(n.text) ? (n.quoted ? 1 : 0) : (n.quoted ? 1 : 0) - 3
  const r = Template.render(text, scope.env, { base: n.at, shift })
  if (E.isLeft(r)) {
    problems.push(Diagnostic.make('Expression', `control.${key}: ${r.left.message}`, { at: r.left.at ?? n.at }))
    return undefined
  }
  record(scope, r.right.reads)
  if (typeof r.right.value !== 'boolean') {
    problems.push(Diagnostic.make('Expression', `control.${key} must give a boolean, got ${Value.goType(r.right.value)} ${Value.format(r.right.value)}`, { at: n.at }))
    return undefined
  }
  return r.right.value
}

const healthCheck = (n: Node.Node, index: number, scope: Scope, problems: Diagnostic.Diagnostic[]): HealthCheck | undefined => {
  if (n._tag !== 'Map') {
    problems.push(Diagnostic.make('Decode', `health_checks[${index}] must be a map, found ${Node.describe(n)}`, { at: n.at }))
    return undefined
  }
  const before = problems.length
  let command: { value: string; at: Position } | undefined
  let goss: { value: Readonly<Record<string, unknown>>; at: Position } | undefined
  let format: { value: string; at: Position } | undefined
  let name: string | undefined
  let timeoutMs = defaultCheckTimeoutMs
  let tries = 1
  let trySleepMs = 1000
  for (const e of n.entries) {
    switch (e.key) {
      case 'command': {
        const v = renderString(e.value, scope, problems)
        if (v !== undefined) command = { value: v, at: e.value.at }
        break
      }
      case 'name': {
        const v = renderString(e.value, scope, problems)
        if (v !== undefined) name = v
        break
      }
      case 'timeout':
      case 'try_sleep': {
        const v = renderString(e.value, scope, problems)
        if (v === undefined) break
        const ms = ExecSpec.parseDuration(v)
        if (ms === undefined) problems.push(Diagnostic.make('Validation', `health_checks[${index}].${e.key} "${v}" is not a positive duration`, { at: e.value.at, hint: 'for example 10s' }))
        else if (e.key === 'timeout') timeoutMs = ms
        else trySleepMs = ms
        break
      }
      case 'tries': {
        if (e.value._tag === 'Scalar' && typeof e.value.value === 'number' && Number.isInteger(e.value.value) && e.value.value >= 1) tries = e.value.value
        else problems.push(Diagnostic.make('Validation', `health_checks[${index}].tries must be a whole number of at least 1`, { at: e.value.at }))
        break
      }
      case 'format': {
        const v = renderString(e.value, scope, problems)
        if (v !== undefined && v !== 'nagios' && v !== 'goss') problems.push(Diagnostic.make('Validation', `health_checks[${index}].format "${v}" is not a format: use nagios or goss`, { at: e.value.at }))
        else if (v !== undefined) format = { value: v, at: e.value.at }
        break
      }
      case 'goss_rules': {
        // templates first (keys and values), then the rules decode with the positions of the manifest
        const resolved = GossResolve.resolve(e.value, (x) => renderString(x, scope, problems))
        if (resolved === undefined) break
        const decoded = GossRules.decode(resolved)
        Append.append(problems, decoded.problems.map((d) => ({ ...d, message: `health_checks[${index}].${d.message}` })))
        const json = GossResolve.toJson(resolved)
        if (decoded.problems.length === 0 && json !== null && typeof json === 'object' && !Array.isArray(json)) goss = { value: json as Readonly<Record<string, unknown>>, at: e.keyAt }
        break
      }
      default:
        problems.push(Diagnostic.make('UnknownKey', `unknown key "${e.key}" in health_checks[${index}]`, { at: e.keyAt, hint: 'allowed: command, goss_rules, name, timeout, tries, try_sleep, format' }))
    }
  }
  if (command !== undefined && goss !== undefined) {
    problems.push(Diagnostic.make('Validation', `health_checks[${index}] has both command and goss_rules: give one`, { at: n.at }))
    return undefined
  }
  if (format !== undefined && (format.value === 'goss') !== (command === undefined)) {
    problems.push(Diagnostic.make('Validation', `health_checks[${index}].format ${format.value} needs ${format.value === 'goss' ? 'goss_rules' : 'a command'}`, { at: format.at }))
    return undefined
  }
  if (goss !== undefined) return problems.length > before ? undefined : { name: name ?? 'goss', argv: [], goss: goss.value, timeoutMs, tries, trySleepMs }
  if (command === undefined) {
    if (problems.length === before) problems.push(Diagnostic.make('Validation', `health_checks[${index}] needs a command or goss_rules`, { at: n.at }))
    return undefined
  }
  if (command.value.includes('\0')) {
    problems.push(Diagnostic.make('Validation', `health_checks[${index}].command cannot be run: it contains a NUL byte`, { at: command.at }))
    return undefined
  }
  const words = ShellWords.split(command.value)
  if (E.isLeft(words) || words.right.length === 0) {
    problems.push(Diagnostic.make('Validation', `health_checks[${index}].command cannot be run: ${E.isLeft(words) ? words.left : 'empty command'}`, { at: command.at }))
    return undefined
  }
  if (problems.length > before) return undefined
  return { name: name ?? command.value, argv: words.right, timeoutMs, tries, trySleepMs }
}

/** Decodes `control`: the reason it skips the resource, if it does. */
const decodeControl = (e: Node.Entry, scope: Scope, problems: Diagnostic.Diagnostic[]): Control => {
  if (e.value._tag !== 'Map') {
    problems.push(Diagnostic.make('Decode', `control must be a map with if and/or unless, found ${Node.describe(e.value)}`, { at: e.value.at }))
    return {}
  }
  let control: Control = {}
  for (const c of e.value.entries) {
    if (c.key !== 'if' && c.key !== 'unless') {
      problems.push(Diagnostic.make('UnknownKey', `unknown key "control.${c.key}"`, { at: c.keyAt, hint: 'allowed: if, unless' }))
      continue
    }
    const v = condition(c.value, c.key, scope, problems)
    if (control.skip !== undefined || v === undefined) continue
    const text = c.value._tag === 'Scalar' ? c.value.text : ''
    if (c.key === 'if' && !v) control = { skip: `control: the if expression (${text}) is false` }
    if (c.key === 'unless' && v) control = { skip: `control: the unless expression (${text}) is true` }
  }
  return control
}

const isCommon = (key: string): boolean => (keys as ReadonlyArray<string>).includes(key)

/** True when an entry is a common property (an indexed loop: it runs once per resource, mostly before it is optimized). */
const setsAny = (props: ReadonlyArray<Node.Entry>): boolean => {
  for (let i = 0; i < props.length; i++) if (isCommon(props[i]!.key)) return true
  return false
}

/** The common properties of a resource that sets none. */
const none: Properties = Object.freeze({ require: Object.freeze([]), subscribe: Object.freeze([]), control: Object.freeze({}), healthChecks: Object.freeze([]) })
const noProblems: ReadonlyArray<Diagnostic.Diagnostic> = Object.freeze([])

/**
 * Splits a raw resource into its common properties and the rest (for its type's decoder). A
 * `control` that skips the resource is reported in `control.skip`.
 */
export const decode = (raw: RawResource, scope: Scope, subscribers: Subscribers): Split =>
  // Most resources set none of the common properties: the rest is the resource itself, and nothing
  // else is made for it (not even the closures' context of `split`, made as it is entered).
  setsAny(raw.props) ? split(raw, scope, subscribers) : { common: none, rest: raw, problems: noProblems }

/** A resource's common properties, the rest, and the problems of the common ones. */
export interface Split {
  readonly common: Properties
  readonly rest: RawResource
  readonly problems: ReadonlyArray<Diagnostic.Diagnostic>
}

const split = (raw: RawResource, scope: Scope, subscribers: Subscribers): Split => {
  const problems: Diagnostic.Diagnostic[] = []
  let alias: Ref | undefined
  let require: Ref[] = []
  let subscribe: Ref[] = []
  let control: Control = {}
  const healthChecks: HealthCheck[] = []
  const rest: RawResource = { ...raw, props: raw.props.filter((e) => !isCommon(e.key)) }
  // control first: a resource it skips has nothing else resolved (its templates may not work here).
  for (const e of raw.props) if (e.key === 'control') control = decodeControl(e, scope, problems)
  if (control.skip !== undefined) {
    const a = raw.props.find((e) => e.key === 'alias')
    const literal = a !== undefined && a.value._tag === 'Scalar' && typeof a.value.value === 'string' && !/\{\{|\$\{/.test(a.value.text) ? { text: a.value.value, at: a.value.at } : undefined
    return { common: { ...(literal !== undefined ? { alias: literal } : {}), require: [], subscribe: [], control, healthChecks: [] }, rest, problems }
  }
  for (const e of raw.props) {
    switch (e.key) {
      case 'alias': {
        const v = renderString(e.value, scope, problems)
        if (v !== undefined && v.trim() === '') problems.push(Diagnostic.make('Validation', 'alias cannot be empty', { at: e.value.at }))
        else if (v !== undefined) alias = { text: v, at: e.value.at }
        break
      }
      case 'require':
        require = refs(e, scope, problems)
        break
      case 'subscribe':
        subscribe = refs(e, scope, problems)
        if (!subscribers.accepts) {
          const kinds = subscribers.kinds.length <= 1 ? subscribers.kinds.join('') : `${subscribers.kinds.slice(0, -1).join(', ')} and ${subscribers.kinds[subscribers.kinds.length - 1]}`
          problems.push(Diagnostic.make('Validation', `subscribe is for ${kinds} resources, not ${raw.type}`, { at: e.keyAt, hint: 'to order this resource after another, use require' }))
        }
        break
      case 'register_when_stable':
        problems.push(Diagnostic.make('Unsupported', `"${e.key}" is not supported by this version of plait yet`, { at: e.keyAt }))
        break
      case 'health_checks': {
        if (e.value._tag !== 'Seq') {
          problems.push(Diagnostic.make('Decode', `health_checks must be a list, found ${Node.describe(e.value)}`, { at: e.value.at }))
          break
        }
        e.value.items.forEach((item, i) => {
          const h = healthCheck(item, i, scope, problems)
          if (h !== undefined) healthChecks.push(h)
        })
        break
      }
    }
  }
  return { common: { ...(alias !== undefined ? { alias } : {}), require, subscribe, control, healthChecks }, rest, problems }
}
