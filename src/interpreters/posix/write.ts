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
    if (!PosixPath.isName(tempName)) throw Errno.badName('posix', 'writeFileAtomic', path, tempName)
    if (path === '/') throw Errno.failure('EISDIR')
    const temp = `${dir}/${tempName}`
    const fh = await create(temp, PosixPath.dirname(path), attrs.mode)
    let open = true
    try {
      await fh.chmod(attrs.mode)
      await fh.writeFile(data)
      await fh.chown(attrs.uid, attrs.gid)
      await durability.syncFile(fh)
      open = false
      await fh.close()
      await fs.rename(temp, entry)
    } catch (e) {
      if (open) await fh.close().catch(() => undefined)
      await fs.unlink(temp).catch(() => undefined)
      throw e
    }
    await durability.syncDirectory(dir)
  })
}

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

/** Appends bytes to a file (creating it, mode 0600), then fsyncs it; a symlink is not followed. */
export const append = (confine: Confinement, path: string, data: Uint8Array, durability: Durability = durable): Promise<void> =>
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
      await durability.syncFile(fh)
    } finally {
      await fh.close()
    }
  })
