// write: the file-writing primitives of the posix machine: the atomic replace of a managed file
// (CCM's posix sequence plus fsyncs) and the plain durable writes of state files (journal, lock).
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { constants } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Errno from '../Errno.js'
import type { Attrs } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import type { Confinement } from './confine.js'

const createFlags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW
const appendFlags = constants.O_CREAT | constants.O_APPEND | constants.O_WRONLY | constants.O_NOFOLLOW
/** Mode of state files (journal, lock, backups of them): they may hold copies of secret files. */
const stateMode = 0o600

/** What the atomic write and the state writes need made durable; tests count the calls. */
export interface Durability {
  /** fsync of an open file. */
  readonly syncFile: (fh: fs.FileHandle) => Promise<void>
  /** fsync of a directory (so that a rename or a new entry in it survives a crash). */
  readonly syncDirectory: (host: string) => Promise<void>
}

/** Opens a directory and fsyncs it, so that a rename or a new entry in it survives a crash. */
const fsyncDirectory = async (host: string): Promise<void> => {
  const fh = await fs.open(host, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** The real thing: fsync(2) of files and directories. */
export const durable: Durability = Object.freeze({ syncFile: (fh: fs.FileHandle) => fh.sync(), syncDirectory: fsyncDirectory })

/** Opens a new file with O_EXCL; the parent's failures are worded as such. */
const create = async (host: string, parent: string, mode: number): Promise<fs.FileHandle> => {
  try {
    return await fs.open(host, createFlags, mode)
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT') throw Errno.parentMissing(parent)
    if (code === 'ENOTDIR') throw Errno.parentNotDirectory(parent)
    throw e
  }
}

/** Writes the temp file `tempName` in the open directory `dir`: create (O_EXCL), fchmod, write, fchown, fsync, close; removed on failure. */
const writeTempIn = async (dir: string, parent: string, data: Uint8Array, attrs: Attrs, tempName: string, durability: Durability): Promise<string> => {
  const temp = `${dir}/${tempName}`
  const fh = await create(temp, parent, attrs.mode)
  let open = true
  try {
    await fh.chmod(attrs.mode)
    await fh.writeFile(data)
    await fh.chown(attrs.uid, attrs.gid)
    await durability.syncFile(fh)
    open = false
    await fh.close()
  } catch (e) {
    if (open) await fh.close().catch(() => undefined)
    await fs.unlink(temp).catch(() => undefined)
    throw e
  }
  return temp
}

const checkTemp = (path: string, tempName: string): void => {
  if (!PosixPath.isName(tempName)) throw Errno.badName('posix', 'writeFileAtomic', path, tempName)
  if (path === '/') throw Errno.failure('EISDIR')
}

/**
 * Writes a file atomically: open `tempName` beside it (O_CREAT|O_EXCL|O_WRONLY), fchmod, write,
 * fchown, fsync, close, rename over the target (a symlink there is replaced, not followed), fsync
 * the directory. Every call after the walk acts in the directory's handle, so the temp file, the
 * rename and the directory fsync all happen in the one directory that was checked. On failure
 * before the rename the temp file is removed and the target untouched.
 */
export const writeFileAtomic = (
  confine: Confinement,
  path: string,
  data: Uint8Array,
  attrs: Attrs,
  tempName: string,
  durability: Durability = durable,
): Promise<void> => {
  return confine.at('writeFileAtomic', path, async ({ entry, dir }) => {
    checkTemp(path, tempName)
    const temp = await writeTempIn(dir, PosixPath.dirname(path), data, attrs, tempName, durability)
    try {
      await fs.rename(temp, entry)
    } catch (e) {
      await fs.unlink(temp).catch(() => undefined)
      throw e
    }
    await durability.syncDirectory(dir)
  })
}

/** The first half of writeFileAtomic: the temp file beside `path`, written and fsynced, left for `renameTemp`. */
export const writeTemp = (confine: Confinement, path: string, data: Uint8Array, attrs: Attrs, tempName: string, durability: Durability = durable): Promise<void> =>
  confine.at('writeFileAtomic', path, async ({ dir }) => {
    checkTemp(path, tempName)
    await writeTempIn(dir, PosixPath.dirname(path), data, attrs, tempName, durability)
  })

/** The second half: renames the temp file beside `path` over it, in the directory the walk checked (no fsync). */
export const renameTemp = (confine: Confinement, path: string, tempName: string): Promise<void> =>
  confine.at('writeFileAtomic', path, async ({ entry, dir }) => {
    checkTemp(path, tempName)
    const temp = `${dir}/${tempName}`
    try {
      await fs.rename(temp, entry)
    } catch (e) {
      await fs.unlink(temp).catch(() => undefined)
      throw e
    }
  })

/** fsyncs the directory at `path` (reached by the confined walk, so a symlink cannot redirect it). */
export const syncDirectory = (confine: Confinement, path: string, durability: Durability = durable): Promise<void> =>
  confine.at('syncDirectory', path, async ({ entry }) => {
    // O_NOFOLLOW: a symlink put where the directory was is refused (ELOOP), not followed
    const fh = await fs.open(entry, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
    try {
      await durability.syncFile(fh)
    } finally {
      await fh.close()
    }
  })

/** Creates a file that must not exist (O_EXCL), writes it and fsyncs it and its directory. */
export const createExclusive = (confine: Confinement, path: string, data: Uint8Array, durability: Durability = durable): Promise<void> =>
  confine.at('createExclusive', path, async ({ entry, dir, name }) => {
    // Written in full under a private name, then hard-linked into place: link(2) fails with EEXIST
    // like O_EXCL, and a reader (another apply checking the lock) never sees an empty file.
    const staging = `${dir}/${name}.${process.pid}.new`
    await fs.unlink(staging).catch(() => undefined) // left by a killed process that had our pid
    const fh = await create(staging, PosixPath.dirname(path), stateMode)
    try {
      try {
        await fh.writeFile(data)
        await durability.syncFile(fh)
      } finally {
        await fh.close()
      }
      await fs.link(staging, entry)
    } finally {
      await fs.unlink(staging).catch(() => undefined)
    }
    await durability.syncDirectory(dir)
  })

/** Appends bytes to a file (creating it, mode 0600), then fsyncs it unless `sync` is false; a symlink is not followed. */
export const append = (confine: Confinement, path: string, data: Uint8Array, durability: Durability = durable, sync = true): Promise<void> =>
  confine.at('append', path, async ({ entry }) => {
    let fh: fs.FileHandle
    try {
      fh = await fs.open(entry, appendFlags, stateMode)
    } catch (e) {
      const code = Errno.codeOf(e)
      if (code === 'ENOENT') throw Errno.parentMissing(PosixPath.dirname(path))
      throw e
    }
    try {
      await fh.writeFile(data)
      if (sync) await durability.syncFile(fh)
    } finally {
      await fh.close()
    }
  })
