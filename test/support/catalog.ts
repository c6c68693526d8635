// Test support: a catalog's resources of one type, typed (the pipeline itself never asks this).
import type { Catalog } from '../../src/compiler/Catalog.js'
import type { ExecSpec } from '../../src/types/exec/Spec.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import type { LibralSpec, Provider } from '../../src/interpreters/libral/type/Spec.js'

/** The catalog's file resources, in manifest order. */
export const files = (c: Catalog): ReadonlyArray<FileSpec> => c.resources.filter((r) => r._tag === 'file') as unknown as ReadonlyArray<FileSpec>

/** The catalog's exec resources, in manifest order. */
export const execs = (c: Catalog): ReadonlyArray<ExecSpec> => c.resources.filter((r) => r._tag === 'exec') as unknown as ReadonlyArray<ExecSpec>

/** The catalog's libral resources, in manifest order. */
export const libral = (c: Catalog): ReadonlyArray<LibralSpec> => c.resources.filter((r) => r._tag === 'libral') as unknown as ReadonlyArray<LibralSpec>

/** The distinct libral providers the catalog uses, sorted by full name. */
export const providers = (c: Catalog): ReadonlyArray<Provider> => {
  const seen = new Map<string, Provider>()
  for (const r of libral(c)) if (!seen.has(r.provider.meta.qname)) seen.set(r.provider.meta.qname, r.provider)
  return [...seen.values()].sort((a, b) => (a.meta.qname < b.meta.qname ? -1 : a.meta.qname > b.meta.qname ? 1 : 0))
}
