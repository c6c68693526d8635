// Plan: the reviewed, saved, immutable result of planning; the only input of apply.
//
// Invariants: equal inputs give byte-identical plans (no clocks, no random ids, no host names);
// `resources` keep manifest order; a resource's `action` is derived from its steps; `hash` is the
// sha256 of the canonical JSON of the plan without `hash` (owned by src/planfile).
import * as t from 'io-ts'
import { Deferred, DeferredExec } from './Deferred.js'
import { Content, ExecRun, FileStep, LibralUpdate, LibralValue, Principal, Step } from './Step.js'

// model

export const formatVersion = 'plait.plan/1'

/** What a resource's steps amount to, with the symbol the renderers show. */
export const Action = t.keyof({ create: null, update: null, delete: null, run: null, none: null })
export type Action = t.TypeOf<typeof Action>

/** The desired state of a file resource as the plan records it (content by digest only). */
export const FileDesired = t.intersection([
  t.type({ ensure: t.keyof({ present: null, absent: null, directory: null }), force: t.boolean }),
  t.partial({
    content: t.type({ sha256: t.string, size: t.number, origin: t.keyof({ content: null, source: null }) }),
    source: t.string,
    owner: Principal,
    group: Principal,
    mode: t.string,
  }),
])
export type FileDesired = t.TypeOf<typeof FileDesired>

/** What was observed of a resource: a one-line summary for people and a digest for staleness. */
export const Observed = t.type({ summary: t.string, digest: t.string })
export type Observed = t.TypeOf<typeof Observed>

/** A nagios-format health check as the plan carries it. */
export const HealthCheck = t.type({ name: t.string, argv: t.array(t.string), timeoutMs: t.number, tries: t.number, trySleepMs: t.number })
export type HealthCheck = t.TypeOf<typeof HealthCheck>

/**
 * What ties a resource to others and checks it, on every kind of resource plan: the ids it
 * requires (skipped as an unmet requirement when one failed), the ids it subscribes to, and its
 * health checks (run after it is applied; a check that is not OK fails it).
 */
export const Links = t.partial({ require: t.array(t.string), subscribe: t.array(t.string), healthChecks: t.array(HealthCheck) })
export type Links = t.TypeOf<typeof Links>

/** The fields every observed resource's plan has: its id (`type#name`), name, where it is declared (`file:line:col`), action and what was observed. */
const head = { id: t.string, name: t.string, at: t.string, action: Action, observed: Observed }

/**
 * A file resource's plan. With `deferred`, its content is known only at apply: `steps` is empty,
 * `action` is `create` or `update` by whether the path exists, and the executor plans the resource
 * at its turn.
 */
export const FileResourcePlan = t.intersection([
  t.type({ ...head, type: t.literal('file'), desired: FileDesired, steps: t.array(FileStep) }),
  t.partial({ deferred: Deferred }),
  Links,
])
export type FileResourcePlan = t.TypeOf<typeof FileResourcePlan>

/**
 * A libral resource's plan: `provider` is the provider's full name (`type::name`), one of
 * `inputs.providers`; `desired` holds the writable attributes the manifest set; at most one step.
 */
export const LibralResourcePlan = t.intersection([
  t.type({ ...head, type: t.string, provider: t.string, desired: t.record(t.string, LibralValue), steps: t.array(LibralUpdate) }),
  Links,
])
export type LibralResourcePlan = t.TypeOf<typeof LibralResourcePlan>

/**
 * An exec resource's plan: one `exec.run` step when the command would run (action `run`), none
 * when it is skipped; `observed.summary` says which and why. Guards are evaluated again at apply
 * and are not part of the staleness check, so `observed.digest` is not compared.
 */
export const ExecResourcePlan = t.intersection([
  t.type({
    ...head,
    type: t.literal('exec'),
    desired: t.type({ line: t.string, provider: t.keyof({ posix: null, shell: null }), returns: t.array(t.number) }),
    steps: t.array(ExecRun),
  }),
  t.partial({
    /**
     * For a command its creates or guards skip at plan time: the step to run if, at its turn, their
     * answer has changed (an earlier resource may have removed the creates file, say).
     */
    recheck: ExecRun,
    /**
     * Properties that read a file an earlier resource manages: `steps` is empty, and the executor
     * renders the templates at its turn into `base` (the step with the other properties), then
     * decides with refresh_only, its subscriptions and its guards.
     */
    deferred: t.intersection([DeferredExec, t.type({ refreshOnly: t.boolean, base: ExecRun })]),
  }),
  Links,
])
export type ExecResourcePlan = t.TypeOf<typeof ExecResourcePlan>

/** A resource its `control` skips: never observed, nothing of it planned; `skipped` says why. */
export const SkippedResourcePlan = t.intersection([
  t.type({ id: t.string, type: t.string, name: t.string, at: t.string, action: t.literal('none'), skipped: t.string, steps: t.array(Step) }),
  Links,
])
export type SkippedResourcePlan = t.TypeOf<typeof SkippedResourcePlan>

export type ResourcePlan = FileResourcePlan | LibralResourcePlan | ExecResourcePlan | SkippedResourcePlan

/** A resource's plan: a libral one when it names a `provider`, else a file one (so an error names the fields of the one it is). */
export const ResourcePlan = new t.Type<ResourcePlan, ResourcePlan, unknown>(
  'ResourcePlan',
  (u): u is ResourcePlan => FileResourcePlan.is(u) || LibralResourcePlan.is(u) || ExecResourcePlan.is(u) || SkippedResourcePlan.is(u),
  (u, c) => {
    const codec =
      typeof u !== 'object' || u === null
        ? FileResourcePlan
        : 'skipped' in u
          ? SkippedResourcePlan
          : 'provider' in u
            ? LibralResourcePlan
            : (u as { type?: unknown }).type === 'exec'
              ? ExecResourcePlan
              : FileResourcePlan
    return codec.validate(u, t.appendContext(c, '', codec, u))
  },
  t.identity,
)

/** A libral provider the plan uses: where it was, and a digest of its executable and metadata (apply refuses a changed one). */
export const Provider = t.type({ name: t.string, path: t.string, sha256: t.string })
export type Provider = t.TypeOf<typeof Provider>

export const Input = t.type({ path: t.string, sha256: t.string })
export type Input = t.TypeOf<typeof Input>

/** A fact or environment variable the manifest read, with a digest of its value (of null when missing). */
export const Read = t.type({ root: t.keyof({ facts: null, environ: null }), path: t.string, sha256: t.string })
export type Read = t.TypeOf<typeof Read>

/** `run` (commands that would run) only when there are some. */
export const Summary = t.intersection([t.type({ create: t.number, update: t.number, delete: t.number, unchanged: t.number }), t.partial({ run: t.number })])
export type Summary = t.TypeOf<typeof Summary>

export const Body = t.intersection([
  t.type({
    format: t.literal(formatVersion),
    plait: t.string,
    /** The host directory the plan was made for ("/" for the real machine). */
    root: t.string,
    /** `hiera` only when a `--hiera FILE` was given; `providers` only when a libral resource is managed. */
    inputs: t.intersection([t.type({ manifest: Input, sources: t.array(Input), reads: t.array(Read) }), t.partial({ hiera: Input, providers: t.array(Provider), clock: t.string })]),
    failOnError: t.boolean,
    resources: t.array(ResourcePlan),
    summary: Summary,
  }),
  t.partial({ preMessage: t.string, postMessage: t.string }),
])
export type Body = t.TypeOf<typeof Body>

export const Plan = t.intersection([Body, t.type({ hash: t.string })])
export type Plan = t.TypeOf<typeof Plan>

// constructors

/** The action that a resource's steps amount to. */
export const actionOf = (steps: ReadonlyArray<Step>, existed: boolean): Action => {
  if (steps.length === 0) return 'none'
  if (steps.some((s) => s._tag === 'file.remove') && !steps.some((s) => s._tag !== 'file.remove')) return 'delete'
  if (steps.some((s) => s._tag === 'libral.update' && s.changes.some((c) => c.attr === 'ensure' && c.is === 'absent'))) return 'delete'
  return existed ? 'update' : 'create'
}

/** Counts actions into the summary line's numbers. */
export const summarize = (resources: ReadonlyArray<Pick<ResourcePlan, 'action'>>): Summary => {
  const run = resources.filter((r) => r.action === 'run').length
  return {
    create: resources.filter((r) => r.action === 'create').length,
    update: resources.filter((r) => r.action === 'update').length,
    delete: resources.filter((r) => r.action === 'delete').length,
    ...(run > 0 ? { run } : {}),
    unchanged: resources.filter((r) => r.action === 'none').length,
  }
}

// guards

/** True for a resource its control skips. */
export const isSkipped = (r: ResourcePlan): r is SkippedResourcePlan => 'skipped' in r

/** True for a libral resource's plan. */
export const isLibral = (r: ResourcePlan): r is LibralResourcePlan => 'provider' in r

/** True for an exec resource's plan. */
export const isExec = (r: ResourcePlan): r is ExecResourcePlan => r.type === 'exec' && !isLibral(r) && !isSkipped(r)

/** True for a file resource's plan. */
export const isFile = (r: ResourcePlan): r is FileResourcePlan => r.type === 'file' && !isLibral(r) && !isSkipped(r)

/** True when a plan would change nothing. */
export const isEmpty = (p: Body): boolean => p.resources.every((r) => r.steps.length === 0 && !isDeferred(r) && !(isExec(r) && r.deferred !== undefined))

/** True for a resource whose changes are known only at apply. */
export const isDeferred = (r: ResourcePlan): r is FileResourcePlan & { deferred: Deferred } => isFile(r) && r.deferred !== undefined

// interop

/** The renderers' symbol of an action. */
export const symbol = (a: Action): string => (a === 'create' ? '+' : a === 'update' ? '~' : a === 'delete' ? '-' : a === 'run' ? '!' : ' ')

export { Content, Principal }
