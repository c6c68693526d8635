// rollback: undoes the steps a run began, newest first, for a failed resource or an atomic run.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import * as Undo from '../interpreters/files/undo.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Journal from './Journal.js'

/** A step that began, with what its journal record says. */
export interface Done {
  readonly id: string
  readonly what: string
  readonly undo: Journal.Undo
  readonly temp: string | undefined
}

/** What a rollback did: the undone steps, the problems, the resources with a problem, and `broken` when an undo failed (not merely irreversible): recovery must retry. */
export interface Rolled {
  readonly ok: string[]
  readonly failed: string[]
  readonly failedIds: Set<string>
  readonly broken: boolean
}

/** Undoes steps, newest first. */
export const rollback = async (machine: Machine, done: ReadonlyArray<Done>): Promise<Rolled> => {
  const ok: string[] = []
  const failed: string[] = []
  const failedIds = new Set<string>()
  let broken = false
  for (const d of [...done].reverse()) {
    const r = await Undo.run(machine, d.undo, d.temp)
    if (E.isLeft(r)) broken = true
    const problem = E.isLeft(r) ? `could not undo ${d.what}: ${Fault.render(r.left)}` : r.right === 'irreversible' ? `cannot undo ${d.what}: it is irreversible` : undefined
    if (problem !== undefined) {
      failed.push(problem)
      failedIds.add(d.id)
    } else if (E.isRight(r) && r.right === 'undone') ok.push(`${d.id}: undid ${d.what}`)
  }
  return { ok, failed, failedIds, broken }
}
