// attrs: the posix primitives that make directories and set attributes: mkdirp and setAttrs, each
// acting on the inode a handle opened (never a symlink's target), mode, owner and group set
// explicitly (umask does not apply). tree.ts reshapes the tree (remove, rename, copy).
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { chmodSync, chownSync, closeSync, constants, fstatSync, lchownSync, lstatSync, openSync } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Errno from '../Errno.js'
import type { Attrs } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import { handlePath, type Confinement } from './confine.js'

/** Opens an entry without following it, for fchmod/fchown through its handle's /proc path. */
const pathFlags = 0o10000000 | constants.O_NOFOLLOW

/**
 * Sets mode, owner and group of the entry at a place, acting on the inode that was opened (never a
 * symlink's target): a symlink gets lchown only, as it has no mode of its own.
 */
const applyAttrsAt = (entry: string, attrs: Attrs): void => {
  const fd = openSync(entry, pathFlags)
  try {
    const st = fstatSync(fd)
    if (st.isSymbolicLink()) {
      // the handle names the link itself; lchown through the directory never follows it
      lchownSync(entry, attrs.uid, attrs.gid)
      return
    }
    const self = handlePath(fd)
    chmodSync(self, attrs.mode)
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
 *
 * The target is tried first: its parent mostly exists (a manifest's directories come parent
 * first), and one walk to it does then. Only when the parent is missing is every level tried from
 * the top, each a walk of its own (a walk costs a handle per level: trying every level of a
 * directory 500 deep first was 500 walks of some 250 levels each).
 */
export const mkdirp = async (confine: Confinement, path: string, attrs: Attrs): Promise<ReadonlyArray<string>> => {
  if (path === '/') return mkdirEach(confine, path, attrs)
  let made: boolean
  try {
    made = await makeOne(confine, path, path, attrs)
  } catch (e) {
    if (Errno.codeOf(e) !== 'ENOENT') throw notDirectory(e, path)
    return mkdirEach(confine, path, attrs)
  }
  return Object.freeze(made ? [path] : [])
}

/** A parent chain that crosses a non-directory, as mkdirp says it. */
const notDirectory = (e: unknown, path: string): unknown => (Errno.codeOf(e) === 'ENOTDIR' && !Errno.isFault(e) ? Errno.failure('ENOTDIR', `an ancestor of ${path} is not a directory`) : e)

/** Makes level `a` of mkdirp's `path` (true), or finds it there (false; the target must be a directory, and gets `attrs`). */
const makeOne = (confine: Confinement, path: string, a: string, attrs: Attrs): Promise<boolean> =>
  confine.at('mkdirp', a, async ({ entry }) => {
    if (a !== '/') {
      try {
        await fs.mkdir(entry, attrs.mode)
        applyAttrsAt(entry, attrs)
        return true
      } catch (e) {
        if (Errno.codeOf(e) !== 'EEXIST') throw e
      }
    }
    if (a === path) {
      const st = lstatSync(entry)
      if (!st.isDirectory()) throw Errno.failure('EEXIST', `${path} exists and is not a directory`)
      applyAttrsAt(entry, attrs)
    }
    return false
  })

/** mkdirp by every level from the top. */
const mkdirEach = async (confine: Confinement, path: string, attrs: Attrs): Promise<ReadonlyArray<string>> => {
  const created: string[] = []
  try {
    for (const a of path === '/' ? ['/'] : PosixPath.lineage(path)) {
      if (await makeOne(confine, path, a, attrs)) created.push(a)
    }
  } catch (e) {
    for (const a of [...created].reverse()) await confine.at('mkdirp', a, ({ entry }) => fs.rmdir(entry)).catch(() => undefined)
    throw notDirectory(e, path)
  }
  return Object.freeze(created)
}

/** Changes owner and group (lchown) and, unless the path is a symlink, the mode. */
export const setAttrs = (confine: Confinement, path: string, attrs: Attrs): Promise<void> =>
  confine.at('setAttrs', path, ({ entry }) => applyAttrsAt(entry, attrs))
