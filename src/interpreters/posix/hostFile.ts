// hostFile: reads the host files plait takes as inputs (manifests, data, facts, plan files,
// `source` files, and the files a manifest's expressions read), bounded and regular files only.
//
// A FIFO, a device, a socket or a directory where a file is expected is refused at once (opened
// with O_NONBLOCK, checked with fstat on the handle that is then read), never waited on, and a
// file larger than the limit is refused before it is read. `readBelow` reads a path below a
// directory through handles (see confine.ts): `..` and symlinks cannot lead it outside.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs'
import * as nodePath from 'node:path'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Confine from './confine.js'

/** The largest input file plait reads (512 MiB): plans embed file contents, so they may be large. */
export const maxInput = 512 * 1024 * 1024

/**
 * The largest configuration or metadata file plait reads (16 MiB): Bolt's project, defaults, plugin
 * and task files, its cache, libral's provider metadata, a facts root's files, `./.env`.
 */
export const maxConfig = 16 * 1024 * 1024

/** A read that failed, in words for a person (no stack, no host detail beyond the path). */
export class InputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const readFlags = constants.O_RDONLY | constants.O_NONBLOCK

/** Reads an open regular file whole, refusing anything else. */
const readOpen = (fd: number, limit: number): Uint8Array => {
  const st = fstatSync(fd)
  if (st.isDirectory()) throw new InputError('EISDIR', 'is a directory')
  if (!st.isFile()) throw new InputError('EINVAL', 'is not a regular file (a FIFO, device or socket is never read)')
  if (st.size > limit) throw new InputError('EFBIG', `is larger than the limit of ${limit} bytes`)
  // one byte more than the file: a read that fills it means the file grew while it was read
  let buffer = Buffer.allocUnsafe(st.size + 1)
  let total = 0
  for (;;) {
    if (total === buffer.length) {
      if (total > limit) throw new InputError('EFBIG', `is larger than the limit of ${limit} bytes`)
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1))
      buffer.copy(bigger, 0, 0, total)
      buffer = bigger
    }
    const n = readSync(fd, buffer, total, buffer.length - total, null)
    if (n === 0) break
    total += n
  }
  if (total > limit) throw new InputError('EFBIG', `is larger than the limit of ${limit} bytes`)
  return new Uint8Array(buffer.buffer, buffer.byteOffset, total)
}

/** Reads a host file given by a person (a symlink to it is followed): regular files only, bounded. */
export const read = (path: string, limit: number = maxInput): Uint8Array => {
  const fd = openSync(path, readFlags)
  try {
    return readOpen(fd, limit)
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads a host file as UTF-8 text, as `fs.readFile(path, 'utf8')` would (a byte-order mark kept,
 * bad bytes replaced), but regular files only and bounded: a FIFO is refused, not waited on.
 */
export const readText = (path: string, limit: number = maxConfig): string => {
  const bytes = read(path, limit)
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}

/** The most symlinks followed at the end of a path read below a directory. */
const maxLinks = 40

/**
 * Reads `relative` (a cleaned relative path) below the directory `base`, through handles: the path
 * may not start with `..`, and neither a symlinked directory nor a symlink at the end may lead
 * outside `base`. Regular files only, bounded.
 */
export const readBelow = (base: string, relative: string, limit: number = maxInput): Uint8Array => {
  const root = realpathSync(base)
  const confine = Confine.make(root)
  let machinePath = '/' + nodePath.posix.normalize(relative).replace(/^\/+/, '')
  if (nodePath.posix.normalize(relative).split('/')[0] === '..') throw new InputError('EACCES', 'is outside the manifest directory')
  for (let links = 0; ; links++) {
    if (PosixPath.problem(machinePath) !== undefined) throw new InputError('EINVAL', 'is not a clean relative path')
    const next = confine.atSync('readFile', machinePath, ({ entry }): string | Uint8Array => {
      const st = lstatSync(entry)
      if (!st.isSymbolicLink()) {
        const fd = openSync(entry, readFlags | constants.O_NOFOLLOW)
        try {
          return readOpen(fd, limit)
        } finally {
          closeSync(fd)
        }
      }
      const target = readlinkSync(entry)
      if (target.startsWith('/')) {
        if (target !== root && !target.startsWith(root + '/')) throw new InputError('EACCES', 'is a symlink to outside the manifest directory')
        return nodePath.posix.normalize(target.slice(root.length) || '/')
      }
      const joined = nodePath.posix.normalize(nodePath.posix.join(PosixPath.dirname(machinePath), target))
      if (joined.startsWith('/..') || joined === '..' || joined.startsWith('../')) throw new InputError('EACCES', 'is a symlink to outside the manifest directory')
      return joined
    })
    if (typeof next !== 'string') return next
    if (links >= maxLinks) throw new InputError('ELOOP', 'has too many levels of symbolic links')
    machinePath = next
  }
}

/** The errno code of what a read threw (an InputError's, a Node error's, an Escape fault's). */
export const codeOf = (e: unknown): string | undefined => (e instanceof InputError ? e.code : Errno.isFault(e) && e._tag === 'Escape' ? 'EACCES' : Errno.codeOf(e))
