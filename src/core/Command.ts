// Command: a command to run and how it ended, as data (exec resources, their guards and health
// checks; the Runner interprets them, and observation programs ask for them).

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
