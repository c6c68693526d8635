// Runner: the interpreter of commands (exec resources and their guards). A command is a value; the
// posix runner starts it as a process, the memory runner answers from a script, for offline tests.
import type * as E from 'fp-ts/lib/Either.js'
import type { Fault } from '../core/Fault.js'

// model

/** A command to run: its words (the program first), where, with what added to the environment, for how long. */
export interface Command {
  readonly argv: ReadonlyArray<string>
  /** A machine path (default: the machine's root). */
  readonly cwd?: string
  /** `KEY=value` entries added to the environment. */
  readonly environment: ReadonlyArray<string>
  /** The PATH it runs with, when the resource sets one. */
  readonly path?: string
  readonly timeoutMs: number
}

/** How a command ended. */
export interface Exit {
  /** The exit status, undefined when a signal ended it. */
  readonly exitCode: number | undefined
  readonly signal: string | undefined
  readonly stdout: string
  readonly stderr: string
  /** What it wrote on each extra descriptor it was given (fd 3 first), when it was given any. */
  readonly fds?: ReadonlyArray<string>
  readonly durationMs: number
}

export interface Runner {
  /** Runs a command to its end; a command that cannot start, or outlives its timeout (killed with its process group), is a Fault. */
  readonly run: (command: Command) => Promise<E.Either<Fault, Exit>>
}

// interop

/** A command line for messages. */
export const render = (c: Command): string => c.argv.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ')
