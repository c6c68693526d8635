// prefetchWire: how the prefetch worker's probes cross to the main thread. A structured clone of
// ten thousand probe objects costs the main thread tens of milliseconds to read back; packed into
// typed arrays (moved, not copied) and one string of hashes, it costs next to nothing, and the
// main thread builds each probe as the machine would (frozen).
import type { Entry, EntryKind, Probe } from '../../core/Probe.js'

// model

/** The probes of a run of a list of paths, in its order, from `first` on; a path whose probe failed is `missing`. */
export interface Wire {
  /** The index in the list of the first path this wire holds. */
  readonly first: number
  /** One code per path (see `codes`). */
  readonly tags: Uint8Array
  /** uid, gid, mode, size of each path's entry (0 where there is none). */
  readonly numbers: Float64Array
  /** The sha256 (64 hex characters) of each regular file, in order. */
  readonly hashes: string
  /** The target of each symlink, in order. */
  readonly targets: ReadonlyArray<string>
}

/**
 * Paths the worker probes and posts at a time: few enough that little of its work is lost when the
 * main thread stops it (the chunk under way), enough that a chunk costs one message, and a few
 * parent walks and directory listings as a whole batch would.
 */
export const chunk = 1024

const missing = 0
const codes = { Absent: 1, File: 2, Directory: 3, EmptyDirectory: 4, Symlink: 5, Other: 6 } as const
const hashLength = 64

// interop

/** Packs the probes (undefined: the probe failed) of the paths from index `first` on, for the trip to the main thread. */
export const pack = (first: number, probes: ReadonlyArray<Probe | undefined>): Wire => {
  const tags = new Uint8Array(probes.length)
  const numbers = new Float64Array(probes.length * 4)
  const hashes: string[] = []
  const targets: string[] = []
  probes.forEach((p, i) => {
    if (p === undefined) return void (tags[i] = missing)
    if (p._tag === 'Absent') return void (tags[i] = codes.Absent)
    const entry = p._tag === 'File' ? p.probe.entry : p.entry
    numbers.set([entry.uid, entry.gid, entry.mode, entry.size], i * 4)
    switch (p._tag) {
      case 'File':
        tags[i] = codes.File
        hashes.push(p.probe.sha256)
        break
      case 'Directory':
        tags[i] = p.empty ? codes.EmptyDirectory : codes.Directory
        break
      case 'Symlink':
        tags[i] = codes.Symlink
        targets.push(p.target)
        break
      case 'Other':
        tags[i] = codes.Other
    }
  })
  return { first, tags, numbers, hashes: hashes.join(''), targets }
}

const absent: Probe = Object.freeze({ _tag: 'Absent' })

/** The probes of `paths` that a wire holds (the failed ones left out), by path. */
export const unpack = (paths: ReadonlyArray<string>, wire: Wire): ReadonlyMap<string, Probe> => unpackInto(new Map(), paths, wire)

/** Adds to `out` the probes of `paths` that a wire holds (the failed ones left out); returns `out`. */
export const unpackInto = (out: Map<string, Probe>, paths: ReadonlyArray<string>, wire: Wire): Map<string, Probe> => {
  let file = 0
  let link = 0
  const entry = (i: number, kind: EntryKind): Entry =>
    Object.freeze({ kind, uid: wire.numbers[i * 4]!, gid: wire.numbers[i * 4 + 1]!, mode: wire.numbers[i * 4 + 2]!, size: wire.numbers[i * 4 + 3]! })
  for (let i = 0; wire.first + i < paths.length && i < wire.tags.length; i++) {
    const path = paths[wire.first + i]!
    switch (wire.tags[i]) {
      case codes.Absent:
        out.set(path, absent)
        break
      case codes.File: {
        const sha256 = wire.hashes.slice(file * hashLength, ++file * hashLength)
        out.set(path, Object.freeze({ _tag: 'File', probe: Object.freeze({ entry: entry(i, 'file'), sha256 }) }))
        break
      }
      case codes.Directory:
      case codes.EmptyDirectory:
        out.set(path, Object.freeze({ _tag: 'Directory', entry: entry(i, 'directory'), empty: wire.tags[i] === codes.EmptyDirectory }))
        break
      case codes.Symlink:
        out.set(path, Object.freeze({ _tag: 'Symlink', entry: entry(i, 'symlink'), target: wire.targets[link++]! }))
        break
      case codes.Other:
        out.set(path, Object.freeze({ _tag: 'Other', entry: entry(i, 'other') }))
    }
  }
  return out
}
