// resources: the run's directories, as Holo 3 makes them. The cache directory is `holo.N` (N
// digits, so that holo-test(7) can strip it from outputs) in the temporary directory: $TMPDIR or
// /tmp, and in test mode $TMPDIR only when it is inside the root, else $HOLO_ROOT_DIR/tmp, so that
// nothing outside the root is touched. In it, `generated-resources` is the virtual resource root:
// every generator (a regular file below $HOLO_ROOT_DIR/usr/share/holo/generators, in path order)
// runs with HOLO_CACHE_DIR, HOLO_RESOURCE_ROOT and OUT set and renders files there, and then every
// static resource file of $HOLO_ROOT_DIR/usr/share/holo not generated is copied in (its content and
// executable bit only). Plugins get $HOLO_RESOURCE_DIR below it.
import { createHash, randomInt } from 'node:crypto'
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Errno from '../Errno.js'
import * as GoErrors from './goErrors.js'
import type * as Host from './Host.js'
import * as Output from './protocol/Output.js'
import * as Spawn from './spawn.js'

// model

export interface Context {
  readonly root: string
  readonly cwd: string
  readonly timeoutMs: number
  /** The scrubbed host environment a generator starts from. */
  readonly baseEnv: Readonly<Record<string, string>>
}

// constructors

/** The directory the cache directory is made in (as plugins will be told it; relative stays relative). */
export const tempBase = (root: string, cwd: string, tmpdir: string | undefined): string => {
  const given = tmpdir !== undefined && tmpdir !== '' ? tmpdir : '/tmp'
  if (PosixPath.normalize(root) === '/') return given
  const inside = PosixPath.isWithin(nodePath.resolve(cwd, root), nodePath.resolve(cwd, given))
  return inside ? given : PosixPath.normalize(`${root}/tmp`)
}

/** Makes the run's cache directory `BASE/holo.N` and its `generated-resources`; its path as plugins are told it. */
export const makeCache = async (ctx: Context, base: string): Promise<E.Either<Fault.Fault, string>> => {
  await fs.mkdir(nodePath.resolve(ctx.cwd, base), { recursive: true }).catch(() => undefined)
  for (let i = 0; i < 100; i++) {
    const path = PosixPath.normalize(`${base}/holo.${randomInt(1e9, 1e10)}`)
    try {
      await fs.mkdir(nodePath.resolve(ctx.cwd, path), { mode: 0o700 })
      await fs.mkdir(nodePath.resolve(ctx.cwd, path, 'generated-resources'))
      return E.right(path)
    } catch (e) {
      if (Errno.codeOf(e) === 'EEXIST') continue
      return E.left(Fault.make(Errno.tag(Errno.codeOf(e)), 'holo', 'configure', base, `cannot make the cache directory: ${GoErrors.describe('mkdir', path, e)}`, e))
    }
  }
  return E.left(Fault.make('Exists', 'holo', 'configure', base, 'cannot make the cache directory: every name tried exists'))
}

/** Runs the generators into the virtual root, then copies the static resources beside what they made; generated file → generator, and what was said. */
export const render = async (ctx: Context, cache: string): Promise<E.Either<Fault.Fault, { readonly generated: ReadonlyMap<string, string>; readonly notes: ReadonlyArray<Host.Note> }>> => {
  const host = (p: string): string => nodePath.resolve(ctx.cwd, p)
  const virtual = `${cache}/generated-resources`
  const physical = PosixPath.normalize(`${ctx.root}/usr/share/holo`)
  const generatorsDir = `${physical}/generators`
  const generated = new Map<string, string>()
  const notes: Host.Note[] = []
  for (const rel of await regularFiles(host(generatorsDir))) {
    const path = `${generatorsDir}/${rel}`
    const cacheDir = `${cache}/generator-${createHash('sha256').update(path).digest('hex').slice(0, 32)}`
    await fs.mkdir(host(cacheDir))
    const env = { ...ctx.baseEnv, HOLO_CACHE_DIR: cacheDir, HOLO_RESOURCE_ROOT: physical, OUT: virtual }
    const ran = await Spawn.run({ file: host(path), args: [], env, cwd: ctx.cwd, timeoutMs: ctx.timeoutMs, op: 'generate', subject: path, maxOutput: 16 * 1024 * 1024, maxFd3: 0 })
    if (E.isLeft(ran)) return E.left(Fault.make(ran.left._tag, 'holo', 'generate', path, `could not run ${path}: ${ran.left.description}`, ran.left.cause))
    for (const line of Output.text(ran.right.output).split('\n')) {
      const t = line.trim()
      if (t !== '') notes.push({ level: 'warning', subject: path, text: `output from ${path}: ${t}` })
    }
    if (ran.right.code !== 0) {
      const how = ran.right.signal !== undefined ? `signal: ${ran.right.signal}` : `exit status ${ran.right.code}`
      return E.left(Fault.make('Failed', 'holo', 'generate', path, `could not run ${path}: ${how}`, ran.right.output))
    }
    for (const made of await regularFiles(host(virtual), true)) if (!generated.has(made)) generated.set(made, rel)
  }
  try {
    await copyStatic(host(physical), host(virtual))
  } catch (e) {
    return E.left(Fault.make(Errno.tag(Errno.codeOf(e)), 'holo', 'configure', physical, `cannot copy the resource files of ${physical}: ${(e as Error).message}`, e))
  }
  return E.right({ generated, notes })
}

// internals

/** The files below a directory (relative paths, in Go's filepath.Walk order); a missing directory has none. */
const regularFiles = async (dir: string, anyFile = false): Promise<string[]> => {
  const out: string[] = []
  const walk = async (rel: string): Promise<void> => {
    let entries
    try {
      entries = await fs.readdir(nodePath.join(dir, rel), { withFileTypes: true })
    } catch (e) {
      if (Errno.codeOf(e) === 'ENOENT' && rel === '') return
      throw e
    }
    for (const d of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const r = rel === '' ? d.name : `${rel}/${d.name}`
      if (d.isDirectory()) await walk(r)
      else if (d.isFile() || (anyFile && !d.isDirectory())) out.push(r)
    }
  }
  await walk('')
  return out
}

/** Copies static resource files (content and executable bit) where no generated file is; directories are made as they are met. */
const copyStatic = async (from: string, to: string): Promise<void> => {
  let entries
  try {
    entries = await fs.readdir(from, { withFileTypes: true })
  } catch (e) {
    if (Errno.codeOf(e) === 'ENOENT') return
    throw e
  }
  for (const d of entries) {
    const src = nodePath.join(from, d.name)
    const dst = nodePath.join(to, d.name)
    if (d.isDirectory()) {
      await fs.mkdir(dst).catch((e: unknown) => {
        if (Errno.codeOf(e) !== 'EEXIST') throw e
      })
      await copyStatic(src, dst)
      continue
    }
    const st = await fs.stat(src).catch(() => undefined)
    if (st === undefined || !st.isFile()) continue
    if (await fs.lstat(dst).then(() => true, () => false)) continue
    await fs.copyFile(src, dst)
    await fs.chmod(dst, st.mode & 0o111 ? 0o755 : 0o644)
  }
}
