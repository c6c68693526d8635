// runtime: the real Holo host (see Host.ts). It opens a root as Holo 3 does: the cache directory
// first, then the configuration and `info` (config.ts), the plugins' state and cache directories,
// then the generators and the virtual resource directory (resources.ts). Its operations run the
// plugins through spawn.ts (no shell, stdin empty, fd 3 a pipe, bounded output, a timeout that
// kills the process group) with the environment of env.ts, and read their answers with the pure
// protocol modules.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Config from './config.js'
import * as Env from './env.js'
import * as GitDiff from './gitDiff.js'
import * as Host from './Host.js'
import * as Lock from './lock.js'
import * as DiffPaths from './protocol/DiffPaths.js'
import type * as Entity from './protocol/Entity.js'
import * as Outcome from './protocol/Outcome.js'
import * as ResourcePath from './protocol/ResourcePath.js'
import * as Scan from './protocol/Scan.js'
import * as Resources from './resources.js'
import * as Spawn from './spawn.js'

/** How long one plugin operation may run by default: 10 minutes. */
export const defaultTimeoutMs = 10 * 60 * 1000

/** The most stdout and stderr of one operation may hold together (bytes). */
export const maxOutput = 16 * 1024 * 1024

/** Opens a host on a root (see Host.Open). */
export const open: Host.Open = (options) => async () => {
  const root = options.root ?? '/'
  const cwd = options.cwd ?? process.cwd()
  const hostEnv = options.env ?? process.env
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
  const baseEnv = Env.scrub(hostEnv)
  const ctx = { root, cwd, timeoutMs, baseEnv }
  const cache = await Resources.makeCache(ctx, Resources.tempBase(root, cwd, hostEnv['TMPDIR']))
  if (E.isLeft(cache)) return cache
  const close = (): Promise<void> => fs.rm(nodePath.resolve(cwd, cache.right), { recursive: true, force: true })
  const virtual = `${cache.right}/generated-resources`
  const dirs = (id: string) => ({
    root,
    cacheDir: `${cache.right}/${id}`,
    stateDir: PosixPath.normalize(`${root}/var/lib/holo/${id}`),
    resourceDir: `${virtual}/${id}`,
  })
  const envOf = (id: string): Readonly<Record<string, string>> => Env.of(baseEnv, { ...dirs(id), resourceDir: PosixPath.normalize(`${root}/usr/share/holo/${id}`) }, Host.apiVersion)
  try {
    const found = await Config.read({ root, cwd, timeoutMs, envOf })
    if (E.isLeft(found)) return await closing(close, found)
    for (const p of found.right.plugins)
      for (const d of [dirs(p.id).cacheDir, dirs(p.id).stateDir]) {
        try {
          await fs.mkdir(nodePath.resolve(cwd, d), { recursive: true, mode: 0o755 })
        } catch (e) {
          return await closing(close, E.left(Fault.make('Failed', 'holo', 'configure', p.id, `cannot make ${d}: ${(e as Error).message}`, e)))
        }
      }
    const rendered = await Resources.render(ctx, cache.right)
    if (E.isLeft(rendered)) return await closing(close, rendered)
    const plugins: Host.Plugin[] = found.right.plugins.map((p) => Object.freeze({ id: p.id, binary: p.binary, info: p.info.pairs, ...dirs(p.id) }))
    const translate = ResourcePath.translate({ root, virtualRoots: [virtual, nodePath.resolve(cwd, virtual)], generated: rendered.right.generated })
    return E.right(make({ root, cwd, timeoutMs, baseEnv, plugins, translate, close }, [...found.right.notes, ...rendered.right.notes]))
  } catch (e) {
    return await closing(close, E.left(Fault.make('Failed', 'holo', 'configure', root, (e as Error).message, e)))
  }
}

const closing = async <A>(close: () => Promise<void>, r: E.Either<Fault.Fault, A>): Promise<E.Either<Fault.Fault, A>> => {
  await close()
  return r
}

interface Run {
  readonly root: string
  readonly cwd: string
  readonly timeoutMs: number
  readonly baseEnv: Readonly<Record<string, string>>
  readonly plugins: ReadonlyArray<Host.Plugin>
  readonly translate: (s: string) => string
  readonly close: () => Promise<void>
}

const make = (r: Run, notes: ReadonlyArray<Host.Note>): Host.Host => {
  const spawn = (p: Host.Plugin, op: string, args: ReadonlyArray<string>, subject: string, maxFd3: number) =>
    Spawn.run({ file: nodePath.resolve(r.cwd, p.binary), args, env: Env.of(r.baseEnv, { root: r.root, ...p }, Host.apiVersion), cwd: r.cwd, timeoutMs: r.timeoutMs, op, subject, maxOutput, maxFd3 })
  const pluginFor = (e: Entity.Entity, op: string): E.Either<Fault.Fault, Host.Plugin> => {
    const p = Host.pluginOf({ plugins: r.plugins }, e)
    return E.isLeft(p) ? E.left(Fault.make('NotFound', 'holo', op, `${e.plugin} ${e.id}`, p.left)) : p
  }
  const scan = (p: Host.Plugin): TE.TaskEither<Fault.Fault, Host.Scan> => async () => {
    const ran = await spawn(p, 'scan', ['scan'], p.id, 0)
    if (E.isLeft(ran)) return E.left(Fault.make(ran.left._tag, 'holo', 'scan', p.id, `scan with plugin ${p.id} failed: ${ran.left.description}`, ran.left.cause))
    const stderr = ran.right.output.chunks.filter((c) => c.fd === 2).map((c) => c.text).join('')
    if (ran.right.code !== 0) return E.left(Fault.make('Failed', 'holo', 'scan', p.id, `scan with plugin ${p.id} failed: ${Outcome.exitWords(ran.right)}`, ran.right.output))
    const stdout = ran.right.output.chunks.filter((c) => c.fd === 1).map((c) => c.text).join('')
    const entities = Scan.parse(p.id, stdout, r.translate)
    if (E.isLeft(entities)) return E.left(Fault.make('ProtocolViolation', 'holo', 'scan', p.id, entities.left.join('\n'), ran.right.output))
    return E.right(Object.freeze({ plugin: p.id, entities: entities.right, stderr }))
  }
  const apply = (e: Entity.Entity, force: boolean): TE.TaskEither<Fault.Fault, Host.Applied> => async () => {
    const op = force ? 'force-apply' : 'apply'
    const p = pluginFor(e, op)
    if (E.isLeft(p)) return p
    const subject = `${p.right.id} ${e.id}`
    const ran = await spawn(p.right, op, [op, e.id], subject, Outcome.maxMessages)
    if (E.isLeft(ran)) return E.left(Fault.make(ran.left._tag, 'holo', op, subject, `plugin ${p.right.id}, entity ${e.id}: ${ran.left.description}`, ran.left.cause))
    if (ran.right.code !== 0) return E.right({ outcome: Outcome.failed(ran.right), output: ran.right.output })
    const outcome = Outcome.parse(ran.right.fd3)
    if (E.isLeft(outcome)) return E.left(Fault.make('ProtocolViolation', 'holo', op, subject, `plugin ${p.right.id}, entity ${e.id}: ${outcome.left}`, ran.right.output))
    return E.right({ outcome: outcome.right, output: ran.right.output })
  }
  const diff = (e: Entity.Entity): TE.TaskEither<Fault.Fault, Host.Diff> => async () => {
    const p = pluginFor(e, 'diff')
    if (E.isLeft(p)) return p
    const subject = `${p.right.id} ${e.id}`
    const fail = (tag: Fault.Tag, description: string, cause?: unknown): E.Either<Fault.Fault, never> => E.left(Fault.make(tag, 'holo', 'diff', subject, `plugin ${p.right.id}, entity ${e.id}: ${description}`, cause))
    const ran = await spawn(p.right, 'diff', ['diff', e.id], subject, 2 * DiffPaths.maxPath + 2)
    if (E.isLeft(ran)) return fail(ran.left._tag, ran.left.description, ran.left.cause)
    const output = ran.right.output
    if (ran.right.code !== 0) return fail('Failed', `diff failed: ${Outcome.exitWords(ran.right)}`, output)
    const paths = DiffPaths.parse(ran.right.fd3)
    if (E.isLeft(paths)) return fail('ProtocolViolation', paths.left, output)
    if (paths.right._tag === 'None') return E.right({ _tag: 'NoDiff', output })
    const { from, to } = paths.right
    const rendered = await GitDiff.render({ cwd: r.cwd, path: r.baseEnv['PATH'] ?? Env.defaultPath, timeoutMs: r.timeoutMs }, { from, to, fromShown: r.translate(from), toShown: r.translate(to) })
    if (E.isLeft(rendered)) return fail(rendered.left._tag, rendered.left.description, output)
    return E.right({ _tag: 'Files', from, to, fromFile: rendered.right.fromFile, toFile: rendered.right.toFile, text: rendered.right.text, output })
  }
  return Object.freeze({
    root: r.root,
    plugins: r.plugins,
    notes,
    scan,
    apply,
    diff,
    lock: () => () => Lock.take(r.root, r.cwd),
    close: r.close,
  })
}
