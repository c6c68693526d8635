// recover: finds a run that did not finish (a killed apply) and completes the rollback its journal implies.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Journal from './Journal.js'
import * as Undo from '../interpreters/files/undo.js'

/** Where the state directory keeps its files. */
export const paths = (stateDir: string) => ({
  journal: `${stateDir}/journal`,
  backups: `${stateDir}/backups`,
  lock: `${stateDir}/lock`,
})

const decoder = new TextDecoder()

/** Reads the journal (no effects): Clean when there is none; an unreadable one is Damaged. */
export const inspect = async (machine: Machine, stateDir: string): Promise<Journal.Reading> => {
  const text = await machine.readFile(paths(stateDir).journal)()
  if (E.isRight(text)) return Journal.read(decoder.decode(text.right))
  return text.left._tag === 'NotFound' ? { _tag: 'Clean' } : { _tag: 'Damaged', line: 0, reason: `it cannot be read: ${Fault.render(text.left)}` }
}

/** The unfinished run the journal records, if any (no effects). */
export const pending = async (machine: Machine, stateDir: string): Promise<Journal.Unfinished | undefined> => {
  const r = await inspect(machine, stateDir)
  return r._tag === 'Unfinished' ? r : undefined
}

/** The refusal for a journal that cannot be trusted: nothing is rolled back, nothing is removed. */
export const damaged = (stateDir: string, r: Extract<Journal.Reading, { _tag: 'Damaged' }>): Diagnostic.Diagnostic =>
  Diagnostic.make('Recovery', `the journal ${paths(stateDir).journal} is damaged${r.line > 0 ? ` at line ${r.line}` : ''} (${r.reason}): plait cannot tell what the unfinished run changed`, {
    hint: `the journal and the backups in ${paths(stateDir).backups} are kept; put back what needs it, then remove the journal and apply again`,
  })

/**
 * Rolls back an unfinished run and clears the journal and backups; returns what it undid. A
 * damaged journal, or an undo that fails, is an error that keeps the journal and the backups, so
 * that nothing is lost and the next apply can try again.
 */
export const recover = async (machine: Machine, stateDir: string): Promise<E.Either<Diagnostic.Diagnostic, ReadonlyArray<string>>> => {
  const reading = await inspect(machine, stateDir)
  if (reading._tag === 'Damaged') return E.left(damaged(stateDir, reading))
  const undone: string[] = []
  if (reading._tag === 'Unfinished') {
    const run = reading
    // newest first, the unbegun steps of a batch among them (they have the highest seqs of their batch)
    for (const step of [...run.steps, ...(run.unbegun ?? [])].sort((a, b) => b.seq - a.seq)) {
      // a batch's step (begun or not) is told only when undoing it changed a managed path: its `begin` says only that it may have run
      const quiet = step.batch === true
      const r = quiet ? E.map((changed: boolean): Undo.Outcome | undefined => (changed ? 'undone' : undefined))(await Undo.settle(machine, step.undo, step.temp)) : await Undo.run(machine, step.undo, step.temp)
      if (E.isLeft(r)) {
        return E.left(
          Diagnostic.make('Recovery', `cannot roll back the unfinished run of pid ${run.pid} at ${step.what}: ${Fault.render(r.left)}`, {
            resource: step.id,
            hint: `the journal is kept in ${paths(stateDir).journal}; fix the cause and run apply again`,
          }),
        )
      }
      if (r.right === undefined) continue
      const said: Record<Undo.Outcome, string> = {
        undone: `undid ${step.what}`,
        unchanged: `nothing to undo: ${step.what} had not changed anything`,
        irreversible: `cannot undo ${step.what}: it is irreversible`,
      }
      undone.push(`${step.id}: ${said[r.right]}`)
    }
  }
  await clear(machine, stateDir)
  return E.right(undone)
}

/** Removes the journal and the backups of a finished run. */
export const clear = async (machine: Machine, stateDir: string): Promise<void> => {
  const p = paths(stateDir)
  await machine.remove(p.journal, { recursive: false })()
  await machine.remove(p.backups, { recursive: true })()
}
