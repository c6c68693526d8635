// proc: the pure parser of /proc/PID/stat, for the start time that tells a live process from a
// reused pid (stale lock detection).
//
// The second field, comm, is in parentheses and may itself contain spaces and ")", so fields are
// counted from the LAST ")": after it come field 3 (state), 4 (ppid), ... 22 (starttime).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'

// model

/** The fields of /proc/PID/stat that plait reads. */
export interface Stat {
  readonly pid: number
  readonly comm: string
  readonly state: string
  /** Field 22: the time the process started after boot, in clock ticks, as decimal text. */
  readonly startTime: string
}

// constructors

/** Parses the text of /proc/PID/stat; text that breaks its format is a ProtocolViolation whose description says how. */
export const parse = (text: string): E.Either<Fault.Fault, Stat> => {
  const violation = (description: string): E.Either<Fault.Fault, never> => E.left(Fault.make('ProtocolViolation', 'posix', 'parse', '/proc/PID/stat', description))
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  if (open < 0 || close < open) return violation('no "(comm)" field')
  const pidText = text.slice(0, open).trim()
  if (!/^[0-9]+$/.test(pidText)) return violation(`pid field "${pidText}" is not a number`)
  const rest = text.slice(close + 1).trim().split(/\s+/)
  // rest[0] is field 3, so field n is rest[n - 3]
  const state = rest[0]
  const startTime = rest[22 - 3]
  if (state === undefined || state.length === 0 || startTime === undefined) return violation(`only ${rest.length + 2} fields, need 22`)
  if (!/^[0-9]+$/.test(startTime)) return violation(`start time field "${startTime}" is not a number`)
  return E.right(Object.freeze({ pid: Number(pidText), comm: text.slice(open + 1, close), state, startTime }))
}

/** Field 22 (the start time) of /proc/PID/stat text. */
export const startTime = (text: string): E.Either<Fault.Fault, string> => E.map((s: Stat) => s.startTime)(parse(text))
