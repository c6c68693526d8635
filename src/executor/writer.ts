// writer: the journal of one run as it is written: records are noted in order, and reach the disk
// together, in one append and one fsync, at the durable points (before a step mutates, at commit).
//
// Group commit: a run of N single-step resources makes N + 1 journal fsyncs instead of 4N + 2. What
// a crash can then lose is only what was noted after the last durable point: `resource`, `done` and
// `end` records of steps that already ran, never the `step` record of a step that ran (see
// docs/apply.md, "Why a crash at any moment recovers"). Between durable points a batch pushes its
// noted records without an fsync (`push`), so that a process crash finds them.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Journal from './Journal.js'

/** The journal of a run, being written. */
export interface Writer {
  /** Notes a record; it reaches the disk with the next `sync` or `flush`, in order. */
  readonly note: (r: Journal.Record) => void
  /** Appends every noted record and then `r`, in one durable append (throws JournalError). */
  readonly sync: (r: Journal.Record) => Promise<void>
  /** Appends the noted records, if any, in one durable append (throws JournalError). */
  readonly flush: () => Promise<void>
  /** Appends the noted records, if any, in one append without an fsync: a process crash keeps them, a power loss may not (throws JournalError). */
  readonly push: () => Promise<void>
  /** True once anything reached the journal file (a run that wrote nothing has no journal to commit). */
  readonly written: () => boolean
}

const encoder = new TextEncoder()

/** A writer of the journal at `path` (a machine path). */
export const make = (machine: Machine, path: string): Writer => {
  /** Encoded records not yet appended, in the order they were noted. */
  let pending: string[] = []
  let wrote = false
  const append = async (sync: boolean): Promise<void> => {
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    const w = await (sync ? machine.append(path, encoder.encode(text)) : machine.append(path, encoder.encode(text), { sync: false }))()
    if (E.isLeft(w)) throw new JournalError(w.left)
    wrote = true
  }
  const flush = (): Promise<void> => append(true)
  return Object.freeze({
    note: (r: Journal.Record) => void pending.push(Journal.encode(r)),
    sync: async (r: Journal.Record) => {
      pending.push(Journal.encode(r))
      await flush()
    },
    flush,
    push: () => append(false),
    written: () => wrote,
  })
}

/** A journal write (or the fsync a later record relies on) failed: the run cannot go on safely. */
export class JournalError extends Error {
  constructor(
    readonly fault: Fault.Fault,
    what = 'cannot write the journal',
  ) {
    super(`${what}: ${Fault.render(fault)}`)
  }
}
