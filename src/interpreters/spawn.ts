// spawn: the one place that starts processes (libral providers, exec commands and guards), and
// turns what happened into a typed outcome: the exit (status, signal, stdout, stderr, duration) or
// a Fault for a process that could not start, printed too much, or ran past its timeout.
//
// Each process runs detached, as the leader of its own process group, so that a timeout kills the
// whole group (`kill(-pid)`), including what it started and left running. A process is reported
// by its own exit: when it has exited, plait waits a short drain for its pipes, then stops
// reading them even if a daemon it left behind still holds them, and neither waits for nor kills
// that daemon (a command that starts a service must be able to). Timeouts of any length are exact:
// timers longer than Node's 2^31-1 ms limit are chained.
import { spawn as start, type ChildProcess } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import * as Groups from './groups.js'
import * as Errno from './Errno.js'
import type * as Runner from './Runner.js'
import { after, formatDuration } from './timer.js'

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
  /** How many extra output descriptors it gets (fd 3, 4, ...), read like stdout (Holo plugins answer on fd 3). */
  readonly extraFds?: number
}

/** The most a provider may print on stdout or stderr (bytes). */
export const maxBuffer = 64 * 1024 * 1024

/** How long plait keeps reading a process's pipes after it exited, for output still in flight. */
export const drainMs = 200

/** Kills every process still running, with its process group (see groups.ts). */
export const killRunning = Groups.killRunning

// guards

/** Why a value cannot be passed to a process (a NUL byte ends a C string), or undefined. */
export const nulProblem = (file: string, o: Pick<Options, 'args' | 'env' | 'cwd'>): string | undefined => {
  if (file.includes('\0')) return 'the program name contains a NUL byte'
  const arg = o.args.findIndex((a) => a.includes('\0'))
  if (arg !== -1) return `argument ${arg + 1} contains a NUL byte`
  for (const [k, v] of Object.entries(o.env)) {
    if (k.includes('\0') || k.includes('=') || k === '') return `the environment variable name ${JSON.stringify(k)} is not valid`
    if (v.includes('\0')) return `the environment variable ${k} contains a NUL byte`
  }
  if (o.cwd?.includes('\0') === true) return 'the working directory contains a NUL byte'
  return undefined
}

// constructors

/** Runs a program to completion, or kills its process group at the timeout. */
export const spawn = (file: string, o: Options): Promise<E.Either<Fault.Fault, Exit>> => {
  const module = o.module ?? 'libral'
  const fault = (tag: Fault.Tag, description: string, cause?: unknown): E.Either<Fault.Fault, Exit> => E.left(Fault.make(tag, module, o.op, o.subject, description, cause))
  const bad = nulProblem(file, o)
  if (bad !== undefined) return Promise.resolve(fault('Failed', `could not start: ${bad}`))
  if (!(o.timeoutMs > 0) || !Number.isFinite(o.timeoutMs)) return Promise.resolve(fault('Failed', `could not start: the timeout ${o.timeoutMs} ms is not a positive duration`))

  const started = performance.now()
  let child: ChildProcess
  try {
    child = start(file, [...o.args], { detached: true, env: { ...o.env }, cwd: o.cwd ?? '/', stdio: ['pipe', 'pipe', 'pipe', ...Array.from({ length: o.extraFds ?? 0 }, () => 'pipe' as const)] })
  } catch (e) {
    return Promise.resolve(fault('Failed', `could not start: ${(e as Error).message}`, e))
  }

  return new Promise((resolve) => {
    const out = collector()
    const err = collector()
    let overflow = false
    let timedOut = false
    let settled = false
    let drain: NodeJS.Timeout | undefined
    const pid = child.pid
    const forget = Groups.track(pid)

    const finish = (r: E.Either<Fault.Fault, Exit>): void => {
      if (settled) return
      settled = true
      cancelTimer()
      if (drain !== undefined) clearTimeout(drain)
      forget()
      // a daemon left behind may hold the pipes: stop reading them (it gets EPIPE or SIGPIPE if it writes)
      for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy()
      for (const x of extra) (x.stream as { destroy?: () => void } | null)?.destroy?.()
      resolve(r)
    }

    const read = (c: Collector) => (chunk: Buffer) => {
      if (overflow) return
      if (!c.add(chunk)) {
        overflow = true
        Groups.killGroup(pid)
      }
    }
    child.stdout!.on('data', read(out))
    child.stderr!.on('data', read(err))
    const extra = Array.from({ length: o.extraFds ?? 0 }, (_, i) => {
      const c = collector()
      const stream = child.stdio[3 + i] as NodeJS.ReadableStream | null
      stream?.on('data', read(c))
      stream?.on('error', () => undefined)
      return { c, stream }
    })
    for (const s of [child.stdin, child.stdout, child.stderr]) s?.on('error', () => undefined) // EPIPE: the process did not read its input

    child.once('error', (e: NodeJS.ErrnoException) => {
      // the process could not be started (ENOENT, EACCES, ...): there is no exit to wait for
      if (pid !== undefined && child.exitCode === null && child.signalCode === null) return
      const code = e.code
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'not executable (permission denied)' : e.message
      finish(fault(Errno.tag(code), `could not start: ${why}`, code))
    })

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let streamsOpen = 2 + extra.filter((x) => x.stream !== null).length
    const report = (): void => {
      if (exit === undefined) return
      const durationMs = Math.round(performance.now() - started)
      if (timedOut) return finish(fault('TimedOut', `ran longer than ${formatDuration(o.timeoutMs)} and was killed with its process group`))
      if (overflow) return finish(fault('ProtocolViolation', `printed more than ${maxBuffer} bytes`))
      finish(E.right({ exitCode: exit.code ?? undefined, signal: exit.signal ?? undefined, stdout: out.text(), stderr: err.text(), ...(extra.length > 0 ? { fds: extra.map((x) => x.c.text()) } : {}), durationMs }))
    }
    for (const s of [child.stdout!, child.stderr!, ...extra.flatMap((x) => (x.stream === null ? [] : [x.stream]))])
      s.once('close', () => {
        streamsOpen -= 1
        if (streamsOpen === 0) report()
      })
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      if (!timedOut) cancelTimer()
      if (streamsOpen === 0) return report()
      drain = setTimeout(report, drainMs)
    })

    const cancelTimer = after(o.timeoutMs, () => {
      timedOut = true
      Groups.killGroup(pid)
    })

    child.stdin!.end(o.input)
  })
}

// internals

interface Collector {
  /** Keeps a chunk; false once more than maxBuffer bytes came. */
  readonly add: (chunk: Buffer) => boolean
  /** What came, decoded as UTF-8. */
  readonly text: () => string
}

const collector = (): Collector => {
  const chunks: Buffer[] = []
  let size = 0
  return {
    add: (chunk) => {
      size += chunk.length
      if (size > maxBuffer) return false
      chunks.push(chunk)
      return true
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  }
}

/** Kills a process group; a group that is already gone is not an error. */

export { formatDuration }
