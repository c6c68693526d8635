// PlanFile: the only owner of plan.json: canonical serialization, content hash, version and integrity checks.
import * as Redact from './Redact.js'
import * as Shape from './Shape.js'
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import * as Depth from '../core/Depth.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Plan from '../core/Plan.js'
import * as Registry from '../types/registry.js'

// Plan values are plain JSON data whose codecs encode as the identity (a test checks it on every
// kind of step), so the canonical JSON of a plan is that of the value itself, with no encoding pass.
// Sealing sorts a body's keys once; the sorted copy is kept for the plan (plans are never mutated),
// so that serializing it does not sort again.

/** The sorted copy of each sealed plan's body, made when its hash was computed. */
const sortedBodies = new WeakMap<Plan.Plan, Readonly<Record<string, unknown>>>()

const hashOfSorted = (sorted: unknown): string => 'sha256:' + Digest.sha256(JSON.stringify(sorted))

/** The content hash of a plan body: sha256 of its canonical JSON. */
export const hashOf = (body: Plan.Body): string => hashOfSorted(Digest.sortKeys(body))

/** Seals a body with its hash, its sensitive values redacted first (Redact: the hash is of what the file holds). */
export const seal = (clear: Plan.Body, secrets?: Redact.Secrets): Plan.Plan => {
  const body = secrets === undefined ? clear : Redact.body(clear, secrets)
  const sorted = Digest.sortKeys(body) as Record<string, unknown>
  const plan = { ...body, hash: hashOfSorted(sorted) }
  sortedBodies.set(plan, sorted)
  return plan
}

/**
 * Seals a body whose hash is computed when it is first read, and then kept: showing a plan to a
 * person never reads it, saving or applying it does. Equal to `seal(body)` in every observable way,
 * provided the body is not mutated (plans never are).
 */
export const sealLazily = (clear: Plan.Body, secrets?: Redact.Secrets): Plan.Plan => {
  const body = secrets === undefined ? clear : Redact.body(clear, secrets)
  let hash: string | undefined
  const plan = { ...body } as Plan.Plan
  return Object.defineProperty(plan, 'hash', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (hash === undefined) {
        const sorted = Digest.sortKeys(body) as Record<string, unknown>
        hash = hashOfSorted(sorted)
        sortedBodies.set(plan, sorted)
      }
      return hash
    },
  })
}

/** Serializes a plan: sorted keys, two-space indentation, trailing newline; byte-identical for equal plans. */
export const serialize = (plan: Plan.Plan): string => {
  const hash = plan.hash // first, so that a lazily sealed plan has its sorted body
  const sorted = sortedBodies.get(plan)
  const value = sorted === undefined || 'hash' in sorted ? Digest.sortKeys(plan) : withHash(sorted, hash)
  return JSON.stringify(value, null, 2) + '\n'
}

/** A sorted body with `hash` added in its sorted place: what sortKeys makes of the plan. */
const withHash = (sorted: Readonly<Record<string, unknown>>, hash: string): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  let placed = false
  for (const k of Object.keys(sorted)) {
    if (!placed && k > 'hash') {
      out['hash'] = hash
      placed = true
    }
    out[k] = sorted[k]
  }
  if (!placed) out['hash'] = hash
  return out
}

/**
 * Parses plan.json text: refuses malformed JSON, an unknown format, a malformed plan, a plan whose
 * content does not match its hash (tampered or corrupted), and a plan with a file.write step whose
 * bytes do not match the sha256 and size it declares. `file` names it in messages.
 */
export const parse = (file: string, text: string): E.Either<Diagnostic.Diagnostic, Plan.Plan> => {
  const fail = (message: string, hint?: string, resource?: string): E.Either<Diagnostic.Diagnostic, never> =>
    E.left(Diagnostic.make('PlanFile', message, { hint, resource, at: { file, line: 1, col: 1 } }))
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    return fail(`not a plan file: invalid JSON (${(e as Error).message})`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('not a plan file: expected a JSON object')
  // hashing and decoding recurse over the plan: one nested deeper than plait ever makes is refused first
  if (Depth.deeperThan(raw, Depth.maxPlan)) return fail(`malformed plan: it nests deeper than ${Depth.maxPlan} levels`, 'make the plan again; plait never applies a damaged plan')
  const format = (raw as Record<string, unknown>)['format']
  if (format === 'plait.plan/1') {
    return fail(`made by an older plait: plan format "plait.plan/1", and this plait reads "${Plan.formatVersion}"`, 'plan again with this version of plait, and review the new plan')
  }
  if (format !== Plan.formatVersion) {
    return fail(
      typeof format === 'string' ? `unknown plan format "${format}"; this plait reads "${Plan.formatVersion}"` : 'not a plan file: no "format" field',
      'make the plan again with this version of plait',
    )
  }
  const decoded = Registry.planCodec().decode(raw)
  // the problems on one line, "; " between them: a diagnostic is drawn on one line (a newline in it would show as \n)
  if (E.isLeft(decoded)) return fail(`malformed plan: ${report(decoded.left).join('; ')}`, 'make the plan again; plait never applies a damaged plan')
  const plan = decoded.right
  // The hash is checked on the parsed text (decoding left it as it was): a file plait wrote has its
  // keys in canonical order already, so its body as it stands gives the canonical JSON, with no
  // sorted copy of it made (one of a few hundred thousand objects for a large plan). Only where
  // that does not match (keys reordered by another tool, or a tampered plan) is the body sorted to
  // decide. A match either way is the hash of the canonical JSON of this very content.
  const { hash: _claimed, ...unsorted } = raw as Record<string, unknown>
  let sorted: Record<string, unknown> | undefined
  if (hashOfSorted(unsorted) !== plan.hash) {
    sorted = Digest.sortKeys(unsorted) as Record<string, unknown>
    const actual = hashOfSorted(sorted)
    if (actual !== plan.hash) {
      return fail(`plan has been modified since it was made: hash ${plan.hash} does not match its content (${actual})`, 'review and make the plan again; plait never applies a tampered plan')
    }
  }
  const impossible = Shape.problems(plan)
  if (impossible.length > 0) {
    const more = impossible.length > reportLimit ? `; (and ${impossible.length - reportLimit} more)` : ''
    return fail(`malformed plan: ${impossible.slice(0, reportLimit).join('; ')}${more}`, 'no plait compile makes such a plan; make the plan again and review it')
  }
  for (const r of plan.resources) {
    const problem = Registry.tampered(r)
    if (problem !== undefined) return fail(problem, 'the plan was edited or corrupted; make the plan again', r.id)
  }
  if (sorted !== undefined) sortedBodies.set(plan, sorted)
  return E.right(plan)
}

// ---------------------------------------------------------------- decode errors

/** How many offending paths a malformed plan's message names. */
export const reportLimit = 3

/** One io-ts error as a path, what was expected there and what was found, and the unions it lies in. */
export interface Problem {
  readonly path: string
  readonly expected: string
  readonly actual: unknown
  /** The union members this error lies in: the union's path and the member's index. */
  readonly branches: ReadonlyArray<{ readonly at: string; readonly member: string }>
}

/**
 * A few lines for a person from io-ts errors: the first offending JSON paths
 * (`resources[3].steps[0].mode: expected string, found 420`), then "(and N more)". Of a tagged
 * union (a step), only the member its `_tag` names is reported; an unknown tag is reported once.
 */
export const report = (errors: t.Errors): ReadonlyArray<string> => {
  const lines = [...new Set(arrange(errors.map(problemOf)).map(line))]
  return lines.length <= reportLimit ? lines : [...lines.slice(0, reportLimit), `(and ${lines.length - reportLimit} more)`]
}

/**
 * The problems a person is shown, in order: of a union where some member's tag matched, the
 * problems of the members whose tag did not are dropped; a union where no member's tag matched is
 * one problem, its tag, where its first problem was.
 */
export const arrange = (problems: ReadonlyArray<Problem>): ReadonlyArray<Problem> => {
  // Each union is looked at through the problems inside it (grouped once), never through all of
  // them: a plan with a bad field in each of 20,000 steps has 20,000 unions, and scanning every
  // problem for each took 32 s. A problem keeps its place by its index; a merged one takes the
  // place of the first problem of its union. Merged problems lie in no union.
  const groups = new Map<string, Problem[]>()
  for (const p of problems) {
    for (const b of p.branches) {
      const group = groups.get(b.at)
      if (group === undefined) groups.set(b.at, [p])
      else if (group[group.length - 1] !== p) group.push(p)
    }
  }
  const place = new Map<Problem, number>(problems.map((p, i) => [p, i]))
  const alive = new Set(problems)
  for (const [at, group] of groups) {
    const inside = group.filter((p) => alive.has(p))
    if (inside.length === 0) continue
    const members = new Set<string>()
    const mismatched = new Set<string>()
    for (const p of inside) {
      const b = p.branches.find((x) => x.at === at)!
      members.add(b.member)
      if (p.path === join(at, '_tag')) mismatched.add(b.member)
    }
    if ([...members].some((m) => !mismatched.has(m))) {
      for (const p of inside) if (p.branches.some((b) => b.at === at && mismatched.has(b.member))) alive.delete(p)
    } else {
      const tags = inside.filter((p) => p.path === join(at, '_tag'))
      const merged: Problem = { path: join(at, '_tag'), expected: [...new Set(tags.map((p) => p.expected))].join(' | '), actual: tags[0]?.actual, branches: [] }
      place.set(merged, place.get(inside[0]!)!)
      for (const p of inside) alive.delete(p)
      alive.add(merged)
    }
  }
  return [...alive].sort((a, b) => place.get(a)! - place.get(b)!)
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`)

/** An io-ts error as a problem. */
export const problemOf = (e: t.ValidationError): Problem => {
  let path = ''
  const branches: { at: string; member: string }[] = []
  for (let i = 1; i < e.context.length; i++) {
    const parent = tagOf(e.context[i - 1]!.type)
    const key = e.context[i]!.key
    // An intersection's members, and a codec that picks one (key ""), add no step to the path.
    if (parent === 'IntersectionType' || key === '') continue
    if (parent === 'UnionType') branches.push({ at: path, member: key })
    else if (parent === 'ArrayType') path = `${path}[${key}]`
    else path = join(path, key)
  }
  const last = e.context[e.context.length - 1]
  const tags = last === undefined ? [] : tagsOf(last.type)
  const tag = (e.value as { readonly _tag?: unknown } | null | undefined)?._tag
  if (tags.length > 0 && typeof tag === 'string' && !tags.includes(tag)) {
    // a tagged union whose tag names no member: say which tags there are
    return { path: join(path, '_tag'), expected: tags.map((x) => JSON.stringify(x)).join(' | '), actual: tag, branches }
  }
  return { path, expected: last === undefined ? 'a plan' : expectedOf(last.type), actual: e.value, branches }
}

/** The `_tag` literals of a union's members, or nothing when it is not a tagged union. */
const tagsOf = (type: t.Decoder<unknown, unknown>): ReadonlyArray<string> => {
  if (tagOf(type) !== 'UnionType') return []
  const members = (type as unknown as { readonly types: ReadonlyArray<t.Decoder<unknown, unknown>> }).types
  const tags = members.map(memberTag)
  return tags.every((x): x is string => x !== undefined) ? tags : []
}

const memberTag = (type: t.Decoder<unknown, unknown>): string | undefined => {
  const c = type as unknown as { readonly _tag?: string; readonly types?: ReadonlyArray<t.Decoder<unknown, unknown>>; readonly props?: Record<string, { readonly _tag?: string; readonly value?: unknown }> }
  if (c._tag === 'IntersectionType') return c.types?.map(memberTag).find((x) => x !== undefined)
  const literal = c.props?.['_tag']
  return literal?._tag === 'LiteralType' && typeof literal.value === 'string' ? literal.value : undefined
}

const tagOf = (type: t.Decoder<unknown, unknown>): string | undefined => (type as { readonly _tag?: string })._tag

const expectedOf = (type: t.Decoder<unknown, unknown>): string => {
  switch (tagOf(type)) {
    case 'InterfaceType':
    case 'PartialType':
    case 'IntersectionType':
      return 'an object'
    case 'ArrayType':
      return 'a list'
    default:
      return type.name.length <= 80 ? type.name : 'another value'
  }
}

/** A problem as the line a person reads. */
export const line = (p: Problem): string => {
  const where = p.path === '' ? '(the plan)' : p.path
  return p.actual === undefined ? `${where}: missing (expected ${p.expected})` : `${where}: expected ${p.expected}, found ${shown(p.actual)}`
}

const shown = (v: unknown): string => {
  if (Array.isArray(v)) return 'a list'
  if (v !== null && typeof v === 'object') return 'an object'
  const s = JSON.stringify(v) ?? String(v)
  return s.length <= 40 ? s : `${s.slice(0, 37)}...`
}
