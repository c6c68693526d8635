// SessionRecord: what a `plait ensure` session keeps of each command, one JSON line per outcome
// (pure). The last record of a resource is its outcome in the session; a damaged line is an error,
// never a guess.
import * as E from 'fp-ts/lib/Either.js'

// model

export type Outcome = 'changed' | 'stable' | 'failed' | 'skipped'

/** One ensure command's outcome. */
export interface SessionRecord {
  /** The resource's id, `type#name`. */
  readonly id: string
  readonly outcome: Outcome
  /** When it was recorded, RFC 3339 UTC. */
  readonly time: string
  /** True for a `--noop` command (it changed nothing, whatever its outcome says). */
  readonly noop: boolean
}

/** A session's summary: each resource's last outcome, in first-ensured order, and counts. */
export interface Summary {
  readonly resources: ReadonlyArray<SessionRecord>
  readonly counts: Readonly<Record<Outcome, number>>
}

const outcomes: ReadonlyArray<Outcome> = ['changed', 'stable', 'failed', 'skipped']

/** The name of a session's record file inside its directory. */
export const fileName = 'outcomes.jsonl'

/** The most bytes a session's record file may hold (a shell script's session is small). */
export const maxBytes = 16 * 1024 * 1024

// codec

/** One record as its line (with the newline). */
export const encode = (r: SessionRecord): string => JSON.stringify({ id: r.id, outcome: r.outcome, time: r.time, noop: r.noop }) + '\n'

const one = (line: string, n: number): E.Either<string, SessionRecord> => {
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return E.left(`line ${n}: not JSON`)
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return E.left(`line ${n}: not an object`)
  const o = v as Record<string, unknown>
  if (typeof o['id'] !== 'string' || !o['id'].includes('#')) return E.left(`line ${n}: id is not a TYPE#NAME text`)
  if (typeof o['outcome'] !== 'string' || !(outcomes as ReadonlyArray<string>).includes(o['outcome'])) return E.left(`line ${n}: outcome is not one of ${outcomes.join(', ')}`)
  if (typeof o['time'] !== 'string') return E.left(`line ${n}: time is not a text`)
  if (typeof o['noop'] !== 'boolean') return E.left(`line ${n}: noop is not true or false`)
  return E.right({ id: o['id'], outcome: o['outcome'] as Outcome, time: o['time'], noop: o['noop'] })
}

/** Every record of a record file's text, or the first damaged line. */
export const decode = (text: string): E.Either<string, ReadonlyArray<SessionRecord>> => {
  const records: SessionRecord[] = []
  for (const [i, line] of text.split('\n').entries()) {
    if (line.length === 0) continue
    const r = one(line, i + 1)
    if (E.isLeft(r)) return r
    records.push(r.right)
  }
  return E.right(records)
}

// queries

/** Each resource's last record (a noop record never replaces a real one's outcome). */
export const latest = (records: ReadonlyArray<SessionRecord>): ReadonlyMap<string, SessionRecord> => {
  const last = new Map<string, SessionRecord>()
  for (const r of records) {
    const before = last.get(r.id)
    if (r.noop && before !== undefined && !before.noop) continue
    last.set(r.id, r)
  }
  return last
}

/** What a command's `--require` and `--subscribe` ask of a session's records. */
export interface Links {
  /** Why a required resource is not met in the session (undefined: it is met). */
  readonly unmet: (id: string) => string | undefined
  /** True when the session saw the resource change (for `--subscribe`): any real record of it that changed. */
  readonly changed: (id: string) => boolean
}

/**
 * The answers from maps made once: asking the records for each link (the latest records worked out
 * again for every `--require`) cost the links times the records, 15 s for 1,000 links over 100,000.
 */
export const links = (records: ReadonlyArray<SessionRecord>): Links => {
  const last = latest(records)
  const changed = new Set(records.flatMap((r) => (!r.noop && r.outcome === 'changed' ? [r.id] : [])))
  return {
    unmet: (id) => {
      const r = last.get(id)
      if (r === undefined) return `${id} was not ensured in this session`
      if (r.outcome === 'failed') return `${id} failed`
      if (r.outcome === 'skipped') return `${id} was skipped`
      return undefined
    },
    changed: (id) => changed.has(id),
  }
}

/** The session's summary. */
export const summarize = (records: ReadonlyArray<SessionRecord>): Summary => {
  const resources = [...latest(records).values()]
  const counts: Record<Outcome, number> = { changed: 0, stable: 0, failed: 0, skipped: 0 }
  for (const r of resources) counts[r.outcome] += 1
  return { resources, counts }
}
