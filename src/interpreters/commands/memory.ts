// memory commands: a runner that answers from a script instead of starting processes, and keeps
// every command it was asked to run (for offline tests of exec plans, guards and refreshes).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Runner from '../Runner.js'

export interface MemoryRunner extends Runner.Runner {
  /** The commands run so far, as their rendered command lines. */
  readonly calls: () => ReadonlyArray<string>
}

/** A scripted exit: the status (default 0) and what was printed. */
export interface Scripted {
  readonly exit?: number
  readonly stdout?: string
  readonly stderr?: string
  /** Runs when the command does (to model its effects on a memory machine). */
  readonly effect?: () => void
}

/** A runner whose answers come from `script` (by command line); a command it does not know cannot start. */
export const make = (script: (line: string, c: Runner.Command) => Scripted | undefined): MemoryRunner => {
  const calls: string[] = []
  return {
    calls: () => [...calls],
    run: async (c) => {
      const line = c.argv.join(' ')
      calls.push(line)
      const s = script(line, c)
      if (s === undefined) return E.left(Fault.make('NotFound', 'exec', 'run', c.argv[0] ?? '', 'could not start: no such file'))
      s.effect?.()
      return E.right({ exitCode: s.exit ?? 0, signal: undefined, stdout: s.stdout ?? '', stderr: s.stderr ?? '', durationMs: 0 })
    },
  }
}
