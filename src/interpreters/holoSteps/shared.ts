// shared: one Holo host for the holo work of an apply, as Holo itself runs: opened once, its
// plugins asked `info` and its resource files copied once, Holo's run lock taken once, instead of
// all of that for every step and every verification (which made applying N entities cost N² in
// copies and `info` runs). The host is given out as a view whose `close` keeps it open and whose
// `lock` takes the run lock on first use and keeps it; `end` closes it and releases the lock.
//
// A step of another family (a file written below /usr/share/holo, a package that installs
// resources, a command) may change what the host read when it opened: `stale` says one is about to
// run, and the next open closes the host and opens a new one. Each open is fresh after that, so
// what a holo resource sees is what a host opened at its turn would see.
import * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../../core/Fault.js'
import type * as Host from '../holo/Host.js'
import type { OpenHost } from './probes.js'

/** The run's shared host. */
export interface Shared {
  /** Opens the run's host: the one open now, or a new one when there is none or it went stale. */
  readonly open: OpenHost
  /** Says that something that may change the host's inputs is about to run: the next open starts over. */
  readonly stale: () => void
  /** Closes the host, releasing Holo's run lock if it was taken (the next open starts over). */
  readonly end: () => Promise<void>
}

interface Opened {
  readonly host: Host.Host
  readonly view: Host.Host
}

/** Shares the hosts `open` makes (a host that could not open is the answer until the next stale or end). */
export const shared = (open: OpenHost): Shared => {
  let current: Promise<E.Either<Fault.Fault, Opened>> | undefined
  let release: (() => Promise<void>) | undefined
  let dirty = false
  const viewOf = (host: Host.Host): Host.Host =>
    Object.freeze({
      ...host,
      lock: () => async () => {
        if (release === undefined) {
          const taken = await host.lock()()
          if (E.isLeft(taken)) return taken
          release = taken.right
        }
        return E.right(async () => {})
      },
      close: async () => {},
    })
  const end = async (): Promise<void> => {
    const was = current
    current = undefined
    dirty = false
    if (was === undefined) return
    const opened = await was
    const held = release
    release = undefined
    try {
      if (held !== undefined) await held()
    } finally {
      if (E.isRight(opened)) await opened.right.host.close()
    }
  }
  return {
    open: () => async () => {
      if (dirty) await end()
      current ??= (async () => E.map((host: Host.Host): Opened => ({ host, view: viewOf(host) }))(await open()()))()
      return E.map((o: Opened) => o.view)(await current)
    },
    stale: () => {
      if (current !== undefined) dirty = true
    },
    end,
  }
}
