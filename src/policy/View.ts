// View: the plan as a policy sees it (docs/policy.md documents every field). A policy reads
// plain data, not the plan file's shape: resources with their action, properties, steps and
// manifest position; every step with its resource; the summary; a few facts about the plan.
// Keys are sorted (Value.map), so the view of a plan does not depend on its JSON key order.
import type * as Ast from '../manifest/expr/Ast.js'
import * as Value from '../manifest/expr/Value.js'
import type * as Plan from '../core/Plan.js'
import * as Position from '../core/Position.js'
import * as Review from '../cli/Review.js'

// model

/** The variables a policy's expressions see; `item` is set only in a rule's message. */
export const names: ReadonlySet<string> = new Set(['resources', 'steps', 'summary', 'plan', 'item'])

/** The name under which `each`'s list is given to its predicate: not a name an expression can write. */
export const eachName = ' each'

export type Variables = ReadonlyMap<string, Value.Value>

// constructors

/** Where a resource was declared: its `at` as file, line and column (line 1, column 1 when it has none). */
export const position = (at: string): Position.Position => {
  const m = /^(.*):([0-9]+):([0-9]+)$/s.exec(at)
  return m === null ? Position.make(at, 1, 1) : Position.make(m[1]!, Math.max(Number(m[2]), 1), Math.max(Number(m[3]), 1))
}

/** True for a step that destroys or stops something (as the review renderers mark it). */
const destructive = (r: Plan.ResourcePlan, s: Plan.Step): boolean => r.action === 'delete' || Review.destructiveVerbs.has(s._tag.slice(s._tag.lastIndexOf('.') + 1))

const positionValue = (p: Position.Position): Value.Value => Value.map([['file', p.file], ['line', BigInt(p.line)], ['col', BigInt(p.col)]])

/** One step as data: its tag, family and verb, its reason, whether it destroys, and its resource. */
const stepValue = (r: Plan.ResourcePlan, s: Plan.Step): Value.Value => {
  const cut = s._tag.lastIndexOf('.')
  return Value.map([
    ['tag', s._tag],
    ['family', cut < 0 ? s._tag : s._tag.slice(0, cut)],
    ['verb', s._tag.slice(cut + 1)],
    ['reason', s.reason],
    ['destructive', destructive(r, s)],
    ['resource', r.id],
    ['type', r.type],
    ['position', positionValue(position(r.at))],
  ])
}

/** One resource as data. */
const resourceValue = (r: Plan.ResourcePlan): Value.Value => {
  const desired = (r as unknown as { readonly desired?: unknown }).desired
  return Value.map([
    ['id', r.id],
    ['type', r.type],
    ['name', r.name],
    ['kind', r.kind],
    ['action', r.action],
    ['position', positionValue(position(r.at))],
    ['at', r.at],
    ['properties', Value.fromJS(desired ?? {})],
    ['observed', r.observed?.summary ?? null],
    ['skipped', r.skipped ?? null],
    ['destructive', r.steps.some((s) => destructive(r, s))],
    ['steps', Value.array(r.steps.map((s) => stepValue(r, s)))],
    ['require', Value.array(r.require ?? [])],
    ['subscribe', Value.array(r.subscribe ?? [])],
  ])
}

/** The variables of a plan: `resources`, `steps`, `summary` and `plan`. */
export const of = (p: Plan.Body & { readonly hash?: string }): Variables => {
  const resources = p.resources.map(resourceValue)
  const steps = p.resources.flatMap((r) => r.steps.map((s) => stepValue(r, s)))
  const count = (f: (r: Plan.ResourcePlan) => boolean): bigint => BigInt(p.resources.filter(f).length)
  const summary = Value.map([
    ['create', count((r) => r.action === 'create')],
    ['update', count((r) => r.action === 'update')],
    ['delete', count((r) => r.action === 'delete')],
    ['run', count((r) => r.action === 'run')],
    ['unchanged', count((r) => r.action === 'none')],
    ['skipped', count((r) => r.skipped !== undefined)],
    ['changes', count((r) => r.steps.length > 0)],
    ['destructive', BigInt(p.resources.flatMap((r) => r.steps.filter((s) => destructive(r, s))).length)],
    ['resources', BigInt(p.resources.length)],
  ])
  const plan = Value.map([
    ['hash', p.hash ?? null],
    ['manifest', p.inputs.manifest.path],
    ['root', p.root],
    ['plait', p.plait],
    ['failOnError', p.failOnError],
  ])
  return new Map<string, Value.Value>([
    ['resources', Value.array(resources)],
    ['steps', Value.array(steps)],
    ['summary', summary],
    ['plan', plan],
  ])
}

/** `map(EACH, {body})`: a predicate body applied to every element of `each`'s list (given as eachName). */
export const overEach = (body: Ast.Node): Ast.Node => ({
  _tag: 'Call',
  name: 'map',
  args: [{ _tag: 'Ident', name: eachName, at: 0 }, { _tag: 'Closure', body, at: 0 }],
  at: 0,
})

/** Where a finding about an element points: its `position`, or its resource's, or the manifest's first line. */
export const locate = (element: Value.Value, manifest: string): { readonly at: Position.Position; readonly resource?: string } => {
  if (!Value.isMap(element)) return { at: Position.make(manifest, 1, 1) }
  const p = Value.get(element, 'position') ?? null
  const id = Value.get(element, 'resource') ?? Value.get(element, 'id') ?? null
  const resource = typeof id === 'string' ? { resource: id } : {}
  if (Value.isMap(p)) {
    const file = Value.get(p, 'file')
    const line = Value.get(p, 'line')
    const col = Value.get(p, 'col') ?? 1n
    if (typeof file === 'string' && typeof line === 'bigint' && typeof col === 'bigint' && line >= 1n && col >= 1n) {
      return { at: Position.make(file, Number(line), Number(col)), ...resource }
    }
  }
  return { at: Position.make(manifest, 1, 1), ...resource }
}
