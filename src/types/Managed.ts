// Managed: reading the files deferred values read (files an earlier resource manages), as
// observation programs: at plan time (what they hold now) and at the value's turn in apply.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type { Observation } from '../core/Observation.js'
import * as Obs from '../core/Observation.js'
import type { Probe } from '../core/Probe.js'

/** The largest managed file a deferred value may read. */
export const readLimit = 64 * 1024 * 1024

/** The fault kind of a path that is not a regular file: nothing there is NotFound. */
const notAFile = (p: Exclude<Probe, { readonly _tag: 'File' }>): Fault.Tag => (p._tag === 'Absent' ? 'NotFound' : p._tag === 'Directory' ? 'IsADirectory' : 'Failed')

/**
 * A managed file's bytes, or why they cannot be read (missing, not a regular file, too large): a
 * fault whose description is the whole sentence the report shows, and whose cause is the probe's
 * fault when the probe failed.
 */
export const read = (path: string): Observation<E.Either<Fault.Fault, Uint8Array>> =>
  Obs.map((p: E.Either<Fault.Fault, Probe>): E.Either<Fault.Fault, Uint8Array> => {
    if (E.isLeft(p)) return E.left(Fault.make(p.left._tag, 'managed', 'read', path, `cannot read ${path}: ${Fault.render(p.left)}`, p.left))
    if (p.right._tag !== 'File') return E.left(Fault.make(notAFile(p.right), 'managed', 'read', path, `${path} is not a regular file (${p.right._tag === 'Absent' ? 'it does not exist' : p.right._tag.toLowerCase()})`))
    const bytes = p.right.probe.content
    return bytes === undefined ? E.left(Fault.make('Failed', 'managed', 'read', path, `${path} is larger than ${readLimit} bytes`)) : E.right(bytes)
  })(Obs.probe(path, { contentUnless: '', contentLimit: readLimit }))

/** Reads every managed file of a deferred value, by the relative path it reads it as, one after another; the first that cannot be read stops it. */
export const readAll = (managed: Readonly<Record<string, string>>): Observation<E.Either<Fault.Fault, Map<string, Uint8Array>>> => {
  const entries = Object.entries(managed)
  const step = (i: number, out: Map<string, Uint8Array>): Observation<E.Either<Fault.Fault, Map<string, Uint8Array>>> =>
    i === entries.length
      ? Obs.done(E.right(out))
      : Obs.chain((b: E.Either<Fault.Fault, Uint8Array>) => (E.isLeft(b) ? Obs.done(b) : step(i + 1, new Map(out).set(entries[i]![0], b.right))))(read(entries[i]![1]))
  return step(0, new Map())
}

/** Reads the files of several paths at once; those that cannot be read are left out (a value reading them stays deferred). */
export const readSome = (paths: ReadonlyArray<string>): Observation<ReadonlyMap<string, Uint8Array>> =>
  Obs.map((rs: ReadonlyArray<E.Either<Fault.Fault, Uint8Array>>) => new Map(rs.flatMap((r, i) => (E.isRight(r) ? [[paths[i]!, r.right] as const] : []))))(Obs.all(paths.map(read)))
