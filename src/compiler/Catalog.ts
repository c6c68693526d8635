// Catalog: the compiled manifest, every resource decoded and validated, in manifest order.
import type { FileSpec } from '../types/file/Spec.js'

export interface Catalog {
  readonly manifest: { readonly file: string; readonly sha256: string }
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
