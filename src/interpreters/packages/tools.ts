// tools: what the package managers' interpreters share about the programs they run: the PATH they
// are found on (with the sbin directories dpkg and rpm need), whether a program is there, and the
// few lines of a failing tool's output a fault quotes; the package lock, the root a manager is
// confined to, and running one of its commands.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../../core/Command.js'
import * as Fault from '../../core/Fault.js'
import * as Invalid from '../../types/package/Invalid.js'
import * as Root from '../../types/package/Root.js'
import type * as Processes from '../process.js'

/** How long a package manager's status query may take, and an install or removal (downloads included). */
export const statusTimeoutMs = 120_000
export const actTimeoutMs = 1_800_000

/** What a package manager is made with (apt, dnf, or the one that picks between them). */
export interface Options {
  /** The machine's root: `/` is the host, any other directory confines every command below it. */
  readonly root: string
  readonly processes?: Processes.Processes
  /** The PATH the tools are found on and run with (default: this process's, with the sbin directories dpkg and rpm need). */
  readonly path?: string
}

/** The PATH the tools are found on and run with: `given`, then the sbin directories it lacks. */
export const searchPath = (given: string): string => [given, ...['/usr/local/sbin', '/usr/sbin', '/sbin'].filter((d) => !given.split(':').includes(d))].join(':')

/** Whether an executable `program` is in a directory of `searchPath`. */
export const found = (program: string, searchPath: string): boolean =>
  searchPath.split(':').some((dir) => {
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK)
      return true
    } catch {
      return false
    }
  })

/** The last lines a failing tool printed, its error lines (those `isError` picks) first; at most 400 characters. */
export const tail = (stderr: string, stdout: string, isError: (line: string) => boolean): string => {
  const lines = `${stderr}\n${stdout}`.split('\n').filter((l) => l.trim() !== '')
  const errors = lines.filter(isError)
  const shown = (errors.length > 0 ? errors : lines).slice(-3).join(' / ').slice(0, 400)
  return shown === '' ? 'it printed nothing' : shown
}

/** The package lock of one manager: each command it runs (or each set of queries run together) waits for the one before it. */
export const serializer = (): (<A>(f: () => Promise<A>) => Promise<A>) => {
  let lock: Promise<unknown> = Promise.resolve()
  return <A>(f: () => Promise<A>): Promise<A> => {
    const next = lock.then(f, f)
    lock = next.catch(() => undefined)
    return next
  }
}

/**
 * The root a manager acts below, checked once: undefined for the host (`/`), a fault for a root
 * that is malformed or that `problem` refuses (characters the tool would read as options), else
 * what `make` builds for it (its configuration file, written on first use).
 */
export const rootOnce = <T>(given: string, problem: (r: Root.Root) => string | undefined, make: (r: Root.Root) => T): (() => E.Either<Fault.Fault, T | undefined>) => {
  let target: E.Either<Fault.Fault, T | undefined> | undefined
  return () => {
    if (target !== undefined) return target
    if (given === '/') return (target = E.right(undefined))
    const r = Root.make(given)
    if (E.isLeft(r)) return (target = E.left(Fault.make('Failed', 'package', 'root', given, Invalid.message(r.left))))
    const unsafe = problem(r.right)
    return (target = unsafe !== undefined ? E.left(Fault.make('Failed', 'package', 'root', given, unsafe)) : E.right(make(r.right)))
  }
}

/** The private directories made so far, removed by one exit listener (one each made Node warn past ten). */
const privateDirs: string[] = []

/** A configuration file of `text` in a private temporary directory, removed when the process exits. */
export const privateFile = (prefix: string, name: string, text: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  if (privateDirs.length === 0) process.once('exit', () => privateDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))
  privateDirs.push(dir)
  const file = path.join(dir, name)
  fs.writeFileSync(file, text, { mode: 0o600 })
  return file
}

/** One of a manager's commands: what it runs, and the operation and subject a fault of it names. */
export interface Query {
  readonly command: Command
  readonly op: string
  readonly subject: string
}

/** How one command ended, or the fault of it. */
type Ran = Awaited<ReturnType<Processes.Processes['run']>>

/** A manager's commands, each with `env` plus the command's own environment and no input, under the manager's lock. */
export interface Runner {
  /** Runs one command, once the commands before it have ended. */
  (c: Command, op: string, subject: string): Promise<Ran>
  /**
   * Runs queries that only read (what is installed, what is offered) side by side, in one turn of
   * the lock: each starts at once, no install or removal runs while any of them does, and their
   * results come in the order given. A status waits for its slowest query instead of their sum.
   */
  readonly together: <Q extends ReadonlyArray<Query>>(queries: readonly [...Q]) => Promise<{ readonly [K in keyof Q]: Ran }>
}

/** The runner of a manager's commands (see Runner). */
export const runner = (processes: Processes.Processes, env: Readonly<Record<string, string>>, serially: ReturnType<typeof serializer>): Runner => {
  const start = (c: Command, op: string, subject: string): Promise<Ran> => {
    const all: Record<string, string> = { ...env }
    for (const e of c.environment) all[e.slice(0, e.indexOf('='))] = e.slice(e.indexOf('=') + 1)
    return processes.run({ file: c.argv[0]!, args: c.argv.slice(1), env: all, input: '', timeoutMs: c.timeoutMs, subject, op, module: 'package' })
  }
  const one = (c: Command, op: string, subject: string): Promise<Ran> => serially(() => start(c, op, subject))
  const together = <Q extends ReadonlyArray<Query>>(queries: readonly [...Q]): Promise<{ readonly [K in keyof Q]: Ran }> =>
    serially(() => Promise.all(queries.map((q) => start(q.command, q.op, q.subject)))) as Promise<{ readonly [K in keyof Q]: Ran }>
  return Object.assign(one, { together })
}

/** A fault for a tool's output that does not read as the format it should have. */
export const unreadable = (op: string, subject: string, e: Invalid.Invalid): E.Either<Fault.Fault, never> => E.left(Fault.make('ProtocolViolation', 'package', op, subject, Invalid.message(e)))
