// dnf: the package Manager over rpm and dnf, run through the process runtime (argv, never a
// shell; a complete environment; a timeout that kills the process group). Installs and removals
// run one at a time (the run's package lock). A run's states are one `rpm -q` (installed NEVRAs)
// and one `dnf repoquery --available --latest-limit 1` (the newest each could go to) for all its
// packages, side by side in one turn of the lock (both only read). With a machine root other than
// `/` every command acts below it (DnfRoot: dnf's --installroot with the root's repositories and
// configuration only, rpm's --root) and never on the host. dnf is suitable when dnf and rpm are
// found.
//
// Debian's rpm (and the dnf over it) finds its database with the macro `%(bash -c 'echo
// ~/.rpmdb')`: both run with the same HOME (this process's, else the user's), and with SHLVL=1,
// without which that bash, its stdin being the runtime's socket, reads ~/.bashrc as if started by
// a remote shell daemon (its output on stderr would be read as rpm's error).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as E from 'fp-ts/lib/Either.js'
import type { Command } from '../../core/Command.js'
import * as Fault from '../../core/Fault.js'
import * as Commands from '../../types/package/Commands.js'
import * as DnfRoot from '../../types/package/DnfRoot.js'
import * as Invalid from '../../types/package/Invalid.js'
import * as Name from '../../types/package/Name.js'
import * as Observed from '../../types/package/Observed.js'
import * as Root from '../../types/package/Root.js'
import * as RpmQuery from '../../types/package/RpmQuery.js'
import * as RpmVersion from '../../types/package/RpmVersion.js'
import * as Processes from '../process.js'
import { dnfNotSuitable, type Manager, type Operation } from './Manager.js'
import * as Tools from './tools.js'
import { actTimeoutMs, statusTimeoutMs, type Options } from './tools.js'

// The timeouts and options every package manager shares.
export { actTimeoutMs, statusTimeoutMs, type Options }

/** The programs dnf needs. */
export const programs = ['dnf', 'rpm'] as const

/** Whether dnf can run with this PATH. */
export const suitable = (searchPath: string): boolean => programs.every((p) => Tools.found(p, searchPath))

/** The last lines a failing dnf printed, its `Error:` and `No match` lines first. */
const tail = (stderr: string, stdout: string): string => Tools.tail(stderr, stdout, (l) => l.startsWith('Error: ') || l.startsWith('No match for argument'))

/** The dnf command of an operation: install, upgrade (to the newest, of an installed package), downgrade (an exact version below the one installed at plan time), remove. */
export const command = (op: Operation, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): E.Either<Invalid.Invalid, Command> => {
  if (op._tag === 'Remove') return Commands.dnfCommand('remove', op.name, undefined, root, timeoutMs)
  const t = op.target
  if (t._tag === 'Newest') return Commands.dnfCommand(op.from === undefined ? 'install' : 'upgrade', op.name, undefined, root, timeoutMs)
  if (t._tag === 'Exact' && op.from !== undefined) {
    const o = RpmVersion.compareWantedText(op.from, t.version)
    if (E.isLeft(o)) return o
    if (o.right > 0) return Commands.dnfCommand('downgrade', op.name, t.version, root, timeoutMs)
  }
  return Commands.dnfCommand('install', op.name, t.version, root, timeoutMs)
}

/** The package Manager over rpm and dnf. */
export const make = (o: Options): Manager => {
  const processes = o.processes ?? Processes.real
  const searchPath = Tools.searchPath(o.path ?? process.env['PATH'] ?? '/usr/bin:/bin')
  const home = process.env['HOME'] ?? os.userInfo().homedir
  /** The root dnf acts below (undefined: the host), with the dnf.conf it reads (an empty one written on first use when the root has none). */
  const rootOf = Tools.rootOnce(o.root, DnfRoot.problem, (root): DnfRoot.DnfRoot => {
    const own = Root.below(root, DnfRoot.ownConfig)
    return { root, configFile: fs.existsSync(own) ? own : Tools.privateFile('plait-dnf-', 'dnf.conf', DnfRoot.emptyConfig) }
  })
  const unsuitable = (op: string): Fault.Fault | undefined => (suitable(searchPath) ? undefined : Fault.make('NotFound', 'package', op, 'dnf', dnfNotSuitable))
  const run = Tools.runner(processes, { PATH: searchPath, LC_ALL: 'C', HOME: home, SHLVL: '1' }, Tools.serializer())
  const unreadable = Tools.unreadable
  return {
    status: async (names) => {
      const [first, ...rest] = names
      if (first === undefined) return E.right([])
      const all = names.join(' ')
      const bad = unsuitable('status')
      if (bad !== undefined) return E.left(bad)
      for (const n of names) {
        const checked = Name.checkDnf(n)
        if (E.isLeft(checked)) return E.left(Fault.make('Failed', 'package', 'status', n, `${Invalid.message(checked.left)}: dnf cannot be asked of it`))
      }
      const t = rootOf()
      if (E.isLeft(t)) return t
      // the queries only read: they run side by side
      const [rpm, repo] = await run.together([
        { command: RpmQuery.query([first, ...rest], t.right, statusTimeoutMs), op: 'rpm -q', subject: all },
        { command: RpmQuery.available([first, ...rest], t.right, statusTimeoutMs), op: 'dnf repoquery', subject: all },
      ])
      if (E.isLeft(rpm)) return rpm
      const statuses = RpmQuery.parse(names, rpm.right)
      if (E.isLeft(statuses)) return unreadable('rpm -q', all, statuses.left)
      if (E.isLeft(repo)) return repo
      const available = RpmQuery.parseAvailable(names, repo.right)
      if (E.isLeft(available)) return unreadable('dnf repoquery', all, available.left)
      return E.right(names.map((n) => Observed.ofRpm(statuses.right.get(n)!, available.right.get(n))))
    },
    act: async (op: Operation) => {
      const verb = op._tag === 'Remove' ? 'remove' : 'install'
      const bad = unsuitable(verb)
      if (bad !== undefined) return E.left(bad)
      const checked = Name.checkDnf(op.name)
      if (E.isLeft(checked)) return E.left(Fault.make('Failed', 'package', verb, op.name, Invalid.message(checked.left)))
      const t = rootOf()
      if (E.isLeft(t)) return t
      const c = command(op, t.right, actTimeoutMs)
      if (E.isLeft(c)) return E.left(Fault.make('Failed', 'package', verb, op.name, Invalid.message(c.left)))
      const ran = c.right.argv[1]!
      const r = await run(c.right, verb, op.name)
      if (E.isLeft(r)) return r
      if (r.right.exitCode === 0) return E.right(undefined)
      const ended = r.right.exitCode === undefined ? `was ended by signal ${r.right.signal ?? 'unknown'}` : `exited ${r.right.exitCode}`
      return E.left(Fault.make('Failed', 'package', verb, op.name, `dnf ${ran} ${ended}: ${tail(r.right.stderr, r.right.stdout)}`))
    },
  }
}
