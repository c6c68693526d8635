// load: the stage that reads the host's inputs, each once, before the stage that uses them: the
// files `readFile`, `file` and `template` read (while compile evaluates, through a memo, so that
// the plan's digest of a file is of the very text compile used however often it is read), and the
// `source:` files of the compiled resources (after compile, before observe, which reads nothing of
// the host). The manifest and the `--hiera` document are read once by the pipeline, and provider
// metadata by discovery.
import * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../core/Fault.js'
import type { Catalog } from '../compiler/Catalog.js'
import { memo } from '../core/Memo.js'
import type { ReadHost } from '../interpreters/probes.js'
import * as Registry from '../types/registry.js'

/** A reader of text files that reads each path once: later calls give the same answer (text or error). */
export const once = (read: (path: string) => E.Either<string, string>): ((path: string) => E.Either<string, string>) => memo(read)

/**
 * Reads the `source:` files of a catalog's resources, each once, and answers later reads from what
 * was read: the `host` requests of observation never reach the disk again.
 */
export const sources = async (catalog: Catalog, read: ReadHost): Promise<ReadHost> => {
  const loaded = new Map<string, E.Either<Fault.Fault, Uint8Array>>()
  for (const spec of catalog.resources) {
    if (spec._tag === 'skipped') continue
    for (const s of Registry.ofKind(spec._tag).sources?.(spec) ?? []) if (!loaded.has(s.path)) loaded.set(s.path, await read(s.path))
  }
  return async (path) => {
    const r = loaded.get(path)
    if (r === undefined) throw new Error(`invariant: ${path} is read from the host without having been loaded`)
    return r
  }
}
