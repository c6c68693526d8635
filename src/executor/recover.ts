// recover: finds a run that did not finish (a killed apply) and completes the rollback its journal implies.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Journal from './Journal.js'
import * as Undo from './undo.js'

/** Where the state directory keeps its files. */
export const paths = (stateDir: string) => ({
  journal: `${stateDir}/journal`,
  backups: `${stateDir}/backups`,
  lock: `${stateDir}/lock`,
})

const decoder = new TextDecoder()

/** Reads the journal and returns the unfinished run it records, if any (no effects). */
export const pending = async (machine: Machine, stateDir: string): Promise<Journal.Unfinished | undefined> => {
  const text = await machine.readFile(paths(stateDir).journal)()
  return E.isRight(text) ? Journal.unfinished(decoder.decode(text.right)) : undefined
}

/** Rolls back an unfinished run and clears the journal and backups; returns what it undid. */
export const recover = async (machine: Machine, stateDir: string): Promise<E.Either<Diagnostic.Diagnostic, ReadonlyArray<string>>> => {
  const run = await pending(machine, stateDir)
  const undone: string[] = []
  if (run !== undefined) {
    for (const step of [...run.steps].reverse()) {
      const r = await Undo.run(machine, step.undo, step.temp)
      if (E.isLeft(r)) {
        return E.left(
          Diagnostic.make('Recovery', `cannot roll back the unfinished run of pid ${run.pid} at ${step.what}: ${Fault.render(r.left)}`, {
            resource: step.id,
            hint: `the journal is kept in ${paths(stateDir).journal}; fix the cause and run apply again`,
          }),
        )
      }
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
