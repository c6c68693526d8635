// planFiles: the host files of saved plans: writing one (`plan --out`) atomically and never over an
// input of the plan, and reading one back (`show`, `apply`), each with its error as a value.
import { rename, stat, unlink, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import * as PlanFile from '../planfile/PlanFile.js'
import { readHost } from './pipeline.js'

type Diagnostics = ReadonlyArray<Diagnostic.Diagnostic>

const io = (message: string): E.Either<Diagnostics, never> => E.left([Diagnostic.make('Io', message)])

/**
 * Writes a host file atomically (temp file + rename), so an interrupted --out never leaves half a
 * plan. A directory, or any of the inputs the plan was made from (the manifest, data, facts, files
 * it read), is refused before anything is written; the temp file is removed on every failure.
 */
export const writeAtomic = async (path: string, text: string, inputs: ReadonlyArray<string> = []): Promise<E.Either<Diagnostics, void>> => {
  const target = await stat(path).catch(() => undefined)
  if (target?.isDirectory() === true) return io(`cannot write ${path}: it is a directory; give a file name, e.g. ${nodePath.join(path, 'plan.json')}`)
  if (target !== undefined) {
    for (const input of inputs) {
      const st = await stat(input).catch(() => undefined)
      if (st !== undefined && st.dev === target.dev && st.ino === target.ino) return io(`refusing to write the plan over ${path}: it is ${input === path ? 'an input' : `the same file as the input ${input}`} of this plan`)
    }
  }
  const tmp = nodePath.join(nodePath.dirname(path), `.${nodePath.basename(path)}.${process.pid}.tmp`)
  try {
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' }) // a plan holds file contents: readable by its owner only
    await rename(tmp, path)
    return E.right(undefined)
  } catch (e) {
    await unlink(tmp).catch(() => undefined)
    return io(`cannot write ${path}: ${(e as Error).message}`)
  }
}

/** The host files a plan was made from: what `plan --out` must never overwrite. */
export const inputsOf = (manifest: string, plan: Plan.Plan, o: { facts?: string; hiera?: string }): ReadonlyArray<string> => {
  const dir = nodePath.dirname(manifest)
  return [manifest, ...(o.facts !== undefined ? [o.facts] : []), ...(o.hiera !== undefined ? [o.hiera] : []), ...plan.inputs.sources.map((x) => nodePath.resolve(dir, x.path))]
}

/** Reads and verifies a saved plan (format, schema, hash). */
export const load = async (path: string): Promise<E.Either<Diagnostics, Plan.Plan>> => {
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return io(`cannot read plan ${path}: ${bytes.left.description}`)
  return E.mapLeft((d: Diagnostic.Diagnostic) => [d])(PlanFile.parse(path, new TextDecoder().decode(bytes.right)))
}

/**
 * True when a file is a saved plan rather than a manifest: named `*.json`, or a JSON object with a
 * plait `format` field. A damaged plan then gets the plan file's errors, not YAML ones.
 */
export const isPlanFile = async (path: string): Promise<boolean> => {
  if (path.toLowerCase().endsWith('.json')) return true
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return false
  const text = new TextDecoder().decode(bytes.right).trimStart()
  if (!text.startsWith('{')) return false
  try {
    const v = JSON.parse(text) as Record<string, unknown>
    return typeof v['format'] === 'string' && (v['format'] as string).startsWith('plait.plan')
  } catch {
    return text.includes('"format"') && text.includes('plait.plan')
  }
}
