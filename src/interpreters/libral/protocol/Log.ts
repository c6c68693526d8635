// Log: a provider's stderr, one line per entry, each at the level its `LEVEL:` prefix names
// (`debug:`, `info:`, `warn:`, `error:`; `warning:` too, any case), `warn` when there is none.
import * as Terminal from '../../../core/Terminal.js'

// model

export type Level = 'debug' | 'info' | 'warn' | 'error'

export interface Line {
  readonly level: Level
  readonly message: string
}

/** Levels from the most to the least verbose. */
export const levels: ReadonlyArray<Level> = ['debug', 'info', 'warn', 'error']

// constructors

const prefix = /^\s*(debug|info|warn|warning|error)\s*:\s?(.*)$/is

/** Reads one stderr line. */
export const line = (text: string): Line => {
  const m = prefix.exec(text)
  if (m === null) return Object.freeze({ level: 'warn', message: text })
  const l = m[1]!.toLowerCase()
  return Object.freeze({ level: (l === 'warning' ? 'warn' : l) as Level, message: m[2]! })
}

/** Reads a whole stderr text; blank lines are dropped. */
export const parse = (stderr: string): ReadonlyArray<Line> =>
  Object.freeze(
    stderr
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .filter((l) => l.trim() !== '')
      .map(line),
  )

// guards

/** True when a line is at least as severe as a threshold. */
export const atLeast = (threshold: Level) => (l: Line): boolean => levels.indexOf(l.level) >= levels.indexOf(threshold)

/** Parses a level name given by a person (`--log-level`). */
export const parseLevel = (text: string): Level | undefined => {
  const l = text.toLowerCase()
  return l === 'warning' ? 'warn' : (levels as ReadonlyArray<string>).includes(l) ? (l as Level) : undefined
}

// interop

/** Draws a line for a terminal: `warn: host::etc_hosts list: message`. */
export const render = (subject: string, l: Line): string => `${l.level}: ${Terminal.field(subject)}: ${Terminal.field(l.message)}`
