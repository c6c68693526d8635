// undo: records how to reverse a step before it runs, and reverses it (idempotently) on rollback.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Step } from '../core/Step.js'
import type { Machine } from '../interpreters/Machine.js'
import type { Undo } from './Journal.js'

/** Prepares a step's undo: backs up what it will replace or remove (into `backup`), or notes what it creates. */
export const prepare = async (machine: Machine, step: Step, backup: string): Promise<E.Either<Fault.Fault, Undo>> => {
  const before = await machine.probe(step.path)()
  if (E.isLeft(before)) return before
  const existed = before.right._tag !== 'Absent'
  switch (step._tag) {
    case 'file.attrs': {
      const p = before.right
      if (p._tag === 'Absent') return E.left(Fault.make('NotFound', 'executor', 'attrs', step.path, 'path vanished'))
      const entry = p._tag === 'File' ? p.probe.entry : p.entry
      return E.right({ _tag: 'Attrs', path: step.path, uid: entry.uid, gid: entry.gid, mode: entry.mode })
    }
    case 'file.mkdir': {
      // The directories mkdir -p will create: the path and its missing ancestors, outermost first.
      const missing: string[] = []
      let cur = step.path
      for (;;) {
        const p = await machine.probe(cur)()
        if (E.isLeft(p)) return p
        if (p.right._tag !== 'Absent') break
        missing.unshift(cur)
        if (cur === '/') break
        cur = PosixPath.dirname(cur)
      }
      return E.right({ _tag: 'Remove', paths: missing })
    }
    case 'file.write':
    case 'file.remove': {
      if (!existed) return E.right({ _tag: 'Remove', paths: [step.path] })
      const copied = await machine.copy(step.path, backup)()
      return E.isLeft(copied) ? copied : E.right({ _tag: 'Restore', path: step.path, backup })
    }
  }
}

const ignoreNotFound = (r: E.Either<Fault.Fault, void>): E.Either<Fault.Fault, void> =>
  E.isLeft(r) && r.left._tag === 'NotFound' ? E.right(undefined) : r

/** Reverses a step; safe to run again, and safe when the step never ran or ran only part-way. */
export const run = async (machine: Machine, undo: Undo, temp: string | undefined): Promise<E.Either<Fault.Fault, void>> => {
  if (temp !== undefined) await machine.remove(temp, { recursive: false })()
  switch (undo._tag) {
    case 'Attrs':
      return ignoreNotFound(await machine.setAttrs(undo.path, { uid: undo.uid, gid: undo.gid, mode: undo.mode })())
    case 'Remove': {
      for (const p of [...undo.paths].reverse()) {
        const probe = await machine.probe(p)()
        if (E.isLeft(probe)) return probe
        if (probe.right._tag === 'Absent') continue
        const r = await machine.remove(p, { recursive: false })()
        if (E.isLeft(r)) return r
      }
      return E.right(undefined)
    }
    case 'Restore': {
      const have = await machine.probe(undo.backup)()
      if (E.isLeft(have)) return have
      if (have.right._tag === 'Absent') return E.left(Fault.make('NotFound', 'executor', 'rollback', undo.path, `backup ${undo.backup} is missing`))
      // Copy the backup beside the target, then rename it into place: the path is old or new, never half.
      const staging = PosixPath.sibling(undo.path, `.${PosixPath.basename(undo.path)}.plait-restore`)
      const cur = await machine.probe(undo.path)()
      if (E.isLeft(cur)) return cur
      await machine.remove(staging, { recursive: true })()
      const copied = await machine.copy(undo.backup, staging)()
      if (E.isLeft(copied)) return copied
      if (cur.right._tag === 'Directory' || (have.right._tag === 'Directory' && cur.right._tag !== 'Absent')) {
        const rm = ignoreNotFound(await machine.remove(undo.path, { recursive: true })())
        if (E.isLeft(rm)) return rm
      }
      return machine.rename(staging, undo.path)()
    }
  }
}
