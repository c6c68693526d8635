// sensitive: sensitive values (what secret plugins give) between the resolve stage, the plan file
// and apply. Sealing records every reference of the documents as a plan input (its digest: plain
// for a plain value, keyed for a sensitive one) and redacts every sensitive text from the plan
// (planfile/Redact.ts), so the plan, and everything rendered from it, holds only markers. Apply
// gets the clear values back in memory only: from this process when it made the plan, else by
// resolving the plan's sensitive references again, refusing the plan when a digest differs or a
// marker stands for no value; everything it prints is redacted again.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Literals from '../core/Literals.js'
import * as Plan from '../core/Plan.js'
import type { Position } from '../core/Position.js'
import * as Position_ from '../core/Position.js'
import * as Resolve from '../load/resolve.js'
import * as Node from '../manifest/Node.js'
import * as References from '../manifest/References.js'
import * as Keyed from '../planfile/Keyed.js'
import * as PlanFile from '../planfile/PlanFile.js'
import * as Redact from '../planfile/Redact.js'
import * as Held from './held.js'
import * as Append from '../core/Append.js'

// model

type Diagnostics = ReadonlyArray<Diagnostic.Diagnostic>

/** Where the host's key of sensitive digests comes from. */
export type KeySource = () => Promise<E.Either<string, Uint8Array>>

/** A plan ready for the executor: its sensitive values in clear (in memory), the redactor of everything shown or saved about its run, and how its keyed digests compare. */
export interface Revealed {
  readonly plan: Plan.Plan
  readonly redact: <A>(v: A) => A
  readonly sameDigest: Plan.SameDigest
}

/** The sensitive values of the plans this process sealed (apply of a manifest needs not resolve them again). */
const sealed = new WeakMap<Plan.Plan, Redact.Secrets>()

// constructors

/**
 * Seals a plan body with its plugin inputs, its sensitive values redacted (a key is needed only
 * when there are some) and the digests of the resources that carry them (`carriers`, see
 * `carriers`) keyed (planfile/Keyed.ts).
 */
export const seal = async (body: Plan.Body, resolved: ReadonlyArray<Resolve.Resolved>, key?: KeySource, carriersOf: (secrets: ReadonlyArray<string>) => ReadonlySet<string> = () => new Set()): Promise<E.Either<Diagnostics, Plan.Plan>> => {
  if (resolved.length === 0) return E.right(PlanFile.sealLazily(body))
  const sensitive = resolved.filter((r) => r.sensitive)
  let k: Uint8Array = new Uint8Array()
  if (sensitive.length > 0) {
    const got = key === undefined ? E.left('this command has no key of sensitive values') : await key()
    if (E.isLeft(got)) return E.left([Diagnostic.make('Io', `a secret plugin gave a sensitive value, and its digest needs the host's key: ${got.left}`, { hint: 'give a --state-dir this user can write' })])
    k = got.right
  }
  const plugins = resolved.map(
    (r): Plan.PluginInput => ({
      plugin: r.plugin,
      at: Position_.render(r.at),
      reference: r.reference as Record<string, unknown>,
      digest: r.sensitive ? Redact.digest(k, r.value) : Digest.ofValue(r.value),
      ...(r.sensitive ? { sensitive: true as const } : {}),
    }),
  )
  const withInputs: Plan.Body = { ...body, inputs: { ...body.inputs, plugins } }
  if (sensitive.length === 0) return E.right(PlanFile.sealLazily(withInputs))
  const secrets: Redact.Secrets = { values: sensitive.flatMap((r) => Resolve.texts(r.value)), key: k }
  Held.hold(secrets.values)
  const plan = PlanFile.sealLazily(Keyed.body(withInputs, carriersOf(secrets.values), k), secrets)
  sealed.set(plan, secrets)
  return E.right(plan)
}

/** True when a plan holds sensitive values (its apply resolves them again, and needs the plugins). */
export const holdsSecrets = (plan: Plan.Plan): boolean => (plan.inputs.plugins ?? []).some((p) => p.sensitive === true)

/**
 * The plan with its sensitive values in clear, for the executor only: the values this process
 * sealed, else its sensitive references resolved again with `resolvers`, each checked against its
 * digest. Refused (nothing applied) when a value changed, cannot be resolved, or a marker of the
 * plan stands for none of them.
 */
export const reveal = async (plan: Plan.Plan, resolvers: () => Promise<E.Either<Diagnostics, Resolve.Resolvers>>, key?: KeySource): Promise<E.Either<Diagnostics, Revealed>> => {
  if (!holdsSecrets(plan)) {
    // A plan with no sensitive value may still key the digests of a path that holds one (a rollback's, see cli/history.ts).
    if (Keyed.carriersOf(plan).size === 0) return E.right({ plan, redact: (v) => v, sameDigest: Plan.sameDigest })
    const k = await hostKey(key, "the plan keys the digests of paths that hold sensitive values, which needs the host's key")
    return E.isLeft(k) ? k : keyedReveal(plan, plan, k.right, (v) => v)
  }
  let secrets = sealed.get(plan)
  if (secrets === undefined) {
    const k = await hostKey(key, "the plan holds sensitive values, whose digests need the host's key")
    if (E.isLeft(k)) return k
    const table = await resolvers()
    if (E.isLeft(table)) return table
    const again = await resolveAgain(plan, table.right, k.right)
    if (E.isLeft(again)) return again
    secrets = { values: again.right, key: k.right }
    Held.hold(secrets.values)
  }
  const open = Redact.reveal(plan, secrets)
  if (open.unknown.length > 0) {
    return E.left([
      Diagnostic.make('PlanFile', `the plan holds ${open.unknown.length} sensitive value${open.unknown.length === 1 ? '' : 's'} (${open.unknown.slice(0, 3).join(', ')}) that none of its references gives now; nothing was applied`, { hint: otherHost }),
    ])
  }
  // compiled once for the run: the executor and the generation's record redact every step with it
  return keyedReveal(plan, open.value, secrets.key, Redact.values(secrets))
}

/** What to do with a plan whose digests need another key. */
const otherHost = 'a plan is applied on the host that made it (its key digests the values); make and review a new plan'

/** The host's key of sensitive digests, or why a plan that needs it (`what`) cannot be applied. */
const hostKey = async (key: KeySource | undefined, what: string): Promise<E.Either<Diagnostics, Uint8Array>> => {
  const got = key === undefined ? E.left('this command has no key of sensitive values') : await key()
  return E.isLeft(got) ? E.left([Diagnostic.make('Io', `${what}: ${got.left}`, { hint: 'apply with the --state-dir the plan was made with' })]) : got
}

/**
 * A plan ready for the executor: `clear` (the plan, its markers revealed) with its keyed desired
 * digests restored (Keyed.restore, refused when one keys none of its steps' digests), what is shown
 * of its carriers keyed after `redact`, and its keyed observed digests compared keyed.
 */
const keyedReveal = (plan: Plan.Plan, clear: Plan.Plan, key: Uint8Array, redact: <A>(v: A) => A): E.Either<Diagnostics, Revealed> => {
  const restored = Keyed.restore(clear, key)
  if (E.isLeft(restored)) return E.left(restored.left.map((why) => Diagnostic.make('PlanFile', `${why}; nothing was applied`, { hint: otherHost })))
  const carriers = Keyed.carriersOf(plan)
  return E.right({ plan: restored.right, redact: (v) => Keyed.shown(redact(v), carriers, key), sameDigest: Keyed.same(key) })
}

/** The texts of the plan's sensitive references, resolved again; or every reference that failed or whose value changed. */
const resolveAgain = async (plan: Plan.Plan, table: Resolve.Resolvers, key: Uint8Array): Promise<E.Either<Diagnostics, ReadonlyArray<string>>> => {
  const values: string[] = []
  const problems: Diagnostic.Diagnostic[] = []
  for (const entry of plan.inputs.plugins ?? []) {
    if (entry.sensitive !== true) continue
    const at = positionOf(entry.at)
    const r = await Resolve.resolve(References.nodeOf(entry.reference, at), table)
    if (E.isLeft(r)) {
      Append.append(problems, r.left.map((d) => Diagnostic.make(d.code, `apply resolves the plan's sensitive values again: ${d.message}`, { at, hint: d.hint })))
      continue
    }
    const value = Node.toJS(r.right.node)
    if (Redact.digest(key, value) !== entry.digest) {
      problems.push(Diagnostic.make('Stale', `the sensitive value of _plugin: ${entry.plugin} changed since the plan was made (its digest differs); nothing was applied`, { at, hint: 'make and review a new plan (a plan is applied with the --state-dir it was made with: its key digests the values)' }))
      continue
    }
    Append.append(values, Resolve.texts(value))
  }
  return problems.length > 0 ? E.left(problems) : E.right(values)
}

/**
 * The ids of the resources that carry a sensitive value: a string of their compiled spec holds one
 * of `secrets` (a resource's spec is what its desired state and steps are made from).
 */
export const carriers =
  (resources: ReadonlyArray<{ readonly id: string }>) =>
  (secrets: ReadonlyArray<string>): ReadonlySet<string> => {
    const texts = secrets.filter((x) => x !== '')
    const found = Literals.finder(texts)
    const holds = (v: unknown, depth: number): boolean => {
      if (typeof v === 'string') return found(v)
      if (v instanceof Uint8Array) return holds(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8'), depth)
      if (depth > 64 || v === null || typeof v !== 'object') return false
      return Object.values(v).some((x) => holds(x, depth + 1))
    }
    return new Set(texts.length === 0 ? [] : resources.filter((r) => holds(r, 0)).map((r) => r.id))
  }

/** A position as Position.render writes it (`file:line:col`). */
const positionOf = (s: string): Position => {
  const m = /^(.*):([0-9]+):([0-9]+)$/.exec(s)
  return m === null ? { file: s, line: 1, col: 1 } : { file: m[1]!, line: Number(m[2]), col: Number(m[3]) }
}

/** Runs `run` (an apply) on the plan with its sensitive values in clear; what it gives back, report or errors, is redacted. */
export const applying = async <R>(
  plan: Plan.Plan,
  resolvers: () => Promise<E.Either<Diagnostics, Resolve.Resolvers>>,
  key: KeySource | undefined,
  run: (r: Revealed) => Promise<E.Either<Diagnostics, R>>,
): Promise<E.Either<Diagnostics, R>> => {
  const open = await reveal(plan, resolvers, key)
  return E.isLeft(open) ? open : open.right.redact(await run(open.right))
}
