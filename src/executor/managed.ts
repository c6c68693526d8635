// managed: reads the files that deferred values read (files an earlier resource manages), for
// observe (what they hold now) and for the executor (what they hold at the value's turn).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type { Machine } from '../interpreters/Machine.js'

/** The largest managed file a deferred value may read. */
export const readLimit = 64 * 1024 * 1024

/** A managed file's bytes, or why they cannot be read (missing, not a regular file, too large). */
export const read = async (machine: Machine, path: string): Promise<E.Either<string, Uint8Array>> => {
  const p = await machine.probe(path, { contentUnless: '', contentLimit: readLimit })()
  if (E.isLeft(p)) return E.left(`cannot read ${path}: ${Fault.render(p.left)}`)
  if (p.right._tag !== 'File') return E.left(`${path} is not a regular file (${p.right._tag === 'Absent' ? 'it does not exist' : p.right._tag.toLowerCase()})`)
  const bytes = p.right.probe.content
  return bytes === undefined ? E.left(`${path} is larger than ${readLimit} bytes`) : E.right(bytes)
}

/** Reads every managed file of a deferred value, by the relative path it reads it as; the first that cannot be read stops it. */
export const readAll = async (machine: Machine, managed: Readonly<Record<string, string>>): Promise<E.Either<string, Map<string, Uint8Array>>> => {
  const out = new Map<string, Uint8Array>()
  for (const [rel, path] of Object.entries(managed)) {
    const b = await read(machine, path)
    if (E.isLeft(b)) return b
    out.set(rel, b.right)
  }
  return E.right(out)
}
