// The runner contract: what every interpreter of commands (the posix runner, which starts real
// processes, and the memory runner, which answers from a script for offline tests) must do with a
// command: how an exit, a signal, output, the environment and the working directory are reported,
// and which faults a command that cannot start or outlives its timeout gives. Each program says
// what it does (for the memory runner's script) and what every runner must report of it.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command, Runner } from '../../src/interpreters/Runner.js'
import type { Scripted } from '../../src/interpreters/commands/memory.js'

export interface Program {
  readonly name: string
  readonly command: Command
  /** What the program does, as the memory runner's script says it (undefined: there is no such program). */
  readonly does: (c: Command) => Scripted | undefined
  /** What every runner reports: the exit (durations aside), or the fault's tag and description. */
  readonly reports: { readonly exitCode: number | undefined; readonly signal: string | undefined; readonly stdout: string; readonly stderr: string } | { readonly fault: string; readonly description: string }
}

const sh = (script: string, more: Partial<Command> = {}): Command => ({ argv: ['/bin/sh', '-c', script], environment: [], timeoutMs: 10_000, ...more })
const valueOf = (c: Command, key: string): string => c.environment.find((e) => e.startsWith(`${key}=`))?.slice(key.length + 1) ?? ''

export const programs: ReadonlyArray<Program> = [
  { name: 'prints and exits 0', command: sh('echo hello'), does: () => ({ stdout: 'hello\n' }), reports: { exitCode: 0, signal: undefined, stdout: 'hello\n', stderr: '' } },
  { name: 'exits non-zero, saying why on stderr', command: sh('echo oops >&2; exit 3'), does: () => ({ exit: 3, stderr: 'oops\n' }), reports: { exitCode: 3, signal: undefined, stdout: '', stderr: 'oops\n' } },
  { name: 'is ended by a signal', command: sh('kill -TERM $$'), does: () => ({ signal: 'SIGTERM' }), reports: { exitCode: undefined, signal: 'SIGTERM', stdout: '', stderr: '' } },
  {
    name: 'sees the environment it is given',
    command: sh('printf %s "$GREETING"', { environment: ['GREETING=hi there'] }),
    does: (c) => ({ stdout: valueOf(c, 'GREETING') }),
    reports: { exitCode: 0, signal: undefined, stdout: 'hi there', stderr: '' },
  },
  { name: 'runs in its working directory', command: sh('pwd', { cwd: '/tmp' }), does: (c) => ({ stdout: `${c.cwd}\n` }), reports: { exitCode: 0, signal: undefined, stdout: '/tmp\n', stderr: '' } },
  {
    name: 'cannot start: there is no such program',
    command: { argv: ['/nonexistent/plait-contract-program'], environment: [], timeoutMs: 10_000 },
    does: () => undefined,
    reports: { fault: 'NotFound', description: 'could not start: no such file' },
  },
  {
    name: 'outlives its timeout',
    command: sh('sleep 5', { timeoutMs: 300 }),
    does: () => ({ hangs: true }),
    reports: { fault: 'TimedOut', description: 'ran longer than 0.3 s and was killed with its process group' },
  },
  { name: 'has no words', command: { argv: [], environment: [], timeoutMs: 10_000 }, does: () => undefined, reports: { fault: 'Failed', description: 'no command specified' } },
]

/** The memory runner's script of the contract's programs. */
export const script = (line: string, c: Command): Scripted | undefined => programs.find((p) => p.command.argv.join(' ') === line)?.does(c)

/** Runs the contract against a runner. */
export const runnerContract = (label: string, make: () => Runner): void => {
  describe(`the runner contract: ${label}`, () => {
    for (const p of programs) {
      it(p.name, async () => {
        const r = await make().run(p.command)
        if ('fault' in p.reports) {
          expect(E.isLeft(r) && { fault: r.left._tag, description: r.left.description }).toEqual(p.reports)
        } else {
          expect(E.isRight(r) && { exitCode: r.right.exitCode, signal: r.right.signal, stdout: r.right.stdout, stderr: r.right.stderr }).toEqual(p.reports)
          expect(E.isRight(r) && r.right.durationMs >= 0).toBe(true)
        }
      })
    }
  })
}
