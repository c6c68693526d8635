// Catalog: the compiled manifest, every resource decoded and validated, in manifest order.
import type { Diagnostic } from '../core/Diagnostic.js'
import type { HealthCheck } from '../types/Properties.js'
import type { Spec } from '../types/ResourceType.js'

/** A fact or environment variable the manifest read, and a digest of the value it saw (of null when missing). */
export interface Read {
  readonly root: 'facts' | 'environ'
  /** The dotted path (`host.info.platformFamily`), each segment's dots escaped as `\.`. */
  readonly path: string
  readonly sha256: string
}

/** A resource its `control` skips: only its name and why are kept (its properties are never resolved). */
export interface SkippedSpec {
  readonly _tag: 'skipped'
  /** The kind of the type that would have planned it. */
  readonly kind: string
  readonly id: string
  readonly type: string
  readonly name: string
  readonly at: import('../core/Position.js').Position
  readonly reason: string
}

/** A compiled resource: one of a registered type (its `_tag` is the type's kind), or one control skips. */
export type Resource = Spec | SkippedSpec

/** True for a resource its control skips. */
export const isSkipped = (r: Resource): r is SkippedSpec => r._tag === 'skipped'

/** A compiled resource's type and name as its id (`type#name`) says them. */
export const identity = (r: Spec): { readonly id: string; readonly type: string; readonly name: string } => {
  const at = r.id.indexOf('#')
  return { id: r.id, type: r.id.slice(0, at), name: r.id.slice(at + 1) }
}

/** A resource's resolved references (ids of earlier resources) and health checks. */
export interface Links {
  readonly require: ReadonlyArray<string>
  readonly subscribe: ReadonlyArray<string>
  readonly healthChecks: ReadonlyArray<HealthCheck>
}

export interface Catalog {
  readonly manifest: { readonly file: string; readonly sha256: string }
  /** The `--hiera FILE` document, when one was given. */
  readonly hiera?: { readonly file: string; readonly sha256: string }
  /** Problems that do not stop compilation (an ignored annotation), for the CLI to print. */
  readonly warnings: ReadonlyArray<Diagnostic>
  /** What the manifest read of the facts and the environment, sorted; nothing else of them matters to the plan. */
  readonly reads: ReadonlyArray<Read>
  /** The files `readFile`, `file` and `template` read (relative to the manifest's directory), with digests of their text. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly sha256: string }>
  /** The time `now()` gave (RFC 3339, UTC), only when the manifest called it. */
  readonly clock?: string
  readonly failOnError: boolean
  readonly preMessage?: string
  readonly postMessage?: string
  readonly resources: ReadonlyArray<Resource>
  /** Each resource's links, by id (a resource without any has none here). */
  readonly links: ReadonlyMap<string, Links>
}
