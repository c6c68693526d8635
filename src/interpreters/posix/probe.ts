// probe: the observing primitives of the posix machine (probe, readFile, readdir), the hot path of
// `plait plan`: one lstat, and for a regular file one open, read and close, hashed as it is read.
// The probe makes its system calls synchronously: for the small files a manifest manages, a
// promise per call costs more than the call, and the caller already bounds how many run at once.
//
// These functions throw (Node errors, Faults); posix.ts turns what they throw into Fault values.
import * as crypto from 'node:crypto'
import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync, readdirSync, readlinkSync, readSync, type Stats } from 'node:fs'
import * as Errno from '../Errno.js'
import type { Entry, EntryKind, Probe, ProbeOptions } from '../Machine.js'
import { handlePath, type Confinement, type Place } from './confine.js'

/** Files up to this size are read whole; larger ones are hashed in chunks unless their bytes are wanted. */
const wholeLimit = 16 * 1024 * 1024
const chunk = 1024 * 1024
const defaultContentLimit = 1024 * 1024
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

const absent: Probe = Object.freeze({ _tag: 'Absent' })

/** Hex sha256 of bytes: the one-shot crypto.hash where this Node has it (20.12+), else a Hash object. */
const sha256: (data: Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex')

const kindOf = (st: Stats): EntryKind =>
  st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other'

const entryOf = (st: Stats, kind: EntryKind, size: number = st.size): Entry =>
  Object.freeze({ kind, uid: st.uid, gid: st.gid, mode: st.mode & 0o777, size })

/** A Uint8Array view of a Buffer's bytes (no copy), so callers see one type whatever the interpreter. */
export const view = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

/**
 * Reads an open file to its end. `size` (from lstat) sizes the buffer one byte larger than the file,
 * so a file that has not changed size is read in one call: a read shorter than asked that returns
 * exactly `size` bytes is its end. A file that grew or shrank meanwhile is read until a read returns 0.
 */
const readAll = (fd: number, size: number): Buffer => {
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
    const digest = sha256(data)
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
 * lstat + (for regular files) read + sha256; Absent when the path or its parent chain is missing.
 * What is read is what was opened: the entry is opened without following a symlink and described
 * by fstat of that handle, so a swap between the lstat and the open cannot show another file.
 */
export const probe = async (confine: Confinement, path: string, options: ProbeOptions = {}): Promise<Probe> => {
  try {
    return await confine.at('probe', path, probeAt(path, options))
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return absent
    throw e
  }
}

/** What probing one path gave: its probe, or what was thrown (posix.ts makes a Fault of it). */
export type Probed = { readonly ok: true; readonly probe: Probe } | { readonly ok: false; readonly error: unknown }

/**
 * Probes many paths in one synchronous pass that shares parent directory handles (a confinement
 * batch): the files of one directory cost one walk from the root, and no promise is made per file.
 * Each path gets the answer `probe` would give it.
 */
export const probeAll = (confine: Confinement, requests: ReadonlyArray<{ readonly path: string; readonly options?: ProbeOptions }>): ReadonlyArray<Probed> => {
  const batch = confine.batch()
  // Paths are taken directory by directory (a manifest may list them in any order), so that each
  // parent is walked once while the batch holds only a few handles; answers keep the asked order.
  const parents = requests.map((r) => r.path.slice(0, r.path.lastIndexOf('/')))
  const order = requests.map((_, i) => i).sort((x, y) => (parents[x]! < parents[y]! ? -1 : parents[x]! > parents[y]! ? 1 : x - y))
  const out = new Array<Probed>(requests.length)
  try {
    for (const i of order) {
      const { path, options } = requests[i]!
      try {
        out[i] = { ok: true, probe: batch.atSync('probe', path, probeAt(path, options ?? {})) }
      } catch (e) {
        const code = Errno.codeOf(e)
        out[i] = code === 'ENOENT' || code === 'ENOTDIR' ? { ok: true, probe: absent } : { ok: false, error: e }
      }
    }
    return out
  } finally {
    batch.close()
  }
}

/** Probes the entry of a place (found by `at` or a batch). */
const probeAt =
  (path: string, options: ProbeOptions) =>
  ({ entry: host }: Place): Probe => {
    const st = lstatSync(host, { throwIfNoEntry: false }) // a missing path is common (plans of new files): no Error for it
    if (st === undefined) return absent
    const kind = kindOf(st)
    switch (kind) {
      case 'file': {
        const fd = openSync(host, readFlags)
        try {
          const fst = fstatSync(fd)
          if (!fst.isFile()) throw Errno.failure('EAGAIN', `${path} changed while it was observed`)
          const limit = options.contentLimit ?? defaultContentLimit
          const wanted = options.contentUnless !== undefined && fst.size <= limit
          const read = hashFile(fd, fst.size, wanted)
          const entry = entryOf(fst, kind, read.size)
          const content = wanted && read.bytes !== undefined && read.sha256 !== options.contentUnless && read.size <= limit ? read.bytes : undefined
          return Object.freeze({
            _tag: 'File',
            probe: Object.freeze(content === undefined ? { entry, sha256: read.sha256 } : { entry, sha256: read.sha256, content }),
          })
        } finally {
          closeSync(fd)
        }
      }
      case 'directory': {
        const fd = openSync(host, dirFlags)
        try {
          const dir = opendirSync(handlePath(fd), { bufferSize: 4 })
          try {
            return Object.freeze({ _tag: 'Directory', entry: entryOf(fstatSync(fd), kind), empty: dir.readSync() === null })
          } finally {
            dir.closeSync()
          }
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

/** Files that readFile reads whole: state files and backups of managed files are far smaller. */
export const readLimit = 256 * 1024 * 1024

/** Reads a whole regular file (a symlink at the path is not followed, a FIFO or device refused). */
export const readFile = (confine: Confinement, path: string): Promise<Uint8Array> =>
  confine.at('readFile', path, ({ entry }) => {
    const fd = openSync(entry, readFlags)
    try {
      const st = fstatSync(fd)
      if (!st.isFile()) throw Errno.failure(st.isDirectory() ? 'EISDIR' : 'EINVAL', `${path} is not a regular file`)
      if (st.size > readLimit) throw Errno.failure('EFBIG', `${path} is larger than ${readLimit} bytes`)
      return view(readAll(fd, st.size))
    } finally {
      closeSync(fd)
    }
  })

/** Lists a directory's entry names, sorted; a symlink at the path is not a directory. */
export const readdir = (confine: Confinement, path: string): Promise<ReadonlyArray<string>> =>
  confine.at('readdir', path, ({ entry }) => {
    let fd: number
    try {
      fd = openSync(entry, dirFlags)
    } catch (e) {
      if (Errno.codeOf(e) === 'ELOOP') throw Errno.failure('ENOTDIR')
      throw e
    }
    try {
      return Object.freeze(readdirSync(handlePath(fd)).sort())
    } finally {
      closeSync(fd)
    }
  })
