// confine: reaches machine paths below a root through open directory handles, never by a
// remembered host path, so that a directory swapped for a symlink cannot redirect an effect.
//
// Every operation walks its path from a fresh handle of the root, one component at a time, each
// opened with O_PATH|O_DIRECTORY|O_NOFOLLOW relative to the handle before it (Node has no *at
// calls; on Linux an open directory is reachable as /proc/self/fd/N, and a lookup of
// /proc/self/fd/N/name happens in that very directory, whatever its path has become). A symlink
// met on the way is followed only when it stays inside the root (relative targets from where it
// is, absolute targets as host paths that must lie below the root); `..` never climbs above the
// root. The operation then acts on `/proc/self/fd/N/name`, N being the final directory's handle
// (or, in a batch's look at one directory, on `./name` with the working directory moved into that
// handle: workdir.ts): a swap of any directory above it, before or during the step, changes
// nothing. The final component is never followed. No resolution outlives the operation that made
// it (the handles are closed when it settles) unless a batch of observations or a hold (one apply
// batch) keeps parent handles for their duration. With root "/" there is nothing to escape, and
// host paths are used.
import { constants, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs'
import * as nodePath from 'node:path'
import * as Fault from '../../core/Fault.js'
import * as Append from '../../core/Append.js'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'
import { closeAll, keeper, type Handle, type Keeper } from './handles.js'
import * as Workdir from './workdir.js'

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
  /**
   * From now until the returned function is called, `at` and `atSync` keep the parent directory
   * handles they walk to and share them, so that the operations of one apply batch on the files
   * of one directory cost one walk, not two each (the executor holds for one batch: see
   * docs/apply.md). As with `batch`, a handle names the directory that was reached from the root
   * without following a symlink out of it, whatever happens to its path afterwards; holding only
   * lengthens the time it is held. A handle is closed only when no operation is using it. Holds
   * nest: the handles are released when the outermost one is.
   */
  readonly hold: () => () => void
}

/** A batch of observations sharing parent directory handles (see Confinement.batch). */
export interface Batch {
  readonly atSync: <A>(op: string, path: string, body: (place: Place) => A) => A
  /**
   * Runs `body` (synchronous: it must not keep the path for later) with the host path of the
   * directory at machine path `dir` (a clean path), valid only while `body` runs. Confined, that
   * is "." with the process's working directory moved into the handle the batch holds for the
   * directory (workdir.ts), else that handle's /proc path where the working directory cannot be
   * lent. An entry of the directory is that path joined with its name (PosixPath.join), reached as
   * atSync's `entry` is. Throws, before `body` runs, what atSync would throw for `subject`, a
   * path in `dir` (an Escape fault names it).
   */
  readonly inDirectory: <A>(op: string, subject: string, dir: string, body: (host: string) => A) => A
  readonly close: () => void
}

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
  hold: () => () => undefined,
})

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
    // the names still to walk, the next one last (a stack: a symlink's target pushes its names)
    const todo = dir
      .split('/')
      .filter((s) => s !== '')
      .reverse()
    let links = 0
    try {
      while (todo.length > 0) {
        const name = todo.pop()!
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
          Append.append(todo, target.slice(hostRoot.length).split('/').filter((s) => s !== '').reverse())
        } else Append.append(todo, target.split('/').filter((s) => s !== '').reverse())
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

  /** The root as the kernel names it (any symlink in `hostRoot` resolved), read once from a handle of it. */
  let kernelRoot: string | undefined
  const rootName = (): string => {
    if (kernelRoot === undefined) {
      const h = openRoot()
      try {
        kernelRoot = readlinkSync(handlePath(h.fd))
      } finally {
        closeAll([h])
      }
    }
    return kernelRoot
  }

  /**
   * Whether a kept handle's directory still lies below the root. A directory moved out of the
   * root (or removed) after it was walked to must not take the later operations of a batch or a
   * hold with it: a handle is asked where its directory is now (one readlink of its /proc link)
   * before each use, and one that is no longer below the root is walked to again.
   */
  const stillInside = (h: Handle): boolean => {
    let now: string
    try {
      now = readlinkSync(handlePath(h.fd))
    } catch {
      return false
    }
    const root = rootName()
    return !now.endsWith(' (deleted)') && (now === root || now.startsWith(root + '/'))
  }

  /** The handles of the current hold, and how many holds are open. */
  let holding: Keeper | undefined
  let holds = 0

  /** The place of a path, and how to release the handle that holds it. */
  const place = (op: string, path: string): { readonly place: Place; readonly release: () => void } => {
    validate(op, path)
    if (path === '/') return { place: { entry: hostRoot, dir: nodePath.dirname(hostRoot), name: '' }, release: () => undefined }
    const name = PosixPath.basename(path)
    if (holding !== undefined) {
      const h = holding
      const e = h.take(op, path, PosixPath.dirname(path))
      const dir = batchHandlePath(e.h.fd)
      return { place: { entry: `${dir}/${name}`, dir, name }, release: () => h.put(e) }
    }
    const parent = openDirectory(op, path, PosixPath.dirname(path))
    const dir = handlePath(parent.fd)
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
      // within a hold, a batch shares the hold's handles (closed when the hold ends)
      const shared = holding
      const h = shared ?? keeper(openDirectory, stillInside)
      /** Runs `body` with directory `dir`'s handle, walked to for `subject` unless held already. */
      const within = <A>(op: string, subject: string, dir: string, body: (fd: number) => A): A => {
        const e = h.take(op, subject, dir)
        try {
          return body(e.h.fd)
        } finally {
          h.put(e)
        }
      }
      // the working directory, lent to inDirectory's bodies (workdir.ts)
      const loan = Workdir.lend(batchHandlePath)
      return {
        atSync: <A>(op: string, path: string, body: (place: Place) => A): A => {
          validate(op, path)
          if (path === '/') return body({ entry: hostRoot, dir: nodePath.dirname(hostRoot), name: '' })
          const name = PosixPath.basename(path)
          return within(op, path, PosixPath.dirname(path), (fd) => {
            const dir = batchHandlePath(fd)
            return body({ entry: `${dir}/${name}`, dir, name })
          })
        },
        inDirectory: <A>(op: string, subject: string, dir: string, body: (host: string) => A): A => {
          validate(op, subject)
          return within(op, subject, dir, (fd) => {
            if (!loan.enter(fd)) return body(batchHandlePath(fd))
            try {
              return body('.')
            } finally {
              loan.leave()
            }
          })
        },
        close: () => {
          loan.close()
          if (shared === undefined) h.end()
        },
      }
    },
    hold: (): (() => void) => {
      holds += 1
      holding ??= keeper(openDirectory, stillInside)
      let released = false
      return () => {
        if (released) return
        released = true
        holds -= 1
        if (holds === 0) {
          holding?.end()
          holding = undefined
        }
      }
    },
  })
}
