// handles: directory handles as confine.ts walks to them, and a keeper of them for a while (a batch
// of probes, or an apply batch's hold): each directory walked to once and shared by the operations
// in that while, a handle in use never closed, one no longer where it was walked to again.
//
// These functions throw what the walk throws (Node errors, Faults); posix.ts turns them into Faults.
import { closeSync } from 'node:fs'

// model

/** An open handle of a directory (O_PATH), reached from the root by confine's walk. */
export interface Handle {
  readonly fd: number
  /** The machine path of the directory this handle is open on. */
  readonly path: string
}

/** A parent directory handle kept by a keeper, and how many operations are using it. */
export interface Held {
  readonly dir: string
  readonly h: Handle
  users: number
}

/** Handles kept for a while and shared by the operations in it (see `keeper`). */
export interface Keeper {
  /** The handle of directory `dir`, walked to for `subject` (an operation's path) unless kept and still where it was; the caller `put`s it back. */
  readonly take: (op: string, subject: string, dir: string) => Held
  /** Gives back a handle `take` gave: closed once no operation uses it, if it is no longer kept. */
  readonly put: (e: Held) => void
  /** Closes every kept handle (one in use when its last user is done); from then on nothing is kept. */
  readonly end: () => void
}

/**
 * Parent directory handles a keeper keeps at most (the oldest unused one is closed first): far
 * below any descriptor limit (Node raises its soft limit to the hard one, at least 1,024). It is
 * the number of directories a run can cycle through at no cost: the files of a plan in plan order
 * often take their directories in turn (d1/a, d2/a, …, d1/b, …), and with fewer handles than
 * directories every lookup of such a cycle walks again (64 handles cost 8,118 walks for the 10,000
 * files of the bench, which cycle through 100 directories).
 */
export const kept = 256

// constructors

/**
 * A keeper of the handles `walk` opens: each directory is walked once, and walked again only when
 * `current` says its handle is no longer where it may be used (moved out of the root, removed); a
 * walk that failed is not kept (it is asked again). At most `kept` are kept: past that the oldest
 * one no operation is using is closed. A handle no longer kept (moved, let go, or the keeper ended)
 * is closed when its last user is done.
 */
export const keeper = (walk: (op: string, subject: string, dir: string) => Handle, current: (h: Handle) => boolean): Keeper => {
  const held = new Map<string, Held>()
  let ended = false
  const take = (op: string, subject: string, dir: string): Held => {
    let e = held.get(dir)
    if (e !== undefined && !current(e.h)) {
      held.delete(dir)
      if (e.users === 0) closeAll([e.h])
      e = undefined
    }
    if (e === undefined) {
      e = { dir, h: walk(op, subject, dir), users: 0 }
      if (!ended) {
        if (held.size >= kept) {
          for (const old of held.values()) {
            if (old.users > 0) continue
            held.delete(old.dir)
            closeAll([old.h])
            break
          }
        }
        held.set(dir, e)
      }
    }
    e.users += 1
    return e
  }
  const put = (e: Held): void => {
    e.users -= 1
    if (e.users > 0) return
    const isKept = held.get(e.dir) === e
    // more were in use at once than are kept: the one done is let go
    if (isKept && held.size <= kept) return
    if (isKept) held.delete(e.dir)
    closeAll([e.h])
  }
  const end = (): void => {
    ended = true
    for (const e of held.values()) if (e.users === 0) closeAll([e.h])
    held.clear()
  }
  return { take, put, end }
}

// interop

/** Closes handles, ignoring any already closed. */
export const closeAll = (hs: ReadonlyArray<Handle>): void => {
  for (const h of hs) {
    try {
      closeSync(h.fd)
    } catch {
      // already closed: nothing to release
    }
  }
}
