// streams: the process's stdout and stderr as a person's terminal sees them.
//
// Everything written here passes Terminal.text, so that no control character from a manifest, a
// machine, a provider or a command reaches the terminal raw, whichever renderer forgot a field.
// JSON goes through Terminal.json first, which keeps it exactly the same value. Colour (see
// Colour) is added after Terminal.text, to a stream that gets it, and only by Colour's painters.
import * as Colour from './Colour.js'
import * as Terminal from '../core/Terminal.js'

/** A painter of escaped text (Colour.plan, Colour.report, ...). */
export type Painter = (text: string) => string

let colours: { readonly out: boolean; readonly err: boolean } | undefined

/** Whether stdout and stderr get colour (Colour.enabled of each stream), decided once. */
export const colour = (): { readonly out: boolean; readonly err: boolean } =>
  (colours ??= {
    out: Colour.enabled({ isTTY: process.stdout.isTTY === true, env: process.env }),
    err: Colour.enabled({ isTTY: process.stderr.isTTY === true, env: process.env }),
  })

/** The status line on stderr, when one is showing. */
let status = false

const clearStatus = (): void => {
  if (!status) return
  status = false
  process.stderr.write('\r\x1b[K')
}

/** Writes text to stdout, control characters shown visibly (newlines and tabs kept), painted when stdout gets colour. */
export const out = (s: string, painter?: Painter): void => {
  clearStatus()
  const safe = Terminal.text(s)
  process.stdout.write(painter !== undefined && colour().out ? painter(safe) : safe)
}

/** Writes text to stderr, control characters shown visibly (newlines and tabs kept); diagnostics coloured when stderr gets colour. */
export const err = (s: string): void => {
  clearStatus()
  const safe = Terminal.text(s)
  process.stderr.write(colour().err ? Colour.diagnostics(safe) : safe)
}

/** True when a status line can be shown: stderr is a terminal that can erase a line. */
export const canShowStatus = (): boolean => process.stderr.isTTY === true && process.env['TERM'] !== 'dumb'

/**
 * Shows one status line on stderr, over the previous one (undefined: erases it). Only on a
 * terminal (canShowStatus); the text is escaped like everything else, and any other output
 * erases the line first, so it never mixes with a plan, a report or a message.
 */
export const showStatus = (line: string | undefined): void => {
  if (!canShowStatus()) return
  if (line === undefined) return clearStatus()
  process.stderr.write(`\r\x1b[K${Terminal.text(line.replace(/\n/g, ' '))}`)
  status = true
}

/** The terminal's width in columns: what the terminal says, else $COLUMNS, else 80. */
export const columns = (): number => {
  const env = Number(process.env['COLUMNS'])
  return process.stderr.columns > 0 ? process.stderr.columns : Number.isInteger(env) && env > 0 ? env : 80
}

/** A value as indented JSON text, terminal-safe, with a final newline. */
export const json = (value: unknown): string => Terminal.json(JSON.stringify(value, null, 2)) + '\n'
