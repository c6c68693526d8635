// Plan: the reviewed, saved, immutable result of planning; the only input of apply.
//
// Invariants: equal inputs give byte-identical plans (no clocks, no random ids, no host names);
// `resources` keep manifest order; a resource's `action` is derived from its steps; `hash` is the
// sha256 of the canonical JSON of the plan without `hash` (owned by src/planfile).
import * as t from 'io-ts'
import { once } from './Memo.js'

// model

export const formatVersion = 'plait.plan/2'

/** What a resource's steps amount to, with the symbol the renderers show. */
export const Action = t.keyof({ create: null, update: null, delete: null, run: null, none: null })
export type Action = t.TypeOf<typeof Action>

/** What was observed of a resource: a one-line summary for people and a digest for staleness. */
export const Observed = t.type({ summary: t.string, digest: t.string })
export type Observed = t.TypeOf<typeof Observed>

/** Where a lazily observed record keeps how to make its digest, and the digest once made. */
const pending = Symbol('digest')

function digestOf(this: { readonly [pending]: () => string }): string {
  return this[pending]()
}

/** The one accessor every such record has: an object literal's own getter would give each record a V8 shape of its own. */
const digestAccessor: PropertyDescriptor = { get: digestOf, enumerable: true }

/**
 * An observed record whose digest is worked out when first read, then kept: showing a plan to a
 * person reads no digest, and a plan that hashes nothing else need not load node:crypto for it
 * (some 8 ms of a start). Saving, applying or comparing a plan reads it. The getter is the
 * record's own and enumerable, so a copy, a comparison and JSON see a plain string; `digest` must
 * read values that do not change (a status, frozen or never written again). The file type keeps
 * its summary lazy too (types/file/Status.ts). Defining the getter costs about what a digest does:
 * a plan of 10,000 commands shown to a person takes as long as with digests made at once, and one
 * printed as JSON (every digest read) some 4% longer.
 */
export const observedLazily = (summary: string, digest: () => string): Observed =>
  Object.defineProperties({ summary }, { [pending]: { value: once(digest) }, digest: digestAccessor }) as unknown as Observed

/**
 * Whether a plan's recorded digest (`recorded`) and one observed now (`clear`) say the same. A
 * resource that carries a sensitive value records its digests keyed by the host's key
 * (planfile/Keyed.ts), so that they give nothing to guess the value from; apply compares those
 * keyed. Without a key, only equal digests are the same.
 */
export type SameDigest = (recorded: string, clear: string) => boolean

/** Equal digests are the same (a plan without sensitive values). */
export const sameDigest: SameDigest = (recorded, clear) => recorded === clear

/** A health check as the plan carries it: a nagios-format command, or (`goss`, then `argv` is empty) goss rules with their templates resolved. */
export const HealthCheck = t.intersection([t.type({ name: t.string, argv: t.array(t.string), timeoutMs: t.number, tries: t.number, trySleepMs: t.number }), t.partial({ goss: t.UnknownRecord })])
export type HealthCheck = t.TypeOf<typeof HealthCheck>

/**
 * What ties a resource to others and checks it, on every kind of resource plan: the ids it
 * requires (skipped as an unmet requirement when one failed), the ids it subscribes to, and its
 * health checks (run after it is applied; a check that is not OK fails it).
 */
export const Links = t.partial({ require: t.array(t.string), subscribe: t.array(t.string), healthChecks: t.array(HealthCheck) })
export type Links = t.TypeOf<typeof Links>

/**
 * The fields every observed resource's plan has: the kind of its type (the registry entry that
 * planned it, which says the shape of the rest), its id (`type#name`), name, where it is declared
 * (`file:line:col`), action and what was observed. A resource type's plan codec adds its own
 * `kind` literal, `desired` and `steps`.
 */
export const head = { id: t.string, type: t.string, name: t.string, at: t.string, action: Action, observed: Observed }

/** What every step has: its tag (`family.verb`: the family names its interpreter), why it is needed, and the spec's noop message. */
export interface Step {
  readonly _tag: string
  readonly reason: string
  readonly noop: string
}

/** A resource's plan as the pipeline sees it, whatever its type. */
export interface ResourcePlan {
  readonly kind: string
  readonly id: string
  readonly type: string
  readonly name: string
  readonly at: string
  readonly action: Action
  /** Absent only on a resource its control skips. */
  readonly observed?: Observed
  /** Why its control skips it (then it has no steps and was never observed). */
  readonly skipped?: string
  /** Why it could not be planned (then it has no steps, and apply fails it at its turn). */
  readonly failed?: string
  readonly steps: ReadonlyArray<Step>
  readonly require?: ReadonlyArray<string>
  readonly subscribe?: ReadonlyArray<string>
  readonly healthChecks?: ReadonlyArray<HealthCheck>
}

/** The steps of a resource its control skips, or that could not be planned: none. */
const noSteps = (what: string) =>
  new t.Type<Step[], Step[], unknown>(
    'NoSteps',
    (u): u is Step[] => Array.isArray(u) && u.length === 0,
    (u, c) => (Array.isArray(u) && u.length === 0 ? t.success([]) : t.failure(u, c, `a ${what} resource has no steps`)),
    t.identity,
  )
const NoSteps = noSteps('skipped')

/** A resource its `control` skips: never observed, nothing of it planned; `skipped` says why. */
export const SkippedResourcePlan = t.intersection([
  t.type({ kind: t.string, id: t.string, type: t.string, name: t.string, at: t.string, action: t.literal('none'), skipped: t.string, steps: NoSteps }),
  Links,
])
export type SkippedResourcePlan = t.TypeOf<typeof SkippedResourcePlan>

/**
 * A resource that could not be planned (a guard that cannot start, an unknown user, a missing
 * parent directory): `failed` says why. The rest of the plan is made without it; it has no steps,
 * apply fails it at its turn (so what requires it is skipped, and fail_on_error stops there), and
 * `plan` and `apply` exit non-zero. A plan without one has none of this in it.
 */
export const FailedResourcePlan = t.intersection([
  t.type({ kind: t.string, id: t.string, type: t.string, name: t.string, at: t.string, action: t.literal('none'), failed: t.string, steps: noSteps('failed') }),
  Links,
])
export type FailedResourcePlan = t.TypeOf<typeof FailedResourcePlan>

/**
 * The codec of a resource plan of any registered kind: `kind` picks the type's codec (so an
 * error names the fields of the type the plan says it is); a plan with `skipped` is the skipped
 * shape, whatever its kind. An unknown kind is an error at `kind`.
 */
export const resourcePlan = (codecs: ReadonlyMap<string, t.Type<ResourcePlan, ResourcePlan, unknown>>): t.Type<ResourcePlan, ResourcePlan, unknown> => {
  const pick = (u: unknown): t.Type<ResourcePlan, ResourcePlan, unknown> | undefined => {
    if (typeof u !== 'object' || u === null) return undefined
    if ('skipped' in u) return SkippedResourcePlan as unknown as t.Type<ResourcePlan, ResourcePlan, unknown>
    if ('failed' in u) return FailedResourcePlan as unknown as t.Type<ResourcePlan, ResourcePlan, unknown>
    const kind = (u as { kind?: unknown }).kind
    return typeof kind === 'string' ? codecs.get(kind) : undefined
  }
  const kinds = t.keyof(Object.fromEntries([...codecs.keys()].map((k) => [k, null])) as Record<string, null>)
  return new t.Type<ResourcePlan, ResourcePlan, unknown>(
    'ResourcePlan',
    (u): u is ResourcePlan => pick(u)?.is(u) ?? false,
    (u, c) => {
      const codec = pick(u)
      if (codec !== undefined) return codec.validate(u, t.appendContext(c, '', codec, u))
      if (typeof u !== 'object' || u === null) return t.failure(u, c, 'a resource plan is an object')
      const kind = (u as { kind?: unknown }).kind
      return t.failure(kind, t.appendContext(c, 'kind', kinds, kind), `no resource type of kind ${JSON.stringify(kind)} in this plait`)
    },
    t.identity,
  )
}

/** A libral provider the plan uses: where it was, and a digest of its executable and metadata (apply refuses a changed one). */
export const Provider = t.type({ name: t.string, path: t.string, sha256: t.string })
export type Provider = t.TypeOf<typeof Provider>

export const Input = t.type({ path: t.string, sha256: t.string })
export type Input = t.TypeOf<typeof Input>

/**
 * A plugin reference of the manifest or the hiera document (Bolt's `_plugin`): the plugin, where the
 * reference is, the reference as written (what apply resolves again when the value is sensitive)
 * and the digest of the value it gave: `sha256:` of a plain value, `hmac-sha256:` keyed by the
 * host's own key for a sensitive one (a secret plugin's), whose value the plan never holds in clear.
 */
export const PluginInput = t.intersection([t.type({ plugin: t.string, at: t.string, reference: t.UnknownRecord, digest: t.string }), t.partial({ sensitive: t.literal(true) })])
export type PluginInput = t.TypeOf<typeof PluginInput>

/** A fact or environment variable the manifest read, with a digest of its value (of null when missing). */
export const Read = t.type({ root: t.keyof({ facts: null, environ: null }), path: t.string, sha256: t.string })
export type Read = t.TypeOf<typeof Read>

/** `run` (commands that would run) and `failed` (resources that could not be planned) only when there are some. */
export const Summary = t.intersection([t.type({ create: t.number, update: t.number, delete: t.number, unchanged: t.number }), t.partial({ run: t.number, failed: t.number })])
export type Summary = t.TypeOf<typeof Summary>

/** The plan body's codec, with the codec of its resources (see resourcePlan and the registry). */
export const bodyOf = (resource: t.Type<ResourcePlan, ResourcePlan, unknown>) =>
  t.intersection([
    t.type({
      format: t.literal(formatVersion),
      plait: t.string,
      /** The host directory the plan was made for ("/" for the real machine). */
      root: t.string,
      /** `hiera` only when a `--hiera FILE` was given; `providers` only when a plugin resource is managed; `plugins` only when a document held a `_plugin` reference. */
      inputs: t.intersection([t.type({ manifest: Input, sources: t.array(Input), reads: t.array(Read) }), t.partial({ hiera: Input, providers: t.array(Provider), clock: t.string, plugins: t.array(PluginInput) })]),
      failOnError: t.boolean,
      resources: t.array(resource),
      summary: Summary,
    }),
    t.partial({ preMessage: t.string, postMessage: t.string }),
  ])

/** The plan body: what planning made. */
export type Body = t.TypeOf<ReturnType<typeof bodyOf>>

/** The plan's codec: the body with its hash. */
export const planOf = (resource: t.Type<ResourcePlan, ResourcePlan, unknown>) => t.intersection([bodyOf(resource), t.type({ hash: t.string })])

export type Plan = Body & { readonly hash: string }

// constructors

/** Counts actions into the summary line's numbers. */
export const summarize = (resources: ReadonlyArray<Pick<ResourcePlan, 'action' | 'failed'>>): Summary => {
  const run = resources.filter((r) => r.action === 'run').length
  const failed = resources.filter((r) => r.failed !== undefined).length
  return {
    create: resources.filter((r) => r.action === 'create').length,
    update: resources.filter((r) => r.action === 'update').length,
    delete: resources.filter((r) => r.action === 'delete').length,
    ...(run > 0 ? { run } : {}),
    unchanged: resources.filter((r) => r.action === 'none' && r.failed === undefined).length,
    ...(failed > 0 ? { failed } : {}),
  }
}

// guards

/** True for a resource its control skips. */
export const isSkipped = (r: ResourcePlan): r is ResourcePlan & { readonly skipped: string } => r.skipped !== undefined

/** True for a resource that could not be planned. */
export const isFailed = (r: ResourcePlan): r is ResourcePlan & { readonly failed: string } => r.failed !== undefined

/** The resources of a plan that could not be planned. */
export const failures = (p: { readonly resources: ReadonlyArray<ResourcePlan> }): ReadonlyArray<ResourcePlan & { readonly failed: string }> => p.resources.filter(isFailed)

// interop

/** The renderers' symbol of an action. */
export const symbol = (a: Action): string => (a === 'create' ? '+' : a === 'update' ? '~' : a === 'delete' ? '-' : a === 'run' ? '!' : ' ')

