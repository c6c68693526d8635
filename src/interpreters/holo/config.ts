// config: reads a root's Holo configuration and asks each plugin it names for `info`, as Holo 3
// does: etc/holorc.d/* (every entry but directories, sorted) then etc/holorc (which must exist);
// a plugin whose binary does not exist is skipped with an error and a warning (so that plugins
// can be uninstalled); `info` runs with the operation environment; then every plugin's resource
// directory ($HOLO_ROOT_DIR/usr/share/holo/ID) must be a directory.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Errno from '../Errno.js'
import * as GoErrors from './goErrors.js'
import * as Host from './Host.js'
import * as Holorc from './protocol/Holorc.js'
import * as Info from './protocol/Info.js'
import * as Spawn from './spawn.js'

// model

/** A plugin that answered info, before its run directories are known. */
export interface Found {
  readonly id: string
  readonly binary: string
  readonly info: Info.Info
}

export interface Context {
  readonly root: string
  readonly cwd: string
  readonly timeoutMs: number
  /** The environment of an operation of a plugin (info runs with it too). */
  readonly envOf: (id: string) => Readonly<Record<string, string>>
}

// constructors

/** The configured plugins that answered `info`, with what was said on the way; or the fault that stops Holo. */
export const read = async (ctx: Context): Promise<E.Either<Fault.Fault, { readonly plugins: ReadonlyArray<Found>; readonly notes: ReadonlyArray<Host.Note> }>> => {
  const fault = (description: string, cause?: unknown): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'holo', 'configure', ctx.root, description, cause))
  const host = (p: string): string => nodePath.resolve(ctx.cwd, p)
  const dir = PosixPath.normalize(`${ctx.root}/etc/holorc.d`)
  const paths: string[] = []
  try {
    const entries = await fs.readdir(host(dir), { withFileTypes: true })
    for (const name of entries.filter((d) => !d.isDirectory()).map((d) => d.name).sort(Holorc.compareNames)) paths.push(PosixPath.normalize(`${dir}/${name}`))
  } catch (e) {
    if (Errno.codeOf(e) !== 'ENOENT') return fault(`cannot read ${dir}: ${GoErrors.describe('open', dir, e)}`, e)
  }
  paths.push(PosixPath.normalize(`${ctx.root}/etc/holorc`))
  const files: Holorc.File[] = []
  for (const path of paths) {
    try {
      const h = await fs.open(host(path), 'r')
      try {
        const buf = Buffer.alloc(Holorc.maxFile + 1)
        const { bytesRead } = await h.read(buf, 0, buf.length, 0)
        files.push({ path, text: buf.subarray(0, bytesRead).toString('utf8') })
      } finally {
        await h.close()
      }
    } catch (e) {
      return fault(`cannot read ${path}: ${GoErrors.describe('open', path, e)}`, e)
    }
  }
  const entries = Holorc.parse(ctx.root, files)
  if (E.isLeft(entries)) return fault(entries.left.join('\n'))

  const notes: Host.Note[] = []
  const plugins: Found[] = []
  for (const entry of entries.right) {
    try {
      await fs.stat(host(entry.binary))
    } catch (e) {
      if (Errno.codeOf(e) !== 'ENOENT') return fault(`plugin ${entry.id} (${entry.at}): ${GoErrors.describe('stat', entry.binary, e)}`, e)
      notes.push({ level: 'error', subject: entry.id, text: `${entry.binary}: file not found` })
      notes.push({ level: 'warning', subject: entry.id, text: `Skipping plugin: ${entry.explicit ? `${entry.id}=${entry.binary}` : entry.id}` })
      continue
    }
    const ran = await Spawn.run({ file: host(entry.binary), args: ['info'], env: ctx.envOf(entry.id), cwd: ctx.cwd, timeoutMs: ctx.timeoutMs, op: 'info', subject: entry.id, maxOutput: Info.maxOutput, maxFd3: 0 })
    if (E.isLeft(ran)) return E.left(Fault.make(ran.left._tag, 'holo', 'info', entry.id, `plugin ${entry.id} (${entry.binary}): ${ran.left.description}`, ran.left.cause))
    const stderr = ran.right.output.chunks.filter((c) => c.fd === 2).map((c) => c.text).join('')
    if (stderr !== '') notes.push({ level: 'stderr', subject: entry.id, text: stderr })
    if (ran.right.code !== 0) {
      const how = ran.right.signal !== undefined ? `was killed by ${ran.right.signal}` : `exited with status ${ran.right.code}`
      return E.left(Fault.make('Failed', 'holo', 'info', entry.id, `plugin ${entry.id} (${entry.binary}): info ${how}`, ran.right.output))
    }
    const info = Info.parse(entry.id, ran.right.output.chunks.filter((c) => c.fd === 1).map((c) => c.text).join(''), Host.apiVersion)
    if (E.isLeft(info)) return E.left(Fault.make('ProtocolViolation', 'holo', 'info', entry.id, info.left, ran.right.output))
    plugins.push({ id: entry.id, binary: entry.binary, info: info.right })
  }

  const missing: string[] = []
  for (const p of plugins) {
    const dir = PosixPath.normalize(`${ctx.root}/usr/share/holo/${p.id}`)
    try {
      if (!(await fs.stat(host(dir))).isDirectory()) missing.push(`cannot open ${dir}: not a directory!`)
    } catch (e) {
      missing.push(`cannot open ${dir}: ${GoErrors.describe('stat', dir, e)}`)
    }
  }
  if (missing.length > 0) return fault(missing.join('\n'))
  return E.right({ plugins, notes })
}
