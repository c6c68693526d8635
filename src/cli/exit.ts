// exit: how plan, show and apply (planApply.ts) end with a status: they throw Exit, and main.ts
// turns it into the process's exit status.

/** Exit codes: 0 success (no changes with --detailed-exitcode), 1 error, 2 changes present. */
export const EXIT_ERROR = 1
export const EXIT_CHANGES = 2

export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}
