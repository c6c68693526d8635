// Runner: the interpreter of commands (exec resources and their guards). A command is a value; the
// posix runner starts it as a process, the memory runner answers from a script, for offline tests.
import type * as E from 'fp-ts/lib/Either.js'
import type { Command, Exit } from '../core/Command.js'
import type { Fault } from '../core/Fault.js'

// model

export type { Command, Exit }

export interface Runner {
  /** Runs a command to its end; a command that cannot start, or outlives its timeout (killed with its process group), is a Fault. */
  readonly run: (command: Command) => Promise<E.Either<Fault, Exit>>
}

// interop

/** A command line for messages. */
export const render = (c: Command): string => c.argv.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ')
