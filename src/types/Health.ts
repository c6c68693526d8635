// Health: the nagios plugin convention for health checks (pure): an exit code is a status, and
// the first line of output is the check's message.

// model

export type Status = 'OK' | 'WARNING' | 'CRITICAL' | 'UNKNOWN'

export interface Result {
  readonly name: string
  readonly status: Status
  /** The first line the check printed (or why it could not run). */
  readonly message: string
  /** How many times it ran. */
  readonly tries: number
}

// constructors

/** The status of an exit code: 0 OK, 1 WARNING, 2 CRITICAL, anything else (or no exit) UNKNOWN. */
export const statusOf = (exitCode: number | undefined): Status => (exitCode === 0 ? 'OK' : exitCode === 1 ? 'WARNING' : exitCode === 2 ? 'CRITICAL' : 'UNKNOWN')

/** The nagios exit code of a status (`plait check` exits with the worst one). */
export const exitCodeOf = (s: Status): number => (s === 'OK' ? 0 : s === 'WARNING' ? 1 : s === 'CRITICAL' ? 2 : 3)

/** The worse of two statuses: CRITICAL over UNKNOWN over WARNING over OK, as monitoring systems rank them. */
export const worse = (a: Status, b: Status): Status => {
  const rank: Readonly<Record<Status, number>> = { OK: 0, WARNING: 1, UNKNOWN: 2, CRITICAL: 3 }
  return rank[b] > rank[a] ? b : a
}

/** One line for reports: `health check disk: CRITICAL: /var is 97% full`. */
export const render = (r: Result): string => `health check ${r.name}: ${r.status}${r.message !== '' ? `: ${r.message}` : ''}${r.tries > 1 ? ` (after ${r.tries} tries)` : ''}`

/** The first non-empty line of a check's output. */
export const firstLine = (stdout: string): string => stdout.split('\n').find((l) => l.trim() !== '')?.trim() ?? ''
