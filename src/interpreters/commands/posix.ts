// posix commands: runs a command as a process of this host. With a confining root, its working
// directory is mapped below the root and PLAIT_ROOT_DIR tells it where the root is; the command
// itself is not confined (plait does not chroot).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Runner from '../Runner.js'
import * as Processes from '../process.js'

/** The environment a command gets: this process's, the resource's PATH, its additions, and PLAIT_ROOT_DIR when confined. */
export const environmentOf = (host: Readonly<Record<string, string | undefined>>, c: Runner.Command, root: string): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(host)) if (v !== undefined) env[k] = v
  if (c.path !== undefined) env['PATH'] = c.path
  for (const entry of c.environment) {
    const eq = entry.indexOf('=')
    env[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  if (root !== '/') env['PLAIT_ROOT_DIR'] = root
  return env
}

/** A runner of real processes; `root` is the host directory machine paths live below ("/" for none). */
export const make = (o: { readonly root: string; readonly env?: Readonly<Record<string, string | undefined>>; readonly processes?: Processes.Processes }): Runner.Runner => ({
  run: async (c) => {
    const program = c.argv[0]
    if (program === undefined) return E.left(Fault.make('Failed', 'exec', 'run', '', 'no command specified'))
    const cwd = c.cwd === undefined ? o.root : o.root === '/' ? c.cwd : o.root + c.cwd
    return (o.processes ?? Processes.real).run({ file: program, args: c.argv.slice(1), env: environmentOf(o.env ?? process.env, c, o.root), input: '', timeoutMs: c.timeoutMs, subject: program, op: 'run', cwd, module: 'exec' })
  },
})
