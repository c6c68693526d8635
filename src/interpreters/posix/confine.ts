// confine: reaches machine paths below a root through open directory handles, never by a
// remembered host path, so that a directory swapped for a symlink cannot redirect an effect.
//
// Every operation walks its path from a fresh handle of the root, one component at a time, each
// opened with O_PATH|O_DIRECTORY|O_NOFOLLOW relative to the handle before it (Node has no *at
// calls; on Linux an open directory is reachable as /proc/self/fd/N, and a lookup of
// /proc/self/fd/N/name happens in that very directory, whatever its path has become). A symlink
// met on the way is followed only when it stays inside the root (relative targets from where it
// is, absolute targets as host paths that must lie below the root); `..` never climbs above the
// root. The operation then acts on `/proc/self/fd/N/name`, N being the final directory's handle:
// a swap of any directory above it, before or during the step, changes nothing. The final
// component is never followed. No resolution outlives the operation that made it: the handles
// are closed when it settles. With root "/" there is nothing to escape, and host paths are used.
import { closeSync, constants, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs'
import * as nodePath from 'node:path'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'

// model

/** Where an operation acts: the final component as a host path, and its directory. */
export interface Place {
  /** The host path of the entry itself, reached through its directory's handle (never followed). */
  readonly entry: string
  /** The host path of the directory holding it (a handle's /proc path when confined). */
  readonly dir: string
  /** The entry's name in that directory ("" for the root itself). */
  readonly name: string
}

export interface Confinement {
  /** The host root, absolute and normalized ("/" when unconfined). */
  readonly root: string
  /**
   * Runs `body` with the place of a machine path: its parent directory is reached through handles
   * and must lie inside the root. Throws an Escape fault for a path that is not clean or leads out
   * of the root, and Node errors (ENOENT, ENOTDIR, ...) when the parent cannot be reached. The
   * handles are closed when `body` settles: nothing of the resolution outlives it.
   */
  readonly at: <A>(op: string, path: string, body: (place: Place) => A | Promise<A>) => Promise<A>
  /** `at` for a synchronous body (reads of small inputs where the caller cannot wait). */
  readonly atSync: <A>(op: string, path: string, body: (place: Place) => A) => A
  /**
   * A batch of observations (never mutations): `atSync` that keeps each parent directory's handle
   * for the rest of the batch, so that the files of one directory cost one walk, not one each.
   * A handle names the directory it was opened on whatever happens to its path afterwards, as in
   * `at`; the batch only lengthens the time it is held, to one observation round. The caller must
   * `close` the batch, which releases every handle.
   */
  readonly batch: () => Batch
}

/** A batch of observations sharing parent directory handles (see Confinement.batch). */
export interface Batch {
  readonly atSync: <A>(op: string, path: string, body: (place: Place) => A) => A
  /**
   * Runs `body` with the host path of the directory at machine path `dir` (a clean path): the
   * /proc path of the handle the batch holds for it when confined, valid only while `body` runs.
   * An entry of the directory is that path joined with its name (PosixPath.join), reached as
   * atSync's `entry` is. Throws, before `body` runs, what atSync would throw for `subject`, a
   * path in `dir` (an Escape fault names it).
   */
  readonly inDirectory: <A>(op: string, subject: string, dir: string, body: (host: string) => A) => A
  readonly close: () => void
}

/** Parent directory handles a batch holds at most (the oldest is closed first): far below any descriptor limit. */
const batchHandles = 64

/** Symlinks followed in one walk before it is refused, as the kernel's limit. */
const maxLinks = 40
/** Linux's O_PATH: a handle that only names a directory (search permission suffices). */
const O_PATH = 0o10000000
const walkFlags = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW

/** Whether /proc/self/fd exists here (checked once). */
let procMounted: boolean | undefined

/** The /proc path of an open handle. */
export const handlePath = (fd: number): string => `/proc/self/fd/${fd}`

/**
 * Where a batch finds its handles in /proc: /proc/PID/fd where /proc shows this process under its
 * pid, so that the kernel need not resolve the /proc/self symlink in each of a batch's thousands of
 * lookups (some 0.4 µs of every open through a handle), else /proc/self/fd (a /proc of another pid
 * namespace). The same handle either way.
 */
let batchFdDirectory: string | undefined
const batchHandlePath = (fd: number): string => {
  if (batchFdDirectory === undefined) {
    let self: string | undefined
    try {
      self = readlinkSync('/proc/self')
    } catch {
      self = undefined
    }
    batchFdDirectory = self === String(process.pid) ? `/proc/${self}/fd` : '/proc/self/fd'
  }
  return `${batchFdDirectory}/${fd}`
}

// constructors

/** A confinement below `root` (a host directory; "/" or undefined for none). */
export const make = (root: string = '/'): Confinement => {
  const hostRoot = nodePath.resolve(root)
  return hostRoot === '/' ? unconfined : confined(hostRoot)
}

/** Throws an Escape fault for a path that is not an absolute clean machine path. */
export const validate = (op: string, path: string): void => {
  const why = PosixPath.problem(path)
  if (why !== undefined) throw Errno.escape('posix', op, path, why)
}

const unconfinedAt = <A>(op: string, path: string, body: (place: Place) => A): A => {
  validate(op, path)
  return body({ entry: path, dir: PosixPath.dirname(path), name: PosixPath.basename(path) })
}

const unconfined: Confinement = Object.freeze({
  root: '/',
  batch: () => ({
    atSync: unconfinedAt,
    inDirectory: <A>(op: string, subject: string, dir: string, body: (host: string) => A): A => {
      validate(op, subject)
      return body(dir)
    },
    close: () => undefined,
  }),
  at: async <A>(op: string, path: string, body: (place: Place) => A | Promise<A>): Promise<A> => {
    validate(op, path)
    return body({ entry: path, dir: PosixPath.dirname(path), name: PosixPath.basename(path) })
  },
  atSync: <A>(op: string, path: string, body: (place: Place) => A): A => {
    validate(op, path)
    return body({ entry: path, dir: PosixPath.dirname(path), name: PosixPath.basename(path) })
  },
})

interface Handle {
  readonly fd: number
  /** The machine path of the directory this handle is open on. */
  readonly path: string
}

const closeAll = (hs: ReadonlyArray<Handle>): void => {
  for (const h of hs) {
    try {
      closeSync(h.fd)
    } catch {
      // already closed: nothing to release
    }
  }
}

const confined = (hostRoot: string): Confinement => {
  const escape = (op: string, subject: string, why: string): Fault.Fault => Fault.make('Escape', 'posix', op, subject, `${why}, outside the root ${hostRoot}`)

  const openRoot = (): Handle => {
    procMounted ??= existsSync('/proc/self/fd')
    if (!procMounted) throw Fault.make('Failed', 'posix', 'confine', hostRoot, 'confinement below a root needs /proc/self/fd (Linux with /proc mounted)')
    try {
      return { fd: openSync(hostRoot, walkFlags), path: '/' }
    } catch (e) {
      throw Fault.make('NotFound', 'posix', 'confine', hostRoot, `the machine root cannot be opened (${Errno.describe(Errno.codeOf(e))})`, e)
    }
  }

  /** Opens the directory at a machine path by handles from the root; the caller closes it. */
  const openDirectory = (op: string, subject: string, dir: string): Handle => {
    const stack: Handle[] = [openRoot()]
    const todo = dir.split('/').filter((s) => s !== '')
    let links = 0
    try {
      while (todo.length > 0) {
        const name = todo.shift()!
        if (name === '.') continue
        const top = stack[stack.length - 1]!
        if (name === '..') {
          if (stack.length === 1) throw escape(op, subject, `${top.path === '/' ? 'a symlink' : top.path} leads above the root`)
          closeAll([stack.pop()!])
          continue
        }
        const here = `${handlePath(top.fd)}/${name}`
        try {
          stack.push({ fd: openSync(here, walkFlags), path: PosixPath.join(top.path, name) })
          continue
        } catch (e) {
          const code = Errno.codeOf(e)
          if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e
        }
        // not a directory: a symlink to follow if it stays inside, anything else ENOTDIR
        const link = PosixPath.join(top.path, name)
        if (!lstatSync(here).isSymbolicLink()) {
          if (todo.length > 0) throw Errno.failure('ENOTDIR')
          // The parent itself is not a directory: hold a handle of it, so that every use of the
          // place fails with ENOTDIR from the kernel (as touching the path would), never elsewhere.
          stack.push({ fd: openSync(here, O_PATH | constants.O_NOFOLLOW), path: link })
          continue
        }
        if (++links > maxLinks) throw Errno.failure('ELOOP', 'too many levels of symbolic links')
        const target = readlinkSync(here)
        if (target.startsWith('/')) {
          if (target !== hostRoot && !target.startsWith(hostRoot + '/')) throw escape(op, subject, `${link} resolves to ${target}`)
          closeAll(stack.splice(1))
          todo.unshift(...target.slice(hostRoot.length).split('/').filter((s) => s !== ''))
        } else todo.unshift(...target.split('/').filter((s) => s !== ''))
      }
    } catch (e) {
      closeAll(stack)
      const code = Errno.codeOf(e)
      if (Errno.isFault(e) || (code !== 'ENOENT' && code !== 'ENOTDIR')) throw e
      throw code === 'ENOENT' ? Errno.parentMissing(dir) : Errno.parentNotDirectory(dir)
    }
    const top = stack.pop()!
    closeAll(stack)
    return top
  }

  /** The place of a path, and how to release the handle that holds it. */
  const place = (op: string, path: string): { readonly place: Place; readonly release: () => void } => {
    validate(op, path)
    if (path === '/') return { place: { entry: hostRoot, dir: nodePath.dirname(hostRoot), name: '' }, release: () => undefined }
    const parent = openDirectory(op, path, PosixPath.dirname(path))
    const dir = handlePath(parent.fd)
    const name = PosixPath.basename(path)
    return { place: { entry: `${dir}/${name}`, dir, name }, release: () => closeAll([parent]) }
  }

  return Object.freeze({
    root: hostRoot,
    at: async <A>(op: string, path: string, body: (place: Place) => A | Promise<A>): Promise<A> => {
      const p = place(op, path)
      try {
        return await body(p.place)
      } finally {
        p.release()
      }
    },
    atSync: <A>(op: string, path: string, body: (place: Place) => A): A => {
      const p = place(op, path)
      try {
        return body(p.place)
      } finally {
        p.release()
      }
    },
    batch: (): Batch => {
      // Each parent directory is walked once; a walk that failed is not kept (it is asked again).
      const held = new Map<string, Handle>()
      /** The handle of directory `dir`, walked to for `subject` unless it is held already. */
      const parent = (op: string, subject: string, dir: string): Handle => {
        let h = held.get(dir)
        if (h === undefined) {
          h = openDirectory(op, subject, dir)
          if (held.size >= batchHandles) {
            const [oldest, old] = held.entries().next().value!
            held.delete(oldest)
            closeAll([old])
          }
          held.set(dir, h)
        }
        return h
      }
      return {
        atSync: <A>(op: string, path: string, body: (place: Place) => A): A => {
          validate(op, path)
          if (path === '/') return body({ entry: hostRoot, dir: nodePath.dirname(hostRoot), name: '' })
          const dir = batchHandlePath(parent(op, path, PosixPath.dirname(path)).fd)
          const name = PosixPath.basename(path)
          return body({ entry: `${dir}/${name}`, dir, name })
        },
        inDirectory: <A>(op: string, subject: string, dir: string, body: (host: string) => A): A => {
          validate(op, subject)
          return body(batchHandlePath(parent(op, subject, dir).fd))
        },
        close: () => {
          closeAll([...held.values()])
          held.clear()
        },
      }
    },
  })
}
