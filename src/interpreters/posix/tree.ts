// tree: the posix primitives that reshape the directory tree: remove, rename, copy (attrs.ts makes
// directories and sets attributes).
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, rmdirSync, unlinkSync, type Stats } from 'node:fs'
import { chmodSync, chownSync, statSync } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Confine from './confine.js'
import { handlePath, type Confinement } from './confine.js'
import { durable } from './write.js'

const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

const refuseRoot = (op: string, path: string): void => {
  if (path === '/') throw Fault.make('Failed', 'posix', op, path, 'refusing to change the machine root itself')
}

/**
 * Directory levels a walk of a tree keeps open at once, whatever its depth: a handle each when
 * removing, two when copying (the source and its copy). One handle a level would run out of descriptors (1,024 under the usual limit) in a tree
 * some 500 to 1,000 levels deep, and leave it in place; past this many levels the handle of the
 * shallowest open one is closed, and opened again through `..` of its child's handle when the walk
 * climbs back to it, refused (ESTALE) unless it is the same directory (device and inode).
 */
export const openAtOnce = 32

/** A level of a walk: a directory's handle (-1 while closed), identity, its name in its parent, and the entries left. */
interface Level {
  fd: number
  readonly dev: number
  readonly ino: number
  readonly name: string
  readonly names: ReadonlyArray<string>
  next: number
}

/** A level for a directory opened as `fd`, reached by `name`. */
const levelOf = (fd: number, name: string): Level => {
  const st = fstatSync(fd)
  return { fd, dev: st.dev, ino: st.ino, name, names: readdirSync(handlePath(fd)), next: 0 }
}

/** Opens `level` (closed) again, as the parent of the directory open as `childFd`, refusing another directory. */
const reopen = (childFd: number, level: Level): number => {
  const fd = openSync(`${handlePath(childFd)}/..`, dirFlags)
  const st = fstatSync(fd)
  if (st.dev !== level.dev || st.ino !== level.ino) {
    closeSync(fd)
    throw Errno.failure('ESTALE', `a directory moved while its tree was walked (${level.name})`)
  }
  return fd
}

/** Closes every open handle of a walk's stack (after a failure). */
const closeAll = (fds: ReadonlyArray<number>): void => {
  for (const fd of fds) if (fd >= 0) closeSync(fd)
}

/**
 * Removes a directory's contents and then the directory, through handles: each directory is opened
 * without following a symlink, its entries removed relative to that handle, so a directory swapped
 * for a symlink mid-removal is unlinked (a link), never descended into. A loop, not recursion, with
 * at most `openAtOnce` handles open, so a tree of any depth is removed.
 */
const removeTree = (dir: string, name: string): void => {
  let top: number
  try {
    top = openSync(`${dir}/${name}`, dirFlags)
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ELOOP' || code === 'ENOTDIR') return unlinkSync(`${dir}/${name}`)
    throw e
  }
  // The open levels are always the deepest ones, from `shallowest` to the top of the stack.
  const stack: Level[] = []
  let shallowest = 0
  const push = (fd: number, child: string): void => {
    stack.push({ fd, dev: 0, ino: 0, name: child, names: [], next: 0 }) // closed by the finally below if levelOf throws
    stack[stack.length - 1] = levelOf(fd, child)
    if (stack.length - shallowest > openAtOnce) {
      closeSync(stack[shallowest]!.fd)
      stack[shallowest++]!.fd = -1
    }
  }
  try {
    push(top, name)
    while (stack.length > 0) {
      const cur = stack[stack.length - 1]!
      if (cur.next < cur.names.length) {
        const child = cur.names[cur.next++]!
        const here = `${handlePath(cur.fd)}/${child}`
        const st = lstatSync(here, { throwIfNoEntry: false })
        if (st === undefined) continue
        if (!st.isDirectory()) {
          unlinkSync(here)
          continue
        }
        let fd: number
        try {
          fd = openSync(here, dirFlags)
        } catch (e) {
          const code = Errno.codeOf(e)
          if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e
          unlinkSync(here) // swapped for a symlink or a file since the lstat: a link, never followed
          continue
        }
        push(fd, child)
        continue
      }
      // this directory is empty now: remove it through its parent's handle
      stack.pop()
      const parent = stack[stack.length - 1]
      if (parent !== undefined && parent.fd < 0) {
        try {
          parent.fd = reopen(cur.fd, parent)
        } finally {
          if (parent.fd < 0) closeSync(cur.fd)
        }
        shallowest = stack.length - 1
      }
      closeSync(cur.fd)
      rmdirSync(parent === undefined ? `${dir}/${name}` : `${handlePath(parent.fd)}/${cur.name}`)
    }
  } finally {
    closeAll(stack.map((l) => l.fd))
  }
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
 * Copies one node that is not a directory, preserving uid, gid, mode and symlinks. `from` and `to`
 * are entries reached through directory handles.
 */
const copyLeaf = async (from: string, to: string, st: Stats): Promise<void> => {
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
  } else if (st.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(from), to)
    await fs.lchown(to, st.uid, st.gid)
  } else {
    throw Errno.failure('EINVAL', 'cannot copy a special file (device, socket or fifo)')
  }
}

/** A level of a tree's copy: the source directory's level, the copy's handle (-1 while closed) and identity, and the source's stat. */
interface CopyLevel {
  readonly src: Level
  dst: Level
  readonly st: Stats
}

/**
 * Copies a node, and a directory's whole tree, preserving uid, gid, mode and symlinks. `from` and
 * `to` are entries reached through directory handles; a directory is read through its own handle,
 * opened without following, so nothing outside the tree is copied. A directory's copy is made
 * 0700, filled, then given its mode and owner and fsynced. A loop, not recursion, with at most
 * `openAtOnce` pairs of handles open, so a tree of any depth is copied.
 */
const copyNode = async (from: string, to: string, st: Stats): Promise<void> => {
  if (!st.isDirectory()) return copyLeaf(from, to, st)
  const stack: CopyLevel[] = []
  let shallowest = 0
  const open: number[] = [] // handles not yet in the stack, closed by the finally below if a step throws
  const enter = async (source: string, copy: string, name: string, dirSt: Stats): Promise<void> => {
    await fs.mkdir(copy, 0o700)
    open.push(openSync(source, dirFlags))
    open.push(openSync(copy, dirFlags))
    const src = levelOf(open[0]!, name)
    const dstSt = fstatSync(open[1]!)
    stack.push({ src, dst: { fd: open[1]!, dev: dstSt.dev, ino: dstSt.ino, name, names: [], next: 0 }, st: dirSt })
    open.length = 0
    if (stack.length - shallowest > openAtOnce) {
      const l = stack[shallowest++]!
      closeSync(l.src.fd)
      closeSync(l.dst.fd)
      l.src.fd = -1
      l.dst.fd = -1
    }
  }
  try {
    await enter(from, to, PosixPath.basename(from), st)
    while (stack.length > 0) {
      const cur = stack[stack.length - 1]!
      if (cur.src.next < cur.src.names.length) {
        const name = cur.src.names[cur.src.next++]!
        const s = `${handlePath(cur.src.fd)}/${name}`
        const d = `${handlePath(cur.dst.fd)}/${name}`
        const childSt = lstatSync(s)
        if (childSt.isDirectory()) await enter(s, d, name, childSt)
        else await copyLeaf(s, d, childSt)
        continue
      }
      const d = handlePath(cur.dst.fd)
      chmodSync(d, cur.st.mode & 0o777)
      chownSync(d, cur.st.uid, cur.st.gid)
      await durable.syncDirectory(d)
      stack.pop()
      open.push(cur.src.fd, cur.dst.fd)
      const parent = stack[stack.length - 1]
      if (parent !== undefined && parent.src.fd < 0) {
        parent.src.fd = reopen(cur.src.fd, parent.src)
        parent.dst.fd = reopen(cur.dst.fd, parent.dst)
        shallowest = stack.length - 1
      }
      open.length = 0
      closeSync(cur.src.fd)
      closeSync(cur.dst.fd)
    }
  } finally {
    closeAll([...open, ...stack.flatMap((l) => [l.src.fd, l.dst.fd])])
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
