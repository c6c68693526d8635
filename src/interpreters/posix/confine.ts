// confine: maps machine paths to host paths below a root, and refuses those a symlink leads out of it.
//
// The final component of a path is never followed; its parent directory is resolved (realpath)
// and must lie inside realpath(root). Resolved directories are cached per instance, because
// `plait plan` probes thousands of files in few directories; the cache trusts that only this
// instance changes directory structure while it lives, and `forget` drops what a remove or a
// rename may have changed. With root "/" nothing is resolved or checked.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as MachinePath from '../MachinePath.js'

// model

/** Where a machine directory resolved: inside the root (its host path) or outside it. */
type Resolution = { readonly inside: true; readonly host: string } | { readonly inside: false; readonly host: string }

export interface Confinement {
  /** The host root, absolute and normalized ("/" when unconfined). */
  readonly root: string
  /**
   * The host path of a machine path, with its parent resolved and checked. Throws an Escape fault
   * for a path that is not clean or leads outside the root, and Node errors (ENOENT, ENOTDIR, ...)
   * when the parent cannot be resolved.
   */
  readonly locate: (op: string, path: string) => Promise<string>
  /** The resolved host path of a machine directory itself (following a symlink there), checked. */
  readonly directory: (op: string, path: string) => Promise<string>
  /** Drops cached resolutions at or below a machine path (after it was removed or renamed). */
  readonly forget: (path: string) => void
}

// constructors

/** A confinement below `root` (a host directory; "/" or undefined for none). */
export const make = (root: string = '/'): Confinement => {
  const hostRoot = nodePath.resolve(root)
  return hostRoot === '/' ? unconfined : confined(hostRoot)
}

/** Throws an Escape fault for a path that is not an absolute clean machine path. */
export const validate = (op: string, path: string): void => {
  const why = MachinePath.problem(path)
  if (why !== undefined) throw Errno.escape('posix', op, path, why)
}

const unconfined: Confinement = Object.freeze({
  root: '/',
  locate: async (op: string, path: string) => {
    validate(op, path)
    return path
  },
  directory: async (op: string, path: string) => {
    validate(op, path)
    return path
  },
  forget: () => undefined,
})

const confined = (hostRoot: string): Confinement => {
  const cache = new Map<string, Promise<Resolution>>()
  // every ancestor of a cached key: forget scans the cache only when one of them changes
  const above = new Set<string>()
  let rootReal: Promise<string> | undefined

  const realRoot = (): Promise<string> => {
    rootReal ??= fs.realpath(hostRoot).catch((e: unknown) => {
      rootReal = undefined
      throw Fault.make('NotFound', 'posix', 'confine', hostRoot, `the machine root cannot be resolved (${Errno.describe(Errno.codeOf(e))})`, e)
    })
    return rootReal
  }

  const resolve = (dir: string): Promise<Resolution> => {
    const hit = cache.get(dir)
    if (hit !== undefined) return hit
    const p = Promise.all([realRoot(), fs.realpath(hostRoot + dir)]).then(([r, host]): Resolution => ({
      inside: host === r || host.startsWith(r === '/' ? '/' : r + '/'),
      host,
    }))
    cache.set(dir, p)
    for (const a of MachinePath.lineage(MachinePath.dirname(dir))) above.add(a)
    p.catch(() => {
      if (cache.get(dir) === p) cache.delete(dir)
    })
    return p
  }

  const escape = async (op: string, subject: string, dir: string, host: string): Promise<Fault.Fault> =>
    Fault.make('Escape', 'posix', op, subject, `${dir} resolves to ${host}, outside the root ${await realRoot()}`)

  const inside = async (op: string, subject: string, dir: string): Promise<string> => {
    if (dir === '/') return realRoot()
    let r: Resolution
    try {
      r = await resolve(dir)
    } catch (e) {
      // a missing directory: still an Escape when the part of it that exists leads out of the root
      if (Errno.codeOf(e) === 'ENOENT') {
        for (let a = MachinePath.dirname(dir); a !== '/'; a = MachinePath.dirname(a)) {
          const above = await resolve(a).catch(() => undefined)
          if (above === undefined) continue
          if (!above.inside) throw await escape(op, subject, a, above.host)
          break
        }
      }
      throw e
    }
    if (!r.inside) throw await escape(op, subject, dir, r.host)
    return r.host
  }

  return Object.freeze({
    root: hostRoot,
    locate: async (op: string, path: string) => {
      validate(op, path)
      if (path === '/') return realRoot()
      const parent = await inside(op, path, MachinePath.dirname(path))
      return parent === '/' ? '/' + MachinePath.basename(path) : parent + '/' + MachinePath.basename(path)
    },
    directory: async (op: string, path: string) => {
      validate(op, path)
      return inside(op, path, path)
    },
    forget: (path: string) => {
      if (path === '/') {
        cache.clear()
        above.clear()
        return
      }
      if (!cache.has(path) && !above.has(path)) return
      for (const key of [...cache.keys()]) if (MachinePath.isAtOrBelow(key, path)) cache.delete(key)
    },
  })
}
