// memory commands: a runner that answers from a script instead of starting processes, and keeps
// every command it was asked to run (for offline tests of exec plans, guards and refreshes).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Runner from '../Runner.js'
import { formatDuration } from '../timer.js'

export interface MemoryRunner extends Runner.Runner {
  /** The commands run so far, as their rendered command lines. */
  readonly calls: () => ReadonlyArray<string>
}

/** A scripted exit: the status (default 0) and what was printed. */
export interface Scripted {
  readonly exit?: number
  readonly stdout?: string
  readonly stderr?: string
  /** Ended by this signal instead of an exit. */
  readonly signal?: string
  /** Never ends on its own: it outlives its timeout, as a posix command would, and is reported as timed out. */
  readonly hangs?: boolean
  /** Runs when the command does (to model its effects on a memory machine). */
  readonly effect?: () => void
}

/** A runner whose answers come from `script` (by command line); a command it does not know cannot start. */
export const make = (script: (line: string, c: Runner.Command) => Scripted | undefined): MemoryRunner => {
  const calls: string[] = []
  return {
    calls: () => [...calls],
    run: async (c) => {
      const program = c.argv[0]
      if (program === undefined) return E.left(Fault.make('Failed', 'exec', 'run', '', 'no command specified'))
      const line = c.argv.join(' ')
      calls.push(line)
      const s = script(line, c)
      if (s === undefined) return E.left(Fault.make('NotFound', 'exec', 'run', program, 'could not start: no such file'))
      s.effect?.()
      if (s.hangs === true) return E.left(Fault.make('TimedOut', 'exec', 'run', program, `ran longer than ${formatDuration(c.timeoutMs)} and was killed with its process group`))
      return E.right({ exitCode: s.signal !== undefined ? undefined : (s.exit ?? 0), signal: s.signal, stdout: s.stdout ?? '', stderr: s.stderr ?? '', durationMs: 0 })
    },
  }
}
