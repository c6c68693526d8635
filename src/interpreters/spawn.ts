// spawn: the one place that starts processes (libral providers, exec commands and guards) with
// execa (`reject: false`), and turns what happened into a typed outcome: the exit (status, signal,
// stdout, stderr, duration) or a Fault for a process that could not start or ran past its timeout.
//
// Each process runs detached, as the leader of its own process group, so that a timeout kills the
// whole group (`kill(-pid)`), including what it started and left running.
import { execa } from 'execa'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import * as Errno from './Errno.js'
import type * as Runner from './Runner.js'

// model

/** How a process ended (the runner interface's Exit: the exit status, or the signal, and what it printed). */
export type Exit = Runner.Exit

export interface Options {
  readonly args: ReadonlyArray<string>
  /** The complete environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>
  /** What stdin holds; it is closed after it. */
  readonly input: string
  readonly timeoutMs: number
  /** What the fault names as its subject (`host::etc_hosts (/path/etc_hosts.prov)`). */
  readonly subject: string
  /** What the fault names as its operation (the action). */
  readonly op: string
  /** The working directory (a host path; default "/"). */
  readonly cwd?: string
  /** The module a fault names (default "libral"). */
  readonly module?: string
}

/** The most a provider may print on stdout or stderr (bytes). */
export const maxBuffer = 64 * 1024 * 1024

/** Process groups of the providers running now. */
const running = new Set<number>()
let exitHook = false

/**
 * Kills every provider still running, with its process group. Runs when this process exits; a
 * command that handles SIGINT or SIGTERM should call it too (a detached provider does not get the
 * terminal's signals).
 */
export const killRunning = (): void => {
  for (const pid of running) killGroup(pid)
  running.clear()
}

// constructors

/** Runs a program to completion, or kills its process group at the timeout. */
export const spawn = async (file: string, o: Options): Promise<E.Either<Fault.Fault, Exit>> => {
  const started = performance.now()
  const child = execa(file, [...o.args], {
    reject: false,
    detached: true,
    env: { ...o.env },
    extendEnv: false,
    input: o.input,
    cwd: o.cwd ?? '/',
    encoding: 'utf8',
    stripFinalNewline: false,
    maxBuffer,
  })
  if (child.pid !== undefined) {
    running.add(child.pid)
    if (!exitHook) {
      exitHook = true
      process.once('exit', killRunning)
    }
  }
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    killGroup(child.pid)
  }, o.timeoutMs)
  const r = await child
  clearTimeout(timer)
  if (child.pid !== undefined) running.delete(child.pid)
  const durationMs = Math.round(performance.now() - started)
  if (timedOut) {
    return E.left(Fault.make('TimedOut', o.module ?? 'libral', o.op, o.subject, `ran longer than ${formatSeconds(o.timeoutMs)} and was killed with its process group`))
  }
  if (r.failed && r.exitCode === undefined && r.signal === undefined) {
    const code = (r as { code?: string }).code
    const tag = Errno.tag(code)
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'not executable (permission denied)' : (r.shortMessage ?? r.message)
    return E.left(Fault.make(tag, o.module ?? 'libral', o.op, o.subject, `could not start: ${why}`, code))
  }
  if (r.isMaxBuffer === true) return E.left(Fault.make('ProtocolViolation', o.module ?? 'libral', o.op, o.subject, `printed more than ${maxBuffer} bytes`))
  return E.right({
    exitCode: r.exitCode,
    signal: r.signal,
    stdout: typeof r.stdout === 'string' ? r.stdout : '',
    stderr: typeof r.stderr === 'string' ? r.stderr : '',
    durationMs,
  })
}

/** Kills a process group; a group that is already gone is not an error. */
const killGroup = (pid: number | undefined): void => {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: every process of the group has exited already.
  }
}

const formatSeconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(3).replace(/0+$/, '')} s`)
