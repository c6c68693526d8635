// Catalog: the compiled manifest, every resource decoded and validated, in manifest order.
import type { Diagnostic } from '../core/Diagnostic.js'
import type { HealthCheck } from '../types/resource/Properties.js'
import type { ExecSpec } from '../types/exec/Spec.js'
import type { FileSpec } from '../types/file/Spec.js'
import type { LibralSpec, Provider } from '../types/libral/Spec.js'

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
  readonly id: string
  readonly type: string
  readonly name: string
  readonly at: import('../core/Position.js').Position
  readonly reason: string
}

/** A compiled resource: the file type's, the exec type's, a libral provider's, or one control skips. */
export type Resource = FileSpec | LibralSpec | ExecSpec | SkippedSpec

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

/** The distinct source files the catalog's resources read (host path and spelling), in first-use order. */
export const sources = (c: Catalog): ReadonlyArray<{ readonly path: string; readonly written: string }> => {
  const seen = new Map<string, string>()
  for (const r of files(c)) if (r.content._tag === 'Source' && !seen.has(r.content.path)) seen.set(r.content.path, r.content.written)
  return [...seen].map(([path, written]) => ({ path, written }))
}

/** The catalog's file resources, in manifest order. */
export const files = (c: Catalog): ReadonlyArray<FileSpec> => c.resources.filter((r): r is FileSpec => r._tag === 'file')

/** The catalog's exec resources, in manifest order. */
export const execs = (c: Catalog): ReadonlyArray<ExecSpec> => c.resources.filter((r): r is ExecSpec => r._tag === 'exec')

/** The catalog's libral resources, in manifest order. */
export const libral = (c: Catalog): ReadonlyArray<LibralSpec> => c.resources.filter((r): r is LibralSpec => r._tag === 'libral')

/** The distinct libral providers the catalog uses, sorted by full name. */
export const providers = (c: Catalog): ReadonlyArray<Provider> => {
  const seen = new Map<string, Provider>()
  for (const r of libral(c)) if (!seen.has(r.provider.meta.qname)) seen.set(r.provider.meta.qname, r.provider)
  return [...seen.values()].sort((a, b) => (a.meta.qname < b.meta.qname ? -1 : a.meta.qname > b.meta.qname ? 1 : 0))
}
