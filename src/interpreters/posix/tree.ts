// tree: the posix primitives that shape the directory tree: mkdirp, setAttrs, remove, rename, copy.
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, rmdirSync, unlinkSync, type Stats } from 'node:fs'
import { chmodSync, chownSync, lchownSync, statSync } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import type { Attrs } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Confine from './confine.js'
import { handlePath, type Confinement } from './confine.js'
import { durable } from './write.js'

/** Opens an entry without following it, for fchmod/fchown through its handle's /proc path. */
const pathFlags = 0o10000000 | constants.O_NOFOLLOW
const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

/**
 * Sets mode, owner and group of the entry at a place, acting on the inode that was opened (never a
 * symlink's target): a symlink gets lchown only, as it has no mode of its own.
 */
const applyAttrsAt = (entry: string, attrs: Attrs, mode: boolean): void => {
  const fd = openSync(entry, pathFlags)
  try {
    const st = fstatSync(fd)
    if (st.isSymbolicLink()) {
      // the handle names the link itself; lchown through the directory never follows it
      lchownSync(entry, attrs.uid, attrs.gid)
      return
    }
    const self = handlePath(fd)
    if (mode) chmodSync(self, attrs.mode)
    chownSync(self, attrs.uid, attrs.gid)
  } finally {
    closeSync(fd)
  }
}

/**
 * Creates a directory and its missing ancestors, outermost first. Every directory it creates, and
 * the target even when it already existed, gets `attrs` by an explicit chmod and chown (umask does
 * not apply). Returns the created machine paths. A non-directory at the target is Exists, one
 * among the ancestors NotADirectory. On failure the directories it created are removed again.
 * Each level is reached afresh through handles from the root.
 */
export const mkdirp = async (confine: Confinement, path: string, attrs: Attrs): Promise<ReadonlyArray<string>> => {
  const created: string[] = []
  try {
    for (const a of path === '/' ? ['/'] : PosixPath.lineage(path)) {
      const made = await confine.at('mkdirp', a, async ({ entry }) => {
        if (a !== '/') {
          try {
            await fs.mkdir(entry, attrs.mode)
            applyAttrsAt(entry, attrs, true)
            return true
          } catch (e) {
            if (Errno.codeOf(e) !== 'EEXIST') throw e
          }
        }
        if (a === path) {
          const st = lstatSync(entry)
          if (!st.isDirectory()) throw Errno.failure('EEXIST', `${path} exists and is not a directory`)
          applyAttrsAt(entry, attrs, true)
        }
        return false
      })
      if (made) created.push(a)
    }
  } catch (e) {
    for (const a of [...created].reverse()) await confine.at('mkdirp', a, ({ entry }) => fs.rmdir(entry)).catch(() => undefined)
    if (Errno.codeOf(e) === 'ENOTDIR' && !Errno.isFault(e)) throw Errno.failure('ENOTDIR', `an ancestor of ${path} is not a directory`)
    throw e
  }
  return Object.freeze(created)
}

/** Changes owner and group (lchown) and, unless the path is a symlink, the mode. */
export const setAttrs = (confine: Confinement, path: string, attrs: Attrs): Promise<void> =>
  confine.at('setAttrs', path, ({ entry }) => applyAttrsAt(entry, attrs, true))

const refuseRoot = (op: string, path: string): void => {
  if (path === '/') throw Fault.make('Failed', 'posix', op, path, 'refusing to change the machine root itself')
}

/**
 * Removes a directory's contents and then the directory, through handles: each directory is opened
 * without following a symlink, its entries removed relative to that handle, so a directory swapped
 * for a symlink mid-removal is unlinked (a link), never descended into.
 */
const removeTree = (dir: string, name: string): void => {
  let fd: number
  try {
    fd = openSync(`${dir}/${name}`, dirFlags)
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ELOOP' || code === 'ENOTDIR') return unlinkSync(`${dir}/${name}`)
    throw e
  }
  try {
    const here = handlePath(fd)
    for (const child of readdirSync(here)) {
      const st = lstatSync(`${here}/${child}`, { throwIfNoEntry: false })
      if (st === undefined) continue
      if (st.isDirectory()) removeTree(here, child)
      else unlinkSync(`${here}/${child}`)
    }
  } finally {
    closeSync(fd)
  }
  rmdirSync(`${dir}/${name}`)
}

/** Removes a file or symlink (unlink), an empty directory (rmdir), or with `recursive` a whole tree. */
export const remove = async (confine: Confinement, path: string, recursive: boolean): Promise<void> => {
  Confine.validate('remove', path)
  refuseRoot('remove', path)
  await confine.at('remove', path, async ({ entry, dir, name }) => {
    const st = await fs.lstat(entry)
    if (!st.isDirectory()) await fs.unlink(entry)
    else if (recursive) removeTree(dir, name)
    else {
      try {
        await fs.rmdir(entry)
      } catch (e) {
        if (Errno.codeOf(e) === 'EEXIST') throw Errno.failure('ENOTEMPTY')
        throw e
      }
    }
  })
}

/** Renames a path (rename(2): replaces a file, or an empty directory by a directory). */
export const rename = async (confine: Confinement, from: string, to: string): Promise<void> => {
  Confine.validate('rename', from)
  Confine.validate('rename', to)
  refuseRoot('rename', from)
  refuseRoot('rename', to)
  await confine.at('rename', from, (src) =>
    confine.at('rename', to, async (dst) => {
      try {
        await fs.rename(src.entry, dst.entry)
      } catch (e) {
        if (Errno.codeOf(e) === 'EINVAL') throw Errno.failure('EINVAL', `cannot move ${from} into itself (${to})`)
        throw e
      }
    }),
  )
}

const chunk = 1024 * 1024

/**
 * Copies an open regular file's bytes in chunks (files of any size, never read whole), through a
 * buffer no larger than the file needs (`size` as stat gave it; one that grew since is still copied
 * whole, a chunk at a time): a megabyte for each small file of a tree made 40,000 of them, and the
 * collector's work, for a tree of 40,000 files.
 */
const copyBytes = async (src: fs.FileHandle, dst: fs.FileHandle, size: number): Promise<void> => {
  const length = Math.min(chunk, size + 1)
  const buffer = Buffer.allocUnsafe(length)
  for (;;) {
    const { bytesRead } = await src.read(buffer, 0, length, null)
    if (bytesRead === 0) return
    let written = 0
    while (written < bytesRead) written += (await dst.write(buffer, written, bytesRead - written, null)).bytesWritten
  }
}

/**
 * Copies one node (and a directory's whole tree) preserving uid, gid, mode and symlinks. `from`
 * and `to` are entries reached through directory handles; a directory is read through its own
 * handle, opened without following, so nothing outside the tree is copied.
 */
const copyNode = async (from: string, to: string, st: Stats): Promise<void> => {
  if (st.isFile()) {
    const src = await fs.open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    try {
      if (!(await src.stat()).isFile()) throw Errno.failure('EINVAL', 'cannot copy a special file (device, socket or fifo)')
      const dst = await fs.open(to, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, st.mode & 0o777)
      try {
        await dst.chmod(st.mode & 0o777)
        await copyBytes(src, dst, st.size)
        await dst.chown(st.uid, st.gid)
        await durable.syncFile(dst)
      } finally {
        await dst.close()
      }
    } finally {
      await src.close()
    }
  } else if (st.isDirectory()) {
    await fs.mkdir(to, 0o700)
    const sfd = openSync(from, dirFlags)
    const dfd = openSync(to, dirFlags)
    try {
      const s = handlePath(sfd)
      const d = handlePath(dfd)
      for (const name of readdirSync(s)) await copyNode(`${s}/${name}`, `${d}/${name}`, lstatSync(`${s}/${name}`))
      chmodSync(d, st.mode & 0o777)
      chownSync(d, st.uid, st.gid)
      await durable.syncDirectory(d)
    } finally {
      closeSync(sfd)
      closeSync(dfd)
    }
  } else if (st.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(from), to)
    await fs.lchown(to, st.uid, st.gid)
  } else {
    throw Errno.failure('EINVAL', 'cannot copy a special file (device, socket or fifo)')
  }
}

/** Copies a file or a tree to a path that must not exist; on failure the partial copy is removed. */
export const copy = async (confine: Confinement, from: string, to: string): Promise<void> => {
  await confine.at('copy', from, async (src) => {
    await confine.at('copy', to, async (dst) => {
      const st = await fs.lstat(src.entry)
      const existing = await fs.lstat(dst.entry).catch((e: unknown) => {
        if (Errno.codeOf(e) === 'ENOENT') return undefined
        throw e
      })
      if (existing !== undefined) throw Errno.failure('EEXIST', `${to} already exists`)
      // a symlinked parent may hide that `to` lies inside `from`: compare the directories' inodes
      if (st.isDirectory() && insideOf(dst.dir, st)) throw Errno.failure('EINVAL', `cannot copy ${from} into itself (${to})`)
      try {
        await copyNode(src.entry, dst.entry, st)
      } catch (e) {
        if (st.isDirectory()) await Promise.resolve().then(() => removeTree(dst.dir, dst.name)).catch(() => undefined)
        else await fs.unlink(dst.entry).catch(() => undefined)
        throw e
      }
      await durable.syncDirectory(dst.dir)
    })
  })
}

/** Whether a directory (a handle's /proc path or a host path) is the directory `st` describes or lies below it. */
const insideOf = (dir: string, st: Stats): boolean => {
  let d = dir
  for (let depth = 0; depth < 4096; depth++) {
    const here = statSync(d)
    if (here.dev === st.dev && here.ino === st.ino) return true
    const up = statSync(`${d}/..`)
    if (up.dev === here.dev && up.ino === here.ino) return false
    d = `${d}/..`
  }
  return false
}
