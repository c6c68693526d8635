// process: the one primitive that runs plugin programs (libral providers today, Holo and Bolt
// plugins next) and commands: a program, its argv, a complete (scrubbed) environment, what stdin
// holds, extra output descriptors (Holo answers on fd 3), an output cap, a timeout that kills the
// process group, and a typed outcome (see spawn.ts for the real one). `memory` is its double: a
// script answers instead of a process, so a plugin protocol can be tested offline against the
// same interface.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type { Exit } from './Runner.js'
import { spawn, type Options } from './spawn.js'
import { formatDuration } from './timer.js'

/** A program to run, and how. */
export interface Program extends Options {
  readonly file: string
}

/** Runs programs. */
export interface Processes {
  readonly run: (p: Program) => Promise<E.Either<Fault.Fault, Exit>>
}

/** Real processes (see spawn.ts). */
export const real: Processes = { run: (p) => spawn(p.file, p) }

/** What a scripted program does: its exit (default 0) or the signal that ends it, what it prints, or that it never ends. */
export interface Scripted {
  readonly exit?: number
  readonly signal?: string
  readonly stdout?: string
  readonly stderr?: string
  /** What it writes on its extra descriptors (fd 3 first). */
  readonly fds?: ReadonlyArray<string>
  /** It outlives its timeout (and is reported as timed out, as a real one is). */
  readonly hangs?: boolean
}

/** The double: `script` answers for each program (undefined: there is no such program); every run is kept. */
export const memory = (script: (p: Program) => Scripted | undefined): Processes & { readonly runs: () => ReadonlyArray<Program> } => {
  const runs: Program[] = []
  return {
    runs: () => [...runs],
    run: async (p) => {
      runs.push(p)
      const fault = (tag: Fault.Tag, description: string) => E.left(Fault.make(tag, p.module ?? 'libral', p.op, p.subject, description))
      const s = script(p)
      if (s === undefined) return fault('NotFound', 'could not start: no such file')
      if (s.hangs === true) return fault('TimedOut', `ran longer than ${formatDuration(p.timeoutMs)} and was killed with its process group`)
      const extra = p.extraFds ?? 0
      return E.right({
        exitCode: s.signal !== undefined ? undefined : (s.exit ?? 0),
        signal: s.signal,
        stdout: s.stdout ?? '',
        stderr: s.stderr ?? '',
        ...(extra > 0 ? { fds: Array.from({ length: extra }, (_, i) => s.fds?.[i] ?? '') } : {}),
        durationMs: 0,
      })
    },
  }
}
