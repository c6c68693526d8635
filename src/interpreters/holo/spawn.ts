// spawn: runs one Holo plugin operation. Like ../spawn.ts (which other callers keep), but with
// what Holo's protocol needs: stdin is /dev/null, stdout and stderr are kept as chunks in the
// order they came (Holo passes them on interleaved), fd 3 is a pipe read to its end, output is
// bounded, and a timeout kills the whole process group. No shell: the binary runs directly.
import { spawn as start, type ChildProcess } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Groups from '../groups.js'
import * as Errno from '../Errno.js'
import { after, formatDuration } from '../timer.js'
import * as Output from './protocol/Output.js'

// model

export interface Options {
  readonly file: string
  readonly args: ReadonlyArray<string>
  /** The complete environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
  readonly timeoutMs: number
  /** The fault's op and subject (`apply`, `files file:/etc/foo.conf`). */
  readonly op: string
  readonly subject: string
  /** The most stdout and stderr together may hold (bytes). */
  readonly maxOutput: number
  /** The most fd 3 may hold (bytes). */
  readonly maxFd3: number
}

/** How the process ended. */
export interface Exit {
  /** The exit status, or undefined when a signal ended it. */
  readonly code?: number
  readonly signal?: string
  readonly output: Output.Output
  /** What it wrote on fd 3 (UTF-8). */
  readonly fd3: string
}

/** How long the pipes are still read after the process exited (a daemon it left may hold them). */
export const drainMs = 200

/** Kills every process still running, Holo plugins among them, with its process group (a command that handles SIGINT or SIGTERM calls it: a detached process does not get the terminal's signals). */
export const killRunning = Groups.killRunning

// constructors

/** Runs the plugin to its end, or kills its process group at the timeout; a fault of a process that ran carries its output as cause. */
export const run = (o: Options): Promise<E.Either<Fault.Fault, Exit>> => {
  const fault = (tag: Fault.Tag, description: string, cause?: unknown): E.Either<Fault.Fault, never> => E.left(Fault.make(tag, 'holo', o.op, o.subject, description, cause))
  const nul = [o.file, ...o.args, o.cwd, ...Object.entries(o.env).flat()].some((s) => s.includes('\0'))
  if (nul) return Promise.resolve(fault('Failed', 'could not start: a NUL byte in the program, its arguments or its environment'))
  let child: ChildProcess
  try {
    child = start(o.file, [...o.args], { detached: true, env: { ...o.env }, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
  } catch (e) {
    return Promise.resolve(fault('Failed', `could not start ${o.file}: ${(e as Error).message}`, e))
  }
  return new Promise((resolve) => {
    const chunks: { fd: 1 | 2; data: Buffer }[] = []
    const fd3: Buffer[] = []
    let size = 0
    let size3 = 0
    let overflow: string | undefined
    let timedOut = false
    let settled = false
    let drain: NodeJS.Timeout | undefined
    const pid = child.pid
    const forget = Groups.track(pid)
    const output = (): Output.Output => Output.make(merge(chunks))
    const finish = (r: E.Either<Fault.Fault, Exit>): void => {
      if (settled) return
      settled = true
      cancelTimer()
      if (drain !== undefined) clearTimeout(drain)
      forget()
      for (const s of [child.stdout, child.stderr, child.stdio[3]]) (s as { destroy?: () => void } | null)?.destroy?.()
      resolve(r)
    }
    const stop = (why: string): void => {
      if (overflow !== undefined) return
      overflow = why
      Groups.killGroup(pid)
    }
    child.stdout!.on('data', (d: Buffer) => {
      if (overflow !== undefined) return
      size += d.length
      if (size > o.maxOutput) return stop(`printed more than ${o.maxOutput} bytes on stdout and stderr`)
      chunks.push({ fd: 1, data: d })
    })
    child.stderr!.on('data', (d: Buffer) => {
      if (overflow !== undefined) return
      size += d.length
      if (size > o.maxOutput) return stop(`printed more than ${o.maxOutput} bytes on stdout and stderr`)
      chunks.push({ fd: 2, data: d })
    })
    const three = child.stdio[3] as NodeJS.ReadableStream | null
    three?.on('data', (d: Buffer) => {
      if (overflow !== undefined) return
      size3 += d.length
      if (size3 > o.maxFd3) return stop(`wrote more than ${o.maxFd3} bytes on fd 3`)
      fd3.push(d)
    })
    for (const s of [child.stdout, child.stderr, three]) s?.on('error', () => undefined)

    child.once('error', (e: NodeJS.ErrnoException) => {
      if (pid !== undefined && child.exitCode === null && child.signalCode === null) return
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'not executable (permission denied)' : e.message
      finish(fault(Errno.tag(e.code), `could not start ${o.file}: ${why}`, e.code))
    })

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let open = 2 + (three === null ? 0 : 1)
    const report = (): void => {
      if (exit === undefined) return
      if (timedOut) return finish(fault('TimedOut', `ran longer than ${formatDuration(o.timeoutMs)} and was killed with its process group`, output()))
      if (overflow !== undefined) return finish(fault('ProtocolViolation', `${overflow}, and was killed with its process group`, output()))
      finish(E.right({ ...(exit.code !== null ? { code: exit.code } : {}), ...(exit.signal !== null ? { signal: exit.signal } : {}), output: output(), fd3: Buffer.concat(fd3).toString('utf8') }))
    }
    for (const s of [child.stdout!, child.stderr!, ...(three === null ? [] : [three])])
      s.once('close', () => {
        open -= 1
        if (open === 0) report()
      })
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      if (open === 0) return report()
      drain = setTimeout(report, drainMs)
    })
    const cancelTimer = after(o.timeoutMs, () => {
      timedOut = true
      Groups.killGroup(pid)
    })
  })
}

// internals

/** Joins adjacent chunks of one descriptor, then decodes them (so that no UTF-8 sequence is cut between reads). */
const merge = (chunks: ReadonlyArray<{ fd: 1 | 2; data: Buffer }>): Output.Chunk[] => {
  const out: { fd: 1 | 2; data: Buffer[] }[] = []
  for (const c of chunks) {
    const last = out[out.length - 1]
    if (last !== undefined && last.fd === c.fd) last.data.push(c.data)
    else out.push({ fd: c.fd, data: [c.data] })
  }
  return out.map((c) => ({ fd: c.fd, text: Buffer.concat(c.data).toString('utf8') }))
}

