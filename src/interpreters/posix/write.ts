// write: the file-writing primitives of the posix machine: the atomic replace of a managed file
// (CCM's posix sequence plus fsyncs) and the plain durable writes of state files (journal, lock).
//
// These functions throw (Node errors, Errno failures, Faults); posix.ts turns them into Fault values.
import { constants } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Errno from '../Errno.js'
import type { Attrs } from '../Machine.js'
import * as MachinePath from '../MachinePath.js'
import type { Confinement } from './confine.js'

const createFlags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW
const appendFlags = constants.O_CREAT | constants.O_APPEND | constants.O_WRONLY | constants.O_NOFOLLOW
/** Mode of state files (journal, lock, backups of them): they may hold copies of secret files. */
const stateMode = 0o600

/** The host path of a path to create: a missing parent is NotFound, a non-directory one NotADirectory. */
const parentOf = async (confine: Confinement, op: string, path: string): Promise<{ dir: string; host: string }> => {
  const parent = MachinePath.dirname(path)
  try {
    const dir = await confine.directory(op, parent)
    return { dir, host: await confine.locate(op, path) }
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT') throw Errno.parentMissing(parent)
    if (code === 'ENOTDIR') throw Errno.parentNotDirectory(parent)
    throw e
  }
}

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

/** Opens a directory and fsyncs it, so that a rename or a new entry in it survives a crash. */
export const syncDirectory = async (host: string): Promise<void> => {
  const fh = await fs.open(host, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/**
 * Writes a file atomically: open `tempName` beside it (O_CREAT|O_EXCL|O_WRONLY), fchmod, write,
 * fchown, fsync, close, rename over the target (a symlink there is replaced, not followed), fsync
 * the directory. On failure before the rename the temp file is removed and the target untouched.
 */
export const writeFileAtomic = async (confine: Confinement, path: string, data: Uint8Array, attrs: Attrs, tempName: string): Promise<void> => {
  const { dir } = await parentOf(confine, 'writeFileAtomic', path)
  if (!MachinePath.isName(tempName)) throw Errno.badName('posix', 'writeFileAtomic', path, tempName)
  if (path === '/') throw Errno.failure('EISDIR')
  const parent = MachinePath.dirname(path)
  const host = dir === '/' ? '/' + MachinePath.basename(path) : dir + '/' + MachinePath.basename(path)
  const temp = dir === '/' ? '/' + tempName : dir + '/' + tempName
  const fh = await create(temp, parent, attrs.mode)
  let open = true
  try {
    await fh.chmod(attrs.mode)
    await fh.writeFile(data)
    await fh.chown(attrs.uid, attrs.gid)
    await fh.sync()
    open = false
    await fh.close()
    await fs.rename(temp, host)
  } catch (e) {
    if (open) await fh.close().catch(() => undefined)
    await fs.unlink(temp).catch(() => undefined)
    throw e
  }
  confine.forget(path)
  await syncDirectory(dir)
}

/** Creates a file that must not exist (O_EXCL), writes it and fsyncs it and its directory. */
export const createExclusive = async (confine: Confinement, path: string, data: Uint8Array): Promise<void> => {
  const { dir, host } = await parentOf(confine, 'createExclusive', path)
  // Written in full under a private name, then hard-linked into place: link(2) fails with EEXIST
  // like O_EXCL, and a reader (another apply checking the lock) never sees an empty file.
  const staging = `${host}.${process.pid}.new`
  await fs.unlink(staging).catch(() => undefined) // left by a killed process that had our pid
  const fh = await create(staging, MachinePath.dirname(path), stateMode)
  try {
    try {
      await fh.writeFile(data)
      await fh.sync()
    } finally {
      await fh.close()
    }
    await fs.link(staging, host)
  } finally {
    await fs.unlink(staging).catch(() => undefined)
  }
  await syncDirectory(dir)
}

/** Appends bytes to a file (creating it, mode 0600), then fsyncs it; a symlink is not followed. */
export const append = async (confine: Confinement, path: string, data: Uint8Array): Promise<void> => {
  const { host } = await parentOf(confine, 'append', path)
  let fh: fs.FileHandle
  try {
    fh = await fs.open(host, appendFlags, stateMode)
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT') throw Errno.parentMissing(MachinePath.dirname(path))
    throw e
  }
  try {
    await fh.writeFile(data)
    await fh.sync()
  } finally {
    await fh.close()
  }
}
