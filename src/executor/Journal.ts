// Journal: the durable record of a run, written before and after every step, and its pure reading.
//
// One JSON record a line. A step's record is written (and fsynced) after its backup exists and
// before it runs; `done` after it ran. A run that ends writes `commit` and the journal is removed;
// a journal without `commit` is an unfinished run that the next apply rolls back.
//
// A batch (docs/apply.md, "Batches") fsyncs the step records of several steps at once, each marked
// `batch`, before any of them runs; such a step has begun only once its `begin` record follows.

import type { Undo } from '../core/Undo.js'

// model

export type { Undo }

export type Record =
  | { readonly _tag: 'run'; readonly plan: string; readonly atomic: boolean; readonly pid: number }
  | { readonly _tag: 'resource'; readonly id: string }
  | { readonly _tag: 'step'; readonly seq: number; readonly id: string; readonly what: string; readonly undo: Undo; readonly temp?: string; readonly batch?: true }
  | { readonly _tag: 'begin'; readonly seq: number }
  | { readonly _tag: 'done'; readonly seq: number }
  | { readonly _tag: 'end'; readonly id: string; readonly ok: boolean }
  | { readonly _tag: 'commit' }

/** A journal as read back: the run's header and what it began and finished. */
export interface Unfinished {
  readonly plan: string
  readonly atomic: boolean
  readonly pid: number
  /** Step records of the steps to undo, in the order they began. */
  readonly steps: ReadonlyArray<Step>
  /**
   * Step records of a batch's steps that had not begun (no `begin` record), to undo as well (their
   * temp files exist; after a power loss a lost `begin` may hide a step that ran) but not to report
   * as begun. Absent when there are none.
   */
  readonly unbegun?: ReadonlyArray<Step>
}

/** A step record. */
export type Step = Extract<Record, { _tag: 'step' }>

// interop

/** Encodes one record as a journal line. */
export const encode = (r: Record): string => JSON.stringify(r) + '\n'

/** What a journal's text says: nothing to do, an unfinished run, or a journal that cannot be trusted. */
export type Reading =
  | { readonly _tag: 'Clean' }
  | ({ readonly _tag: 'Unfinished' } & Unfinished)
  | { readonly _tag: 'Damaged'; readonly line: number; readonly reason: string }

const isUndo = (u: unknown): u is Undo => {
  if (u === null || typeof u !== 'object') return false
  const x = u as { [k: string]: unknown }
  switch (x['_tag']) {
    case 'Remove':
      return Array.isArray(x['paths']) && x['paths'].every((p) => typeof p === 'string')
    case 'Restore':
      return typeof x['path'] === 'string' && typeof x['backup'] === 'string'
    case 'Attrs':
      return typeof x['path'] === 'string' && [x['uid'], x['gid'], x['mode']].every((n) => typeof n === 'number')
    case 'Irreversible':
      return typeof x['reason'] === 'string'
    default:
      return false
  }
}

/**
 * The record a parsed line holds, if it is one of the shape this module writes. A journal written
 * before records were tagged with `_tag` (they said `t`) is read the same way: it may be the
 * journal of a run that crashed before plait was upgraded, and recovery must still roll it back.
 */
const recordOf = (v: unknown): Record | undefined => {
  if (v === null || typeof v !== 'object') return undefined
  const raw = v as { [k: string]: unknown }
  const x = raw['_tag'] === undefined && typeof raw['t'] === 'string' ? (({ t, ...rest }) => ({ ...rest, _tag: t }))(raw) : raw
  return isRecord(x) ? x : undefined
}

/** Whether a value is a record of the shape this module writes. */
const isRecord = (v: { [k: string]: unknown }): v is Record & { [k: string]: unknown } => {
  const x = v
  switch (x['_tag']) {
    case 'run':
      return typeof x['plan'] === 'string' && typeof x['atomic'] === 'boolean' && typeof x['pid'] === 'number'
    case 'resource':
      return typeof x['id'] === 'string'
    case 'step':
      return (
        typeof x['seq'] === 'number' &&
        typeof x['id'] === 'string' &&
        typeof x['what'] === 'string' &&
        isUndo(x['undo']) &&
        (x['temp'] === undefined || typeof x['temp'] === 'string') &&
        (x['batch'] === undefined || x['batch'] === true)
      )
    case 'begin':
    case 'done':
      return typeof x['seq'] === 'number'
    case 'end':
      return typeof x['id'] === 'string' && typeof x['ok'] === 'boolean'
    case 'commit':
      return true
    default:
      return false
  }
}

/**
 * Reads a journal's text. Clean for a committed (or empty) journal; otherwise the steps an
 * unfinished run implies undoing: all begun steps for an atomic run, else the begun steps of the
 * resources that did not end. Only the last line may be torn (a crash mid-append writes nothing
 * after it) and is ignored; a bad line anywhere else, or a journal that does not start with its
 * run's header, is Damaged: its records cannot be trusted to say what to undo.
 */
export const read = (text: string): Reading => {
  const records: Record[] = []
  const lines = text.split('\n')
  // the text after the last newline is the line being appended when a crash came
  const complete = text.endsWith('\n') ? lines.length : lines.length - 1
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      if (i >= complete) break // the torn last line
      return { _tag: 'Damaged', line: i + 1, reason: 'not a JSON record' }
    }
    const record = recordOf(parsed)
    if (record === undefined) {
      if (i >= complete) break
      return { _tag: 'Damaged', line: i + 1, reason: 'not a journal record' }
    }
    records.push(record)
  }
  const head = records[0]
  if (head === undefined) return { _tag: 'Clean' } // empty, or only a torn header: no step began
  if (head._tag !== 'run') return { _tag: 'Damaged', line: 1, reason: 'the first record is not the run header' }
  if (records.some((r) => r._tag === 'commit')) return { _tag: 'Clean' }
  const ended = new Set(records.flatMap((r) => (r._tag === 'end' ? [r.id] : [])))
  const begun = new Set(records.flatMap((r) => (r._tag === 'begin' ? [r.seq] : [])))
  const undone = records.flatMap((r) => (r._tag === 'step' && (head.atomic || !ended.has(r.id)) ? [r] : []))
  const steps = undone.filter((r) => r.batch !== true || begun.has(r.seq))
  const unbegun = undone.filter((r) => r.batch === true && !begun.has(r.seq))
  return { _tag: 'Unfinished', plan: head.plan, atomic: head.atomic, pid: head.pid, steps, ...(unbegun.length > 0 ? { unbegun } : {}) }
}

/** The unfinished run a journal records, if any (a damaged journal counts as none: see `read`). */
export const unfinished = (text: string): Unfinished | undefined => {
  const r = read(text)
  return r._tag === 'Unfinished' ? { plan: r.plan, atomic: r.atomic, pid: r.pid, steps: r.steps, ...(r.unbegun !== undefined ? { unbegun: r.unbegun } : {}) } : undefined
}
