// pipeline: the top-level wiring, read → compile → observe → plan → seal, as the design's diagram draws it.
import { readFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import { compile } from '../compiler/compile.js'
import * as Planner from '../compiler/plan.js'
import { inlineMemo, observe, type ReadHost } from '../executor/observe.js'
import type { Machine } from '../interpreters/Machine.js'
import * as PlanFile from '../planfile/PlanFile.js'

/** Reads a host file as bytes, with errors as faults. */
export const readHost: ReadHost = async (path) => {
  try {
    return E.right(new Uint8Array(await readFile(path)))
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const tag: Fault.Tag = code === 'ENOENT' ? 'NotFound' : code === 'EACCES' ? 'PermissionDenied' : code === 'EISDIR' ? 'IsADirectory' : 'Failed'
    const description = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message
    return E.left(Fault.make(tag, 'host', 'read', path, description))
  }
}

/** Reads a manifest as text, or a diagnostic naming it. */
export const readManifest = async (path: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, string>> => {
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return E.left([Diagnostic.make('Io', `cannot read manifest ${path}: ${bytes.left.description}`)])
  try {
    return E.right(new TextDecoder('utf-8', { fatal: true }).decode(bytes.right))
  } catch {
    return E.left([Diagnostic.make('Io', `cannot read manifest ${path}: not UTF-8 text`)])
  }
}

/** Plans a manifest against a machine: the whole of `plait plan`. */
export const planManifest = async (manifestPath: string, machine: Machine, version: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const text = await readManifest(manifestPath)
  if (E.isLeft(text)) return text
  const catalog = compile(manifestPath, text.right, nodePath.dirname(nodePath.resolve(manifestPath)))
  if (E.isLeft(catalog)) return catalog
  const inline = inlineMemo()
  const observed = await observe(catalog.right, machine, readHost, inline)
  if (E.isLeft(observed)) return observed
  const body = Planner.plan(catalog.right, observed.right, { version, root: machine.root }, inline)
  return E.map(PlanFile.sealLazily)(body)
}
