// entry: what one directory entry is, reached by a host path that a confinement gave (a handle's
// /proc path below a root): the lstat that tells its kind, and for a regular file the open without
// following, the fstat of the handle and the read, hashed as it is read; for a directory whether it
// is empty. probe.ts asks it for each path, alone or in a batch.
//
// These functions throw (Node errors, Faults); posix.ts turns what they throw into Fault values.
import * as crypto from 'node:crypto'
import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync, readlinkSync, readSync, type Stats } from 'node:fs'
import * as Digest from '../../core/Digest.js'
import * as Errno from '../Errno.js'
import type { Entry, EntryKind, Probe, ProbeOptions } from '../Machine.js'
import { handlePath } from './confine.js'
import type * as Listing from './listing.js'

/** Files up to this size are read whole; larger ones are hashed in chunks unless their bytes are wanted. */
const wholeLimit = 16 * 1024 * 1024
const chunk = 1024 * 1024
const defaultContentLimit = 1024 * 1024
/** How a file is opened to be read: never through a symlink, never waiting (on a FIFO swapped in). */
export const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
/** How a directory is opened to be read: never through a symlink. */
export const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

/** The probe of a path where nothing is. */
export const absent: Probe = Object.freeze({ _tag: 'Absent' })

const kindOf = (st: Stats): EntryKind =>
  st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other'

const entryOf = (st: Stats, kind: EntryKind, size: number = st.size): Entry =>
  Object.freeze({ kind, uid: st.uid, gid: st.gid, mode: st.mode & 0o777, size })

/** A Uint8Array view of a Buffer's bytes (no copy), so callers see one type whatever the interpreter. */
export const view = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

/**
 * Reads an open file to its end. `size` (from fstat) sizes the buffer one byte larger than the file,
 * so a file that has not changed size is read in one call: a read shorter than asked that returns
 * exactly `size` bytes is its end. A file that grew or shrank meanwhile is read until a read returns 0.
 */
export const readAll = (fd: number, size: number): Buffer => {
  let buffer = Buffer.allocUnsafe(size + 1)
  let total = 0
  for (;;) {
    if (total === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2)
      buffer.copy(bigger, 0, 0, total)
      buffer = bigger
    }
    const want = buffer.length - total
    const n = readSync(fd, buffer, total, want, null)
    if (n === 0) break
    total += n
    if (n < want && total === size) break
  }
  return buffer.subarray(0, total)
}

/** Reads (or streams) an open file: its sha256 and, when `keep`, its bytes. */
const hashFile = (fd: number, size: number, keep: boolean): { sha256: string; bytes?: Uint8Array; size: number } => {
  if (keep || size <= wholeLimit) {
    const data = readAll(fd, size)
    const digest = Digest.sha256(data)
    return keep ? { sha256: digest, bytes: view(data), size: data.length } : { sha256: digest, size: data.length }
  }
  const hash = crypto.createHash('sha256')
  const buffer = Buffer.allocUnsafe(chunk)
  let total = 0
  for (;;) {
    const bytesRead = readSync(fd, buffer, 0, chunk, null)
    if (bytesRead === 0) break
    hash.update(buffer.subarray(0, bytesRead))
    total += bytesRead
  }
  return { sha256: hash.digest('hex'), size: total }
}

/**
 * Probes an entry that its directory's listing says is a regular file: opened at once, without the
 * lstat that would otherwise say so first (O_NOFOLLOW|O_NONBLOCK, as always). The listing is only a
 * hint: fstat of the handle decides what was opened, and an entry that cannot be opened or is no
 * longer a regular file is probed as any other, the lstat deciding. The kind could change between
 * an lstat and the open as well: opening on the listing's word gives no weaker guarantee.
 */
export const probeListedFile = (entry: string, path: string, options: ProbeOptions, listed: Listed): Probe => {
  let fd: number
  try {
    fd = openSync(entry, readFlags)
  } catch {
    return probeEntry(entry, path, options, listed)
  }
  try {
    const st = fstatSync(fd)
    if (st.isFile()) return fileProbe(fd, st, options)
  } finally {
    closeSync(fd)
  }
  return probeEntry(entry, path, options, listed)
}

/** The probe of a regular file open as `fd` (`st`: its fstat), hashed as it is read. */
const fileProbe = (fd: number, st: Stats, options: ProbeOptions): Probe => {
  const limit = options.contentLimit ?? defaultContentLimit
  const wanted = options.contentUnless !== undefined && st.size <= limit
  const read = hashFile(fd, st.size, wanted)
  const entry = entryOf(st, 'file', read.size)
  const content = wanted && read.bytes !== undefined && read.sha256 !== options.contentUnless && read.size <= limit ? read.bytes : undefined
  return Object.freeze({
    _tag: 'File',
    probe: Object.freeze(content === undefined ? { entry, sha256: read.sha256 } : { entry, sha256: read.sha256, content }),
  })
}

/** Listings a batch made, by the machine path of the directory listed. */
export type Listed = ReadonlyMap<string, Listing.Listing>

/**
 * Whether the directory open as `fd` (`st`: its fstat; `path`: its machine path) is empty. A listing
 * the batch made of the very same directory (same device and inode: a directory swapped in since
 * is read anew) says so without a second read, which costs as much as the listing on ext4.
 */
const isEmpty = (fd: number, st: Stats, path: string, listed: Listed | undefined): boolean => {
  const listing = listed?.get(path)
  if (listing !== undefined && listing.dev === st.dev && listing.ino === st.ino) return listing.empty
  const dir = opendirSync(handlePath(fd), { bufferSize: 4 })
  try {
    return dir.readSync() === null
  } finally {
    dir.closeSync()
  }
}

/** Probes the entry at host path `host` (`path`: its machine path, for messages; `listed`: a batch's listings). */
export const probeEntry = (host: string, path: string, options: ProbeOptions, listed?: Listed): Probe => {
  const st = lstatSync(host, { throwIfNoEntry: false }) // a missing path is common (plans of new files): no Error for it
  if (st === undefined) return absent
  const kind = kindOf(st)
  switch (kind) {
    case 'file': {
      const fd = openSync(host, readFlags)
      try {
        const fst = fstatSync(fd)
        if (!fst.isFile()) throw Errno.failure('EAGAIN', `${path} changed while it was observed`)
        return fileProbe(fd, fst, options)
      } finally {
        closeSync(fd)
      }
    }
    case 'directory': {
      const fd = openSync(host, dirFlags)
      try {
        const dst = fstatSync(fd)
        return Object.freeze({ _tag: 'Directory', entry: entryOf(dst, kind), empty: isEmpty(fd, dst, path, listed) })
      } finally {
        closeSync(fd)
      }
    }
    case 'symlink':
      return Object.freeze({ _tag: 'Symlink', entry: entryOf(st, kind), target: readlinkSync(host) })
    case 'other':
      return Object.freeze({ _tag: 'Other', entry: entryOf(st, kind) })
  }
}
