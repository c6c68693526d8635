// apt: the package Manager over apt-get, apt-cache and dpkg-query, run through the process runtime
// (argv, never a shell; a complete environment; a timeout that kills the process group). One of
// them runs at a time (the run's package lock). A run's states are one `dpkg-query -W` and one
// `apt-cache policy` for all its packages. With a machine root other than `/` every command acts
// below it (AptRoot: an APT_CONFIG file written in a private temp directory, dpkg's --root and
// --log) and never on the host. apt is suitable when apt-get, apt-cache and dpkg-query are found.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../../core/Command.js'
import * as Fault from '../../core/Fault.js'
import * as AptPolicy from '../../types/package/AptPolicy.js'
import * as AptRoot from '../../types/package/AptRoot.js'
import * as Commands from '../../types/package/Commands.js'
import * as DpkgStatus from '../../types/package/DpkgStatus.js'
import * as Invalid from '../../types/package/Invalid.js'
import * as Observed from '../../types/package/Observed.js'
import * as Root from '../../types/package/Root.js'
import * as Processes from '../process.js'
import { notSuitable, type Manager, type Operation } from './Manager.js'

/** How long a status query may take, and an install or removal (downloads included). */
export const statusTimeoutMs = 120_000
export const actTimeoutMs = 1_800_000

export interface Options {
  /** The machine's root: `/` is the host, any other directory confines every command below it. */
  readonly root: string
  readonly processes?: Processes.Processes
  /** The PATH the tools are found on and run with (default: this process's, with the sbin directories dpkg needs). */
  readonly path?: string
}

/** The programs apt needs. */
export const programs = ['apt-get', 'apt-cache', 'dpkg-query'] as const

const found = (program: string, searchPath: string): boolean =>
  searchPath.split(':').some((dir) => {
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK)
      return true
    } catch {
      return false
    }
  })

/** The last lines a failing tool printed, `E:` lines first (apt's errors). */
const tail = (stderr: string, stdout: string): string => {
  const lines = `${stderr}\n${stdout}`.split('\n').filter((l) => l.trim() !== '')
  const errors = lines.filter((l) => l.startsWith('E: ') || l.startsWith('dpkg: error'))
  const shown = (errors.length > 0 ? errors : lines).slice(-3).join(' / ').slice(0, 400)
  return shown === '' ? 'it printed nothing' : shown
}

/** The package Manager over apt. */
export const make = (o: Options): Manager => {
  const processes = o.processes ?? Processes.real
  const given = o.path ?? process.env['PATH'] ?? '/usr/bin:/bin'
  const searchPath = [given, ...['/usr/local/sbin', '/usr/sbin', '/sbin'].filter((d) => !given.split(':').includes(d))].join(':')
  // The package lock: each command waits for the one before it.
  let lock: Promise<unknown> = Promise.resolve()
  const serially = <A>(f: () => Promise<A>): Promise<A> => {
    const next = lock.then(f, f)
    lock = next.catch(() => undefined)
    return next
  }
  let target: E.Either<Fault.Fault, AptRoot.AptRoot | undefined> | undefined
  /** The root apt acts below (undefined: the host), its APT_CONFIG file written on first use. */
  const rootOf = (): E.Either<Fault.Fault, AptRoot.AptRoot | undefined> => {
    if (target !== undefined) return target
    if (o.root === '/') return (target = E.right(undefined))
    const r = Root.make(o.root)
    if (E.isLeft(r)) return (target = E.left(Fault.make('Failed', 'package', 'root', o.root, Invalid.message(r.left))))
    const unsafe = AptRoot.problem(r.right)
    if (unsafe !== undefined) return (target = E.left(Fault.make('Failed', 'package', 'root', o.root, unsafe)))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-apt-'))
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
    const configFile = path.join(dir, 'apt.conf')
    fs.writeFileSync(configFile, AptRoot.configText(r.right), { mode: 0o600 })
    return (target = E.right({ root: r.right, configFile }))
  }
  const suitable = (op: string): Fault.Fault | undefined => (programs.every((p) => found(p, searchPath)) ? undefined : Fault.make('NotFound', 'package', op, 'apt', notSuitable))
  const run = (c: Command, op: string, subject: string) => {
    const env: Record<string, string> = { PATH: searchPath, LC_ALL: 'C' }
    for (const e of c.environment) env[e.slice(0, e.indexOf('='))] = e.slice(e.indexOf('=') + 1)
    return serially(() => processes.run({ file: c.argv[0]!, args: c.argv.slice(1), env, input: '', timeoutMs: c.timeoutMs, subject, op, module: 'package' }))
  }
  const unreadable = (op: string, subject: string, e: Invalid.Invalid) => E.left(Fault.make('ProtocolViolation', 'package', op, subject, Invalid.message(e)))
  return {
    status: async (names) => {
      const [first, ...rest] = names
      if (first === undefined) return E.right([])
      const all = names.join(' ')
      const bad = suitable('status')
      if (bad !== undefined) return E.left(bad)
      const t = rootOf()
      if (E.isLeft(t)) return t
      const dpkg = await run(DpkgStatus.query([first, ...rest], t.right?.root, statusTimeoutMs), 'dpkg-query', all)
      if (E.isLeft(dpkg)) return dpkg
      const statuses = DpkgStatus.parse(names, dpkg.right)
      if (E.isLeft(statuses)) return unreadable('dpkg-query', all, statuses.left)
      const policy = await run(AptPolicy.query([first, ...rest], t.right, statusTimeoutMs), 'apt-cache policy', all)
      if (E.isLeft(policy)) return policy
      const policies = AptPolicy.parse(policy.right)
      if (E.isLeft(policies)) return unreadable('apt-cache policy', all, policies.left)
      let arch: string | undefined
      if (names.some((n) => n.includes(':'))) {
        const a = await run({ argv: ['dpkg', ...(t.right === undefined ? [] : [`--root=${t.right.root.path}`]), '--print-architecture'], environment: [], timeoutMs: statusTimeoutMs }, 'dpkg', 'architecture')
        if (E.isLeft(a)) return a
        arch = a.right.stdout.trim()
      }
      return E.right(names.map((n) => Observed.ofApt(statuses.right.get(n)!, AptPolicy.lookup(policies.right, n, arch))))
    },
    act: async (op: Operation) => {
      const verb = op._tag === 'Remove' ? 'remove' : 'install'
      const bad = suitable(verb)
      if (bad !== undefined) return E.left(bad)
      const t = rootOf()
      if (E.isLeft(t)) return t
      const c = op._tag === 'Remove' ? Commands.aptRemove(op.name, t.right, actTimeoutMs) : Commands.aptInstall(op.name, op.target, t.right, actTimeoutMs)
      const r = await run(c, verb, op.name)
      if (E.isLeft(r)) return r
      if (r.right.exitCode === 0) return E.right(undefined)
      const ended = r.right.exitCode === undefined ? `was ended by signal ${r.right.signal ?? 'unknown'}` : `exited ${r.right.exitCode}`
      return E.left(Fault.make('Failed', 'package', verb, op.name, `apt-get ${verb} ${ended}: ${tail(r.right.stderr, r.right.stdout)}`))
    },
  }
}
