// probe: the observing primitives of the posix machine (probe, readFile, readdir), the hot path of
// `plait plan`: one lstat, and for a regular file one open, read and close, hashed as it is read.
//
// These functions throw (Node errors, Faults); posix.ts turns what they throw into Fault values.
import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as Errno from '../Errno.js'
import type { Entry, EntryKind, Probe, ProbeOptions } from '../Machine.js'
import type { Confinement } from './confine.js'

/** Files up to this size are read whole; larger ones are hashed in chunks unless their bytes are wanted. */
const wholeLimit = 16 * 1024 * 1024
const chunk = 1024 * 1024
const defaultContentLimit = 1024 * 1024
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

const absent: Probe = Object.freeze({ _tag: 'Absent' })

const kindOf = (st: import('node:fs').Stats): EntryKind =>
  st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other'

const entryOf = (st: import('node:fs').Stats, kind: EntryKind, size: number = st.size): Entry =>
  Object.freeze({ kind, uid: st.uid, gid: st.gid, mode: st.mode & 0o777, size })

/** A Uint8Array view of a Buffer's bytes (no copy), so callers see one type whatever the interpreter. */
export const view = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

/** Reads (or streams) an open file: its sha256 and, when `keep`, its bytes. */
const hashHandle = async (fh: fs.FileHandle, size: number, keep: boolean): Promise<{ sha256: string; bytes?: Uint8Array; size: number }> => {
  if (keep || size <= wholeLimit) {
    const data = await fh.readFile()
    const sha256 = createHash('sha256').update(data).digest('hex')
    return keep ? { sha256, bytes: view(data), size: data.length } : { sha256, size: data.length }
  }
  const hash = createHash('sha256')
  const buffer = Buffer.allocUnsafe(chunk)
  let total = 0
  for (;;) {
    const { bytesRead } = await fh.read(buffer, 0, chunk, null)
    if (bytesRead === 0) break
    hash.update(buffer.subarray(0, bytesRead))
    total += bytesRead
  }
  return { sha256: hash.digest('hex'), size: total }
}

/** lstat + (for regular files) read + sha256; Absent when the path or its parent chain is missing. */
export const probe = async (confine: Confinement, path: string, options: ProbeOptions = {}): Promise<Probe> => {
  try {
    const host = await confine.locate('probe', path)
    const st = await fs.lstat(host)
    const kind = kindOf(st)
    switch (kind) {
      case 'file': {
        const limit = options.contentLimit ?? defaultContentLimit
        const wanted = options.contentUnless !== undefined && st.size <= limit
        const fh = await fs.open(host, readFlags)
        try {
          const read = await hashHandle(fh, st.size, wanted)
          const entry = entryOf(st, kind, read.size)
          const content = wanted && read.bytes !== undefined && read.sha256 !== options.contentUnless && read.size <= limit ? read.bytes : undefined
          return Object.freeze({
            _tag: 'File',
            probe: Object.freeze(content === undefined ? { entry, sha256: read.sha256 } : { entry, sha256: read.sha256, content }),
          })
        } finally {
          await fh.close()
        }
      }
      case 'directory': {
        const dir = await fs.opendir(host, { bufferSize: 4 })
        try {
          const first = await dir.read()
          return Object.freeze({ _tag: 'Directory', entry: entryOf(st, kind), empty: first === null })
        } finally {
          await dir.close()
        }
      }
      case 'symlink':
        return Object.freeze({ _tag: 'Symlink', entry: entryOf(st, kind), target: await fs.readlink(host) })
      case 'other':
        return Object.freeze({ _tag: 'Other', entry: entryOf(st, kind) })
    }
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return absent
    throw e
  }
}

/** Reads a whole regular file; a symlink at the path is not followed. */
export const readFile = async (confine: Confinement, path: string): Promise<Uint8Array> => {
  const host = await confine.locate('readFile', path)
  const fh = await fs.open(host, readFlags)
  try {
    return view(await fh.readFile())
  } finally {
    await fh.close()
  }
}

/** Lists a directory's entry names, sorted; a symlink at the path is not a directory. */
export const readdir = async (confine: Confinement, path: string): Promise<ReadonlyArray<string>> => {
  const host = await confine.locate('readdir', path)
  const st = await fs.lstat(host)
  if (!st.isDirectory()) throw Errno.failure('ENOTDIR')
  return Object.freeze((await fs.readdir(host)).sort())
}
