// Journal: the durable record of a run, written before and after every step, and its pure reading.
//
// One JSON record a line. A step's record is written (and fsynced) after its backup exists and
// before it runs; `done` after it ran. A run that ends writes `commit` and the journal is removed;
// a journal without `commit` is an unfinished run that the next apply rolls back.

// model

/** How to put a path back as it was before a step. */
export type Undo =
  | { readonly _tag: 'Remove'; readonly paths: ReadonlyArray<string> } // paths the step creates, innermost last
  | { readonly _tag: 'Restore'; readonly path: string; readonly backup: string } // copy of what the step replaced or removed
  | { readonly _tag: 'Attrs'; readonly path: string; readonly uid: number; readonly gid: number; readonly mode: number }
  | { readonly _tag: 'Irreversible'; readonly reason: string } // nothing can bring it back (a removed fifo, socket or device)

export type Record =
  | { readonly t: 'run'; readonly plan: string; readonly atomic: boolean; readonly pid: number }
  | { readonly t: 'resource'; readonly id: string }
  | { readonly t: 'step'; readonly seq: number; readonly id: string; readonly what: string; readonly undo: Undo; readonly temp?: string }
  | { readonly t: 'done'; readonly seq: number }
  | { readonly t: 'end'; readonly id: string; readonly ok: boolean }
  | { readonly t: 'commit' }

/** A journal as read back: the run's header and what it began and finished. */
export interface Unfinished {
  readonly plan: string
  readonly atomic: boolean
  readonly pid: number
  /** Step records of the steps to undo, in the order they began. */
  readonly steps: ReadonlyArray<Extract<Record, { t: 'step' }>>
}

// interop

/** Encodes one record as a journal line. */
export const encode = (r: Record): string => JSON.stringify(r) + '\n'

/**
 * Reads a journal's text. Returns undefined for a committed (or empty) journal; otherwise the
 * steps an unfinished run implies undoing: all begun steps for an atomic run, else the begun steps
 * of the resource that did not end. A torn last line (the crash hit mid-write) is ignored.
 */
export const unfinished = (text: string): Unfinished | undefined => {
  const records: Record[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      records.push(JSON.parse(line) as Record)
    } catch {
      break
    }
  }
  const head = records[0]
  if (head === undefined || head.t !== 'run') return undefined
  if (records.some((r) => r.t === 'commit')) return undefined
  const ended = new Set(records.flatMap((r) => (r.t === 'end' ? [r.id] : [])))
  const steps = records.flatMap((r) => (r.t === 'step' && (head.atomic || !ended.has(r.id)) ? [r] : []))
  return { plan: head.plan, atomic: head.atomic, pid: head.pid, steps }
}
