// probe: the observing primitives of the posix machine (probe, probeAll, readFile, readdir), the hot
// path of `plait plan`: each path's parent reached through confinement, the entry itself examined by
// entry.ts (one lstat, and for a regular file one open, read and close, hashed as it is read). The
// probe makes its system calls synchronously: for the small files a manifest manages, a promise per
// call costs more than the call, and the caller already bounds how many run at once.
//
// These functions throw (Node errors, Faults); posix.ts turns what they throw into Fault values.
import { closeSync, fstatSync, openSync, readdirSync } from 'node:fs'
import * as Errno from '../Errno.js'
import type { Probe, ProbeOptions } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import { handlePath, type Batch, type Confinement } from './confine.js'
import { absent, dirFlags, probeEntry, probeListedFile, readAll, readFlags, view } from './entry.js'
import * as Listing from './listing.js'

export { view } from './entry.js'

/**
 * lstat + (for regular files) read + sha256; Absent when the path or its parent chain is missing.
 * What is read is what was opened: the entry is opened without following a symlink and described
 * by fstat of that handle, so a swap between the lstat and the open cannot show another file.
 */
export const probe = async (confine: Confinement, path: string, options: ProbeOptions = {}): Promise<Probe> => {
  try {
    return await confine.at('probe', path, ({ entry }) => probeEntry(entry, path, options))
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return absent
    throw e
  }
}

/** What probing one path gave: its probe, or what was thrown (posix.ts makes a Fault of it). */
export type Probed = { readonly ok: true; readonly probe: Probe } | { readonly ok: false; readonly error: unknown }

const absentProbed: Probed = Object.freeze({ ok: true, probe: absent })

/** What a probe that threw gives: Absent where the path or its parent chain is missing, as `probe` says. */
const failed = (e: unknown): Probed => {
  const code = Errno.codeOf(e)
  return code === 'ENOENT' || code === 'ENOTDIR' ? absentProbed : { ok: false, error: e }
}

type Request = { readonly path: string; readonly options?: ProbeOptions }

/**
 * Probes many paths in one synchronous pass that shares parent directory handles (a confinement
 * batch): the files of one directory cost one walk from the root, and no promise is made per file.
 * Where many files of one directory are asked, one listing of it tells which are regular files,
 * which are then opened without an lstat each (listing.ts), and whether it is empty, should it be
 * probed itself: directories are taken deepest first for that. Each path gets the answer `probe`
 * would give it.
 */
export const probeAll = (confine: Confinement, requests: ReadonlyArray<Request>): ReadonlyArray<Probed> => {
  const out = new Array<Probed>(requests.length)
  const listed = new Map<string, Listing.Listing>()
  const batch = confine.batch()
  try {
    for (const [dir, members] of byParent(requests)) {
      if (dir !== '' && inDirectory(batch, dir, members, requests, out, listed)) continue
      for (const i of members) {
        const { path, options } = requests[i]!
        try {
          out[i] = { ok: true, probe: batch.atSync('probe', path, ({ entry }) => probeEntry(entry, path, options ?? {}, listed)) }
        } catch (e) {
          out[i] = failed(e)
        }
      }
    }
    return out
  } finally {
    batch.close()
  }
}

/**
 * The requests' indexes by parent directory, deepest directories first (see probeAll), else in the
 * order first asked, so that each parent is walked once while the batch holds few handles (answers
 * keep the asked order). Under "": "/" and the paths that are not clean machine paths, probed one
 * by one to fail as `probe` does.
 */
const byParent = (requests: ReadonlyArray<Request>): ReadonlyArray<[string, number[]]> => {
  const groups = new Map<string, number[]>()
  let last: number[] = []
  let lastDir = ''
  for (let i = 0; i < requests.length; i++) {
    const path = requests[i]!.path
    // PosixPath.problem(path) === undefined, in one scan without the array of segments it makes
    const clean = typeof path === 'string' && path !== '/' && PosixPath.isCleanAbsolute(path) && !path.includes('\0')
    const dir = clean ? PosixPath.dirname(path) : ''
    // a manifest mostly lists a directory's files together: the group of the request before, found without a lookup
    if (dir === lastDir && last.length > 0) last.push(i)
    else {
      const group = groups.get(dir)
      if (group === undefined) groups.set(dir, (last = [i]))
      else (last = group).push(i)
      lastDir = dir
    }
  }
  const depth = (dir: string): number => (dir === '/' ? 0 : dir.split('/').length - 1)
  return [...groups].map((g) => ({ g, depth: depth(g[0]) })).sort((x, y) => y.depth - x.depth).map((x) => x.g)
}

/**
 * Probes `members` (clean paths, all in directory `dir`) through the batch's one handle of it, and
 * records the directory's listing in `listed` when one was made. False, with nothing answered, when
 * the walk to `dir` failed with a fault that names its path: each member then meets it on its own.
 * A missing parent makes every member Absent, as `probe` finds it.
 */
const inDirectory = (
  batch: Batch,
  dir: string,
  members: ReadonlyArray<number>,
  requests: ReadonlyArray<Request>,
  out: Probed[],
  listed: Map<string, Listing.Listing>,
): boolean => {
  const cut = dir === '/' ? 1 : dir.length + 1
  try {
    batch.inDirectory('probe', requests[members[0]!]!.path, dir, (host) => {
      const listing = Listing.list(host, members.length)
      if (listing !== undefined) listed.set(dir, listing)
      for (const i of members) {
        const { path, options } = requests[i]!
        const name = path.slice(cut)
        const entry = PosixPath.join(host, name)
        try {
          out[i] = { ok: true, probe: listing?.files.has(name) === true ? probeListedFile(entry, path, options ?? {}, listed) : probeEntry(entry, path, options ?? {}, listed) }
        } catch (e) {
          out[i] = failed(e)
        }
      }
    })
    return true
  } catch (e) {
    if (Errno.isFault(e)) return false
    const answer = failed(e)
    for (const i of members) out[i] = answer
    return true
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
