// undo: records how to reverse a step before it runs, and reverses it (idempotently) on rollback.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import type { FileStep as Step } from '../../types/file/Step.js'
import type { Undo } from '../../core/Undo.js'
import type { Machine, Probe } from '../Machine.js'

/** Prepares a step's undo: backs up what it will replace or remove (into `backup`), or notes what it creates; `probed` is the path's probe when the caller has it. */
export const prepare = async (machine: Machine, step: Step, backup: string, probed?: Probe): Promise<E.Either<Fault.Fault, Undo>> => {
  const before = probed !== undefined ? E.right(probed) : await machine.probe(step.path)()
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
      // A fifo, socket or device node cannot be copied; removing one is the run's irreversible step.
      if (before.right._tag === 'Other') return E.right({ _tag: 'Irreversible', reason: `special file ${step.path} is not backed up` })
      const copied = await machine.copy(step.path, backup)()
      return E.isLeft(copied) ? copied : E.right({ _tag: 'Restore', path: step.path, backup })
    }
  }
}

/** True when two probes show the same regular file: content, owner, group and mode. */
const sameFile = (a: Probe, b: Probe): boolean =>
  a._tag === 'File' &&
  b._tag === 'File' &&
  a.probe.sha256 === b.probe.sha256 &&
  a.probe.entry.uid === b.probe.entry.uid &&
  a.probe.entry.gid === b.probe.entry.gid &&
  a.probe.entry.mode === b.probe.entry.mode

const ignoreNotFound = (r: E.Either<Fault.Fault, void>): E.Either<Fault.Fault, void> =>
  E.isLeft(r) && r.left._tag === 'NotFound' ? E.right(undefined) : r

/** True when undoing does nothing: the step cannot be reversed. */
export const irreversible = (undo: Undo): boolean => undo._tag === 'Irreversible'

/** What undoing a step did: put something back, found nothing to put back, or could not (irreversible). */
export type Outcome = 'undone' | 'unchanged' | 'irreversible'

/**
 * Reverses a step (an irreversible one is left as it is); safe to run again, and safe when the step
 * never ran or ran only part-way.
 */
export const run = async (machine: Machine, undo: Undo, temp: string | undefined): Promise<E.Either<Fault.Fault, Outcome>> => {
  if (undo._tag === 'Irreversible') return E.right('irreversible')
  // A temp file left by a write that never renamed it: removing it is part of the undo.
  const tempRemoved = temp !== undefined && E.isRight(await machine.remove(temp, { recursive: false })())
  return E.map((changed: boolean): Outcome => (changed || tempRemoved ? 'undone' : 'unchanged'))(await reverse(machine, undo))
}

/**
 * Undoes a step of a batch that had not begun: removes its temp file, and reverses what it
 * records in case it ran after all (a power loss can lose its `begin` record). True when that
 * changed a managed path (more than the temp file).
 */
export const settle = async (machine: Machine, undo: Undo, temp: string | undefined): Promise<E.Either<Fault.Fault, boolean>> => {
  if (undo._tag === 'Irreversible') return E.right(false)
  if (temp !== undefined) await machine.remove(temp, { recursive: false })()
  return reverse(machine, undo)
}

const reverse = async (machine: Machine, undo: Undo): Promise<E.Either<Fault.Fault, boolean>> => {
  switch (undo._tag) {
    case 'Irreversible':
      return E.right(false) // run() answers for it
    case 'Attrs': {
      const cur = await machine.probe(undo.path)()
      if (E.isLeft(cur)) return cur
      if (cur.right._tag === 'Absent') return E.right(false)
      const entry = cur.right._tag === 'File' ? cur.right.probe.entry : cur.right.entry
      if (entry.uid === undo.uid && entry.gid === undo.gid && (cur.right._tag === 'Symlink' || entry.mode === undo.mode)) return E.right(false)
      const r = ignoreNotFound(await machine.setAttrs(undo.path, { uid: undo.uid, gid: undo.gid, mode: undo.mode })())
      return E.map(() => true)(r)
    }
    case 'Remove': {
      let changed = false
      for (const p of [...undo.paths].reverse()) {
        const probe = await machine.probe(p)()
        if (E.isLeft(probe)) return probe
        if (probe.right._tag === 'Absent') continue
        const r = await machine.remove(p, { recursive: false })()
        if (E.isLeft(r)) return r
        changed = true
      }
      return E.right(changed)
    }
    case 'Restore': {
      const have = await machine.probe(undo.backup)()
      if (E.isLeft(have)) return have
      if (have.right._tag === 'Absent') return E.left(Fault.make('NotFound', 'executor', 'rollback', undo.path, `backup ${undo.backup} is missing`))
      // Copy the backup beside the target, then rename it into place: the path is old or new, never half.
      const staging = PosixPath.sibling(undo.path, `.${PosixPath.basename(undo.path)}.plait-restore`)
      const cur = await machine.probe(undo.path)()
      if (E.isLeft(cur)) return cur
      if (sameFile(cur.right, have.right)) return E.right(false)
      await machine.remove(staging, { recursive: true })()
      const copied = await machine.copy(undo.backup, staging)()
      if (E.isLeft(copied)) {
        await machine.remove(staging, { recursive: true })()
        return copied
      }
      if (cur.right._tag === 'Directory' || (have.right._tag === 'Directory' && cur.right._tag !== 'Absent')) {
        const rm = ignoreNotFound(await machine.remove(undo.path, { recursive: true })())
        if (E.isLeft(rm)) {
          await machine.remove(staging, { recursive: true })()
          return rm
        }
      }
      const moved = await machine.rename(staging, undo.path)()
      // never leave a hidden half-restore behind: the backup (kept with the journal) is the copy to retry from
      if (E.isLeft(moved)) await machine.remove(staging, { recursive: true })()
      return E.map(() => true)(moved)
    }
  }
}
