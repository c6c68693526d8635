// systemctl: the service Manager over systemd's systemctl, run through the process runtime (argv,
// never a shell; a complete environment; a timeout that kills the process group). One systemctl
// runs at a time (the run's service lock). A run's states are asked with one `systemctl show` for
// all its units; a systemctl that finds no running manager makes every service fail with "no
// suitable provider: systemd is not running", never a misread of what it printed.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Systemctl from '../../types/service/Systemctl.js'
import * as Processes from '../process.js'
import type { Manager, Unit, Verb } from './Manager.js'

/** How long a status query may take, and a start, stop or reload (systemd's own default job timeout is 90s). */
export const statusTimeoutMs = 60_000
export const actTimeoutMs = 300_000

export interface Options {
  /** The systemctl program (default: `systemctl`, found on PATH). */
  readonly binary?: string
  readonly processes?: Processes.Processes
  /** The PATH systemctl is found on and runs with (default: this process's). */
  readonly path?: string
}

/** The service Manager over systemctl. */
export const make = (o: Options = {}): Manager => {
  const binary = o.binary ?? 'systemctl'
  const processes = o.processes ?? Processes.real
  const env = { PATH: o.path ?? process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C', SYSTEMD_PAGER: 'cat', SYSTEMD_COLORS: '0' }
  // The service lock: each systemctl waits for the one before it.
  let lock: Promise<unknown> = Promise.resolve()
  const serially = <A>(f: () => Promise<A>): Promise<A> => {
    const next = lock.then(f, f)
    lock = next.catch(() => undefined)
    return next
  }
  const run = (args: ReadonlyArray<string>, op: string, subject: string, timeoutMs: number) =>
    serially(() => processes.run({ file: binary, args, env, input: '', timeoutMs, subject, op, module: 'service' }))
  /** A systemctl that did not start or did not succeed, as a Fault. */
  const fault = (op: string, subject: string, r: Awaited<ReturnType<typeof run>>): Fault.Fault | undefined => {
    if (E.isLeft(r)) return r.left._tag === 'NotFound' ? Fault.make('NotFound', 'service', op, binary, Systemctl.notInstalled) : r.left
    if (r.right.exitCode === 0) return undefined
    const why = Systemctl.failure(r.right.stderr)
    if (why._tag === 'NotRunning') return Fault.make('Failed', 'service', op, 'systemd', Systemctl.notRunning)
    const ended = r.right.exitCode === undefined ? `was ended by signal ${r.right.signal ?? 'unknown'}` : `exited ${r.right.exitCode}`
    return Fault.make('Failed', 'service', op, subject, `systemctl ${op} ${ended}: ${why.detail}`)
  }
  return {
    status: async (names) => {
      if (names.length === 0) return E.right([])
      const r = await run(['show', '--system', `--property=${Systemctl.properties.join(',')}`, '--', ...names], 'show', names.join(' '), statusTimeoutMs)
      const failed = fault('show', names.join(' '), r)
      if (failed !== undefined) return E.left(failed)
      const units = Systemctl.parseShow(E.isRight(r) ? r.right.stdout : '', names.length)
      return E.isLeft(units) ? E.left(Fault.make('ProtocolViolation', 'service', 'show', names.join(' '), units.left)) : E.right(units.right as ReadonlyArray<Unit>)
    },
    act: async (verb: Verb, name) => {
      const r = await run([verb, '--system', '--', name], verb, name, actTimeoutMs)
      const failed = fault(verb, name, r)
      return failed === undefined ? E.right(undefined) : E.left(failed)
    },
    reload: async () => {
      const r = await run(['daemon-reload', '--system'], 'daemon-reload', 'systemd', actTimeoutMs)
      const failed = fault('daemon-reload', 'systemd', r)
      return failed === undefined ? E.right(undefined) : E.left(failed)
    },
  }
}
