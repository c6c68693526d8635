// Catalog: the compiled manifest, every resource decoded and validated, in manifest order.
import type { Diagnostic } from '../core/Diagnostic.js'
import type { FileSpec } from '../types/file/Spec.js'

/** A fact or environment variable the manifest read, and a digest of the value it saw (of null when missing). */
export interface Read {
  readonly root: 'facts' | 'environ'
  /** The dotted path (`host.info.platformFamily`), each segment's dots escaped as `\.`. */
  readonly path: string
  readonly sha256: string
}

export interface Catalog {
  readonly manifest: { readonly file: string; readonly sha256: string }
  /** The `--hiera FILE` document, when one was given. */
  readonly hiera?: { readonly file: string; readonly sha256: string }
  /** Problems that do not stop compilation (an ignored annotation), for the CLI to print. */
  readonly warnings: ReadonlyArray<Diagnostic>
  /** What the manifest read of the facts and the environment, sorted; nothing else of them matters to the plan. */
  readonly reads: ReadonlyArray<Read>
  readonly failOnError: boolean
  readonly preMessage?: string
  readonly postMessage?: string
  readonly resources: ReadonlyArray<FileSpec>
}

/** The distinct source files the catalog's resources read (host path and spelling), in first-use order. */
export const sources = (c: Catalog): ReadonlyArray<{ readonly path: string; readonly written: string }> => {
  const seen = new Map<string, string>()
  for (const r of c.resources) if (r.content._tag === 'Source' && !seen.has(r.content.path)) seen.set(r.content.path, r.content.written)
  return [...seen].map(([path, written]) => ({ path, written }))
}
