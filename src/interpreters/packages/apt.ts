// apt: the package Manager over apt-get, apt-cache and dpkg-query, run through the process runtime
// (argv, never a shell; a complete environment; a timeout that kills the process group). Installs
// and removals run one at a time (the run's package lock). A run's states are one `dpkg-query -W`
// and one `apt-cache policy` for all its packages, side by side in one turn of the lock (both only
// read: the status waits for the slower of the two, not for their sum). With a machine root other
// than `/` every command acts below it (AptRoot: an APT_CONFIG file written in a private temp
// directory, dpkg's --root and --log) and never on the host. apt is suitable when apt-get,
// apt-cache and dpkg-query are found.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as AptPolicy from '../../types/package/AptPolicy.js'
import * as AptRoot from '../../types/package/AptRoot.js'
import * as Commands from '../../types/package/Commands.js'
import * as DpkgStatus from '../../types/package/DpkgStatus.js'
import * as Observed from '../../types/package/Observed.js'
import * as Processes from '../process.js'
import { aptNotSuitable, type Manager, type Operation } from './Manager.js'
import * as Tools from './tools.js'
import { actTimeoutMs, statusTimeoutMs, type Options } from './tools.js'

// The timeouts and options every package manager shares.
export { actTimeoutMs, statusTimeoutMs, type Options }

/** The programs apt needs. */
export const programs = ['apt-get', 'apt-cache', 'dpkg-query'] as const

/** Whether apt can run with this PATH. */
export const suitable = (searchPath: string): boolean => programs.every((p) => Tools.found(p, searchPath))

/** The last lines a failing tool printed, `E:` lines first (apt's errors). */
const tail = (stderr: string, stdout: string): string => Tools.tail(stderr, stdout, (l) => l.startsWith('E: ') || l.startsWith('dpkg: error'))

/** The package Manager over apt. */
export const make = (o: Options): Manager => {
  const processes = o.processes ?? Processes.real
  const given = o.path ?? process.env['PATH'] ?? '/usr/bin:/bin'
  const searchPath = Tools.searchPath(given)
  /** The root apt acts below (undefined: the host), its APT_CONFIG file written on first use. */
  const rootOf = Tools.rootOnce(o.root, AptRoot.problem, (root): AptRoot.AptRoot => ({ root, configFile: Tools.privateFile('plait-apt-', 'apt.conf', AptRoot.configText(root)) }))
  const unsuitable = (op: string): Fault.Fault | undefined => (suitable(searchPath) ? undefined : Fault.make('NotFound', 'package', op, 'apt', aptNotSuitable))
  const run = Tools.runner(processes, { PATH: searchPath, LC_ALL: 'C' }, Tools.serializer())
  const unreadable = Tools.unreadable
  return {
    status: async (names) => {
      const [first, ...rest] = names
      if (first === undefined) return E.right([])
      const all = names.join(' ')
      const bad = unsuitable('status')
      if (bad !== undefined) return E.left(bad)
      const t = rootOf()
      if (E.isLeft(t)) return t
      // the queries only read: they run side by side (a name with an architecture needs dpkg's own too)
      const arch = { command: { argv: ['dpkg', ...(t.right === undefined ? [] : [`--root=${t.right.root.path}`]), '--print-architecture'], environment: [], timeoutMs: statusTimeoutMs }, op: 'dpkg', subject: 'architecture' }
      const [dpkg, policy, a] = await run.together([
        { command: DpkgStatus.query([first, ...rest], t.right?.root, statusTimeoutMs), op: 'dpkg-query', subject: all },
        { command: AptPolicy.query([first, ...rest], t.right, statusTimeoutMs), op: 'apt-cache policy', subject: all },
        ...(names.some((n) => n.includes(':')) ? [arch] : []),
      ])
      if (E.isLeft(dpkg)) return dpkg
      const statuses = DpkgStatus.parse(names, dpkg.right)
      if (E.isLeft(statuses)) return unreadable('dpkg-query', all, statuses.left)
      if (E.isLeft(policy)) return policy
      const policies = AptPolicy.parse(policy.right)
      if (E.isLeft(policies)) return unreadable('apt-cache policy', all, policies.left)
      if (a !== undefined && E.isLeft(a)) return a
      const architecture = a?.right.stdout.trim()
      return E.right(names.map((n) => Observed.ofApt(statuses.right.get(n)!, AptPolicy.lookup(policies.right, n, architecture))))
    },
    act: async (op: Operation) => {
      const verb = op._tag === 'Remove' ? 'remove' : 'install'
      const bad = unsuitable(verb)
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
