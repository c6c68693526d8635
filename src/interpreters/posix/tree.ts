// tree: the posix primitives that shape the directory tree: mkdirp, setAttrs, remove, rename, copy.
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { constants } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import type { Attrs } from '../Machine.js'
import * as MachinePath from '../MachinePath.js'
import * as Confine from './confine.js'
import type { Confinement } from './confine.js'
import { syncDirectory } from './write.js'

const applyAttrs = async (host: string, attrs: Attrs): Promise<void> => {
  await fs.chmod(host, attrs.mode)
  await fs.chown(host, attrs.uid, attrs.gid)
}

/**
 * Creates a directory and its missing ancestors, outermost first. Every directory it creates, and
 * the target even when it already existed, gets `attrs` by an explicit chmod and chown (umask does
 * not apply). Returns the created machine paths. A non-directory at the target is Exists, one
 * among the ancestors NotADirectory. On failure the directories it created are removed again.
 */
export const mkdirp = async (confine: Confinement, path: string, attrs: Attrs): Promise<ReadonlyArray<string>> => {
  const host = await confine.locate('mkdirp', path).catch((e: unknown) => {
    if (Errno.codeOf(e) === 'ENOENT') return undefined
    throw e
  })
  if (host !== undefined) {
    const st = await fs.lstat(host).catch((e: unknown) => {
      if (Errno.codeOf(e) === 'ENOENT') return undefined
      throw e
    })
    if (st?.isDirectory()) {
      await applyAttrs(host, attrs)
      return []
    }
    if (st !== undefined) throw Errno.failure('EEXIST', `${path} exists and is not a directory`)
  }
  const created: string[] = []
  try {
    for (const a of MachinePath.lineage(path)) {
      const h = await confine.locate('mkdirp', a)
      try {
        await fs.mkdir(h, attrs.mode)
      } catch (e) {
        if (Errno.codeOf(e) !== 'EEXIST') throw e
        if (a === path) {
          const st = await fs.lstat(h)
          if (!st.isDirectory()) throw Errno.failure('EEXIST', `${path} exists and is not a directory`)
          await applyAttrs(h, attrs)
        }
        continue
      }
      created.push(a)
      await applyAttrs(h, attrs)
    }
  } catch (e) {
    for (const a of [...created].reverse()) {
      await fs.rmdir(await confine.locate('mkdirp', a)).catch(() => undefined)
    }
    if (Errno.codeOf(e) === 'ENOTDIR') throw Errno.failure('ENOTDIR', `an ancestor of ${path} is not a directory`)
    throw e
  }
  return Object.freeze(created)
}

/** Changes owner and group (lchown) and, unless the path is a symlink, the mode. */
export const setAttrs = async (confine: Confinement, path: string, attrs: Attrs): Promise<void> => {
  const host = await confine.locate('setAttrs', path)
  const st = await fs.lstat(host)
  await fs.lchown(host, attrs.uid, attrs.gid)
  if (!st.isSymbolicLink()) await fs.chmod(host, attrs.mode)
}

const refuseRoot = (op: string, path: string): void => {
  if (path === '/') throw Fault.make('Failed', 'posix', op, path, 'refusing to change the machine root itself')
}

/** Removes a file or symlink (unlink), an empty directory (rmdir), or with `recursive` a whole tree. */
export const remove = async (confine: Confinement, path: string, recursive: boolean): Promise<void> => {
  Confine.validate('remove', path)
  refuseRoot('remove', path)
  const host = await confine.locate('remove', path)
  const st = await fs.lstat(host)
  if (!st.isDirectory()) await fs.unlink(host)
  else if (recursive) await fs.rm(host, { recursive: true })
  else {
    try {
      await fs.rmdir(host)
    } catch (e) {
      if (Errno.codeOf(e) === 'EEXIST') throw Errno.failure('ENOTEMPTY')
      throw e
    }
  }
  confine.forget(path)
}

/** Renames a path (rename(2): replaces a file, or an empty directory by a directory). */
export const rename = async (confine: Confinement, from: string, to: string): Promise<void> => {
  Confine.validate('rename', from)
  Confine.validate('rename', to)
  refuseRoot('rename', from)
  refuseRoot('rename', to)
  const hostFrom = await confine.locate('rename', from)
  const hostTo = await confine.locate('rename', to)
  try {
    await fs.rename(hostFrom, hostTo)
  } catch (e) {
    if (Errno.codeOf(e) === 'EINVAL') throw Errno.failure('EINVAL', `cannot move ${from} into itself (${to})`)
    throw e
  }
  confine.forget(from)
  confine.forget(to)
}

/** Copies one node (and a directory's whole tree) preserving uid, gid, mode and symlinks. */
const copyNode = async (from: string, to: string, st: import('node:fs').Stats): Promise<void> => {
  if (st.isFile()) {
    const src = await fs.open(from, constants.O_RDONLY | constants.O_NOFOLLOW)
    const data = await src.readFile().finally(() => src.close())
    const dst = await fs.open(to, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, st.mode & 0o777)
    try {
      await dst.chmod(st.mode & 0o777)
      await dst.writeFile(data)
      await dst.chown(st.uid, st.gid)
      await dst.sync()
    } finally {
      await dst.close()
    }
  } else if (st.isDirectory()) {
    await fs.mkdir(to, 0o700)
    for (const name of await fs.readdir(from)) {
      await copyNode(from + '/' + name, to + '/' + name, await fs.lstat(from + '/' + name))
    }
    await fs.chmod(to, st.mode & 0o777)
    await fs.chown(to, st.uid, st.gid)
    await syncDirectory(to)
  } else if (st.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(from), to)
    await fs.lchown(to, st.uid, st.gid)
  } else {
    throw Errno.failure('EINVAL', 'cannot copy a special file (device, socket or fifo)')
  }
}

/** Copies a file or a tree to a path that must not exist; on failure the partial copy is removed. */
export const copy = async (confine: Confinement, from: string, to: string): Promise<void> => {
  const hostFrom = await confine.locate('copy', from)
  const hostTo = await confine.locate('copy', to)
  const st = await fs.lstat(hostFrom)
  const existing = await fs.lstat(hostTo).catch((e: unknown) => {
    if (Errno.codeOf(e) === 'ENOENT') return undefined
    throw e
  })
  if (existing !== undefined) throw Errno.failure('EEXIST', `${to} already exists`)
  // compared as resolved host paths: a symlinked parent may hide that `to` lies inside `from`
  if (MachinePath.isAtOrBelow(hostTo, hostFrom)) throw Errno.failure('EINVAL', `cannot copy ${from} into itself (${to})`)
  try {
    await copyNode(hostFrom, hostTo, st)
  } catch (e) {
    await fs.rm(hostTo, { recursive: true, force: true }).catch(() => undefined)
    throw e
  }
  await syncDirectory(MachinePath.dirname(hostTo) || '/')
}
