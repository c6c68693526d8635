// streams: the process's stdout and stderr as a person's terminal sees them.
//
// Everything written here passes Terminal.text, so that no control character from a manifest, a
// machine, a provider or a command reaches the terminal raw, whichever renderer forgot a field.
// JSON goes through Terminal.json first, which keeps it exactly the same value.
import * as Terminal from '../core/Terminal.js'

/** Writes text to stdout, control characters shown visibly (newlines and tabs kept). */
export const out = (s: string): void => {
  process.stdout.write(Terminal.text(s))
}

/** Writes text to stderr, control characters shown visibly (newlines and tabs kept). */
export const err = (s: string): void => {
  process.stderr.write(Terminal.text(s))
}

/** A value as indented JSON text, terminal-safe, with a final newline. */
export const json = (value: unknown): string => Terminal.json(JSON.stringify(value, null, 2)) + '\n'
