// ResourceType: everything the pipeline knows of a resource type, as one value. Compile, observe,
// plan, the staleness check, the executor's turn and verification, and the renderers loop over the
// registry of these (src/types/registry.ts) and never name a type. A type is pure: what it needs to
// know of a machine it asks as data (core/Observation.ts), and what it changes it returns as steps,
// which the step family interpreters run (src/interpreters/steps.ts).
import type * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import type { Bytes } from '../core/Bytes.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import type * as Fault from '../core/Fault.js'
import type { Observation } from '../core/Observation.js'
import type * as Plan from '../core/Plan.js'
import type { Position } from '../core/Position.js'
import type { Accounts } from '../core/Probe.js'
import type { RawResource, Scope } from '../manifest/Manifest.js'
import type * as Deferral from './Deferral.js'

// model

/** A compiled resource of any type: `_tag` is the kind of the type that decoded it. */
export interface Spec {
  readonly _tag: string
  readonly id: string
  readonly at: Position
}

/** Bytes with their sha256 and size (file contents, inline or read). */
export type { Bytes }

/** What decoding a resource may use besides its entry. */
export interface DecodeEnv {
  readonly scope: Scope
  /** The manifest's directory (relative `source:` paths resolve against it). */
  readonly baseDir: string
  /** Which host files earlier resources manage, for deferring values that read them. */
  readonly deferral: Deferral.Deferral
}

/** What planning a resource may use besides its observation. */
export interface PlanEnv {
  /** The resources planned so far, in manifest order (within a run the same list, which only grows). */
  readonly earlier: ReadonlyArray<Plan.ResourcePlan>
  /**
   * The resource of `earlier` with an id (ids are unique in a catalog), from an index the planning
   * loop keeps as `earlier` grows: a scan per resource would make planning quadratic. Absent in a
   * one-off env (`plait ensure` plans one resource): `earlier` is scanned. Read it through `earlierWithId`.
   */
  readonly byId?: (id: string) => Plan.ResourcePlan | undefined
  /** `earlier.some(mayChange)`, kept as `earlier` grows; absent, it is scanned. Read it through `earlierMayChange`. */
  readonly someMayChange?: () => boolean
  /** The ids it subscribes to. */
  readonly subscribe: ReadonlyArray<string>
  /** True when a planned resource may change something in this run (so it can trigger a subscriber). */
  readonly mayChange: (r: Plan.ResourcePlan) => boolean
  readonly accounts: Accounts
}

/** What a resource does at its turn in apply: its steps, the plan they must reach, and why, for the report. */
export interface Turn {
  readonly steps: ReadonlyArray<Plan.Step>
  /** The resource's plan as verification checks it (a deferred one is planned anew at its turn). */
  readonly expected: Plan.ResourcePlan
  readonly notes: ReadonlyArray<string>
}

/** What deciding a turn may use. */
export interface TurnEnv {
  readonly accounts: Accounts
  /** True when a resource changed earlier in this run. */
  readonly changed: (id: string) => boolean
}

/** What the staleness check found of a resource: why it is stale (nothing: it is not), and what its steps start from. */
export interface Checked {
  readonly drift?: string
  /** Set when the drift is shared with other resources (their provider could not list): the same value reports it once, at the first. */
  readonly shared?: object
  /** Handed to the resource's steps (a libral update is made against what its provider found now). */
  readonly now?: unknown
}

/** A resource type. `S` is its compiled resource, `O` what it observes, `P` its plan. */
export interface ResourceType<S extends Spec = Spec, O = unknown, P extends Plan.ResourcePlan = Plan.ResourcePlan> {
  /** The registry key: the `_tag` of its specs and the `kind` of its plans. */
  readonly kind: string
  /** Its resource plan's codec (with `kind` as a literal). */
  readonly codec: t.Type<P, P, unknown>
  /** The properties a `defaults` entry may set (undefined: checked per resource, against what the resource turns out to be). */
  readonly keys?: ReadonlyArray<string>
  /** Decodes and validates a manifest entry (its common properties already taken out), with positions. */
  readonly decode: (raw: RawResource, env: DecodeEnv) => E.Either<ReadonlyArray<Diagnostic.Diagnostic>, S>
  /** Host files a resource reads (a `source:`), as their host path and as the manifest wrote them; the plan records them. */
  readonly sources?: (spec: S) => ReadonlyArray<{ readonly path: string; readonly written: string }>
  /** The machine path a resource manages, when a later value reading that file must wait for it (see Deferral). */
  readonly manages?: (spec: S) => string | undefined
  /** The plugin a resource runs, recorded in the plan so apply can refuse a changed one. */
  readonly provider?: (spec: S) => Plan.Provider | undefined
  /**
   * What a resource needs to know of the machine to be planned. A failure shared by several
   * resources (a provider that cannot list) is the same diagnostic object for each: reported once.
   */
  readonly observe: (spec: S) => Observation<E.Either<Diagnostic.Diagnostic, O>>
  /** Makes one run's planner (a type may keep what earlier resources of the run leave behind). */
  readonly planner: () => (spec: S, observed: O, env: PlanEnv) => E.Either<Diagnostic.Diagnostic, P>
  /** What is decided only at the resource's turn, for a dry run and the renderers (nothing: the steps are all there is). */
  readonly pending: (plan: P) => string | undefined
  /** True when its plan may change something (steps, or a decision left to its turn). */
  readonly mayChange: (plan: P) => boolean
  /** Resources it cannot do without beyond `require` (those a deferred value reads from). */
  readonly needs: (plan: P) => ReadonlyArray<string>
  /** True when its resources may `subscribe` (they refresh when a resource they subscribe to changes); elsewhere `subscribe` is an error. */
  readonly subscribes?: boolean
  /**
   * Observes it again before apply: what drifted since the plan was made. `same` compares the
   * plan's `observed.digest` with the one observed now (Plan.sameDigest: equal, or, for a
   * resource that carries a sensitive value, equal once keyed).
   */
  readonly check: (plan: P, accounts: Accounts, same: Plan.SameDigest) => Observation<Checked>
  /**
   * Decides its steps at its turn. A failure (a guard that cannot run, a managed file that cannot
   * be read, a deferred value that cannot be worked out) is a fault of its kind whose description
   * is the whole sentence the report shows, and whose cause is the fault it comes from.
   */
  readonly turn: (plan: P, env: TurnEnv) => Observation<E.Either<Fault.Fault, Turn>>
  /** Observes it after its steps ran: how it misses its desired state (nothing: verified). */
  readonly verify: (plan: P) => Observation<ReadonlyArray<string>>
  /**
   * For the step tags it defines, why a decoded step cannot be an honest one beyond its shape (a
   * `file.write` whose content does not match its declared digest: the plan was edited); undefined
   * when it can. They apply to a step of that tag in any resource's plan (see registry.tampered).
   */
  readonly stepChecks?: Readonly<Record<string, (step: Plan.Step) => string | undefined>>
  /** A compiled resource's properties on one line, for `plait compile` (escaped for a terminal). */
  readonly show: (spec: S) => string
  /** A compiled resource as `plait compile --json` prints it (undefined: as it is). */
  readonly json?: (spec: S) => unknown
  /** Its block in `plait plan`'s output (empty: nothing to show). */
  readonly render: (plan: P, options: { readonly verbose: boolean }) => ReadonlyArray<string>
}

/** Any resource type (the registry's view: specs, observations and plans of every kind). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyType = ResourceType<any, any, any>

// combinators

/** The earlier resource with an id: by the env's index, or by a scan of a one-off env's list. */
export const earlierWithId = (env: Pick<PlanEnv, 'earlier' | 'byId'>, id: string): Plan.ResourcePlan | undefined =>
  env.byId !== undefined ? env.byId(id) : env.earlier.find((r) => r.id === id)

/** True when an earlier resource of the run may change something (and so install, or trigger, what comes later). */
export const earlierMayChange = (env: PlanEnv): boolean => (env.someMayChange !== undefined ? env.someMayChange() : env.earlier.some((r) => env.mayChange(r)))

/** The subscribed ids whose resource may change in this run (those that may trigger a refresh), in `subscribe`'s order. */
export const changingSubscriptions = (env: PlanEnv): ReadonlyArray<string> =>
  env.subscribe.filter((id) => {
    const r = earlierWithId(env, id)
    return r !== undefined && env.mayChange(r)
  })

/** True when every id names an earlier resource that changes nothing in this run (what a deferred value reads is settled). */
export const allSettled = (env: Pick<PlanEnv, 'earlier' | 'byId' | 'mayChange'>, ids: ReadonlyArray<string>): boolean =>
  ids.every((id) => {
    const r = earlierWithId(env, id)
    return r !== undefined && !env.mayChange(r)
  })
