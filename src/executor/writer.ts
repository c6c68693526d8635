// writer: the journal of one run as it is written: records are noted in order, and reach the disk
// together, in one append and one fsync, at the durable points (before a step mutates, at commit).
//
// Group commit: a run of N single-step resources makes N + 1 journal fsyncs instead of 4N + 2. What
// a crash can then lose is only what was noted after the last durable point: `resource`, `done` and
// `end` records of steps that already ran, never the `step` record of a step that ran (see
// docs/apply.md, "Why a crash at any moment recovers").
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
  /** True once anything reached the journal file (a run that wrote nothing has no journal to commit). */
  readonly written: () => boolean
}

const encoder = new TextEncoder()

/** A writer of the journal at `path` (a machine path). */
export const make = (machine: Machine, path: string): Writer => {
  /** Encoded records not yet appended, in the order they were noted. */
  let pending: string[] = []
  let wrote = false
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    const w = await machine.append(path, encoder.encode(text))()
    if (E.isLeft(w)) throw new JournalError(w.left)
    wrote = true
  }
  return Object.freeze({
    note: (r: Journal.Record) => void pending.push(Journal.encode(r)),
    sync: async (r: Journal.Record) => {
      pending.push(Journal.encode(r))
      await flush()
    },
    flush,
    written: () => wrote,
  })
}

/** A journal write failed: the run cannot go on safely. */
export class JournalError extends Error {
  constructor(readonly fault: Fault.Fault) {
    super(`cannot write the journal: ${Fault.render(fault)}`)
  }
}
