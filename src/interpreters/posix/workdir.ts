// workdir: the process's working directory, lent to a batch of probes while it looks up the
// entries of one directory (confine.ts, `Batch.inDirectory`).
//
// Node has no openat. A batch reaches a directory's entries through its handle's /proc path,
// /proc/PID/fd/N/NAME, and the kernel walks /proc, the pid's directory, fd and the handle's link
// before it looks NAME up: a fifth of what an open of a small file costs (19 ms of the 10,000 files
// of the bench). The working directory is a handle too. Moved into the directory of handle N (a
// chdir to its /proc path, which the kernel resolves to the very directory the handle is open on,
// whatever its path has become), a lookup of "./NAME" happens in that directory, as one through
// /proc/PID/fd/N/NAME does, and walks nothing else. A symlink at NAME is still never followed: the
// probes open with O_NOFOLLOW and lstat, whichever way the name is reached.
//
// The working directory belongs to the whole process, so it is lent only for a synchronous stretch
// (a directory's probes, in which no other code of the process runs) and given back at its end,
// through a handle of the directory it was (opened at the first loan: a working directory renamed
// meanwhile is given back all the same). A thread that cannot change it (a worker's), or a process
// whose working directory cannot be named or entered again, lends nothing: the batch then uses the
// /proc paths. Should the way back fail after all (its search permission taken away between two
// system calls), the directory's path is tried, then "/", so that no relative path of the process
// is ever resolved in a directory below a machine root; the batch's probes then fail with a fault
// that says so.
import { closeSync, constants, openSync } from 'node:fs'
import * as Errno from '../Errno.js'

/** The process's working directory as a batch borrows it. */
export interface Loan {
  /** Moves the working directory into the directory open as `fd` (its /proc path: `at(fd)`); false where it cannot, nothing moved. */
  readonly enter: (fd: number) => boolean
  /** Moves it back to where it was before the first `enter`. Throws (a Failure) where that is impossible. */
  readonly leave: () => void
  /** Releases the handle of where it was: after the batch. */
  readonly close: () => void
}

/** How the working directory is changed and named: the process's own, or a test's. */
export interface Chdir {
  readonly chdir: (path: string) => void
  readonly cwd: () => string
}

const processDirectory: Chdir = { chdir: (path) => process.chdir(path), cwd: () => process.cwd() }

/** Linux's O_PATH: a handle that only names a directory. */
const O_PATH = 0o10000000

/**
 * A loan of the working directory for one batch; `at` is the /proc path of a handle (confine.ts
 * gives /proc/PID/fd/N).
 */
export const lend = (at: (fd: number) => string, dir: Chdir = processDirectory): Loan => {
  // the handle and path of where the working directory was; undefined before the first enter
  let home: { readonly fd: number; readonly path: string } | undefined
  let usable = true
  const close = (): void => {
    if (home === undefined) return
    try {
      closeSync(home.fd)
    } catch {
      // already closed
    }
    home = undefined
  }
  return {
    enter: (fd) => {
      if (!usable) return false
      try {
        if (home === undefined) {
          const path = dir.cwd()
          home = { fd: openSync('.', O_PATH | constants.O_DIRECTORY), path }
          // the way back is taken once before any other: a working directory that cannot be
          // entered again through its handle is never left
          dir.chdir(at(home.fd))
        }
        dir.chdir(at(fd))
        return true
      } catch {
        usable = false
        close()
        return false
      }
    },
    leave: () => {
      const back = home!
      try {
        dir.chdir(at(back.fd))
        return
      } catch (e) {
        usable = false
        try {
          dir.chdir(back.path)
          return
        } catch {
          try {
            dir.chdir('/')
          } catch {
            // "/" cannot be refused a search; nothing else to try
          }
          throw Errno.failure(Errno.codeOf(e) ?? 'EACCES', `the working directory ${back.path} could not be entered again after a probe; plait moved to /`)
        }
      }
    },
    close,
  }
}
