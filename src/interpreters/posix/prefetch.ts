// prefetch: probes a plan's paths on a worker thread while the main thread still compiles the
// manifest, so that on two cores the system calls of observation overlap the compile instead of
// following it. The worker (prefetchWorker.ts) runs the machine's own confined probe; what it found
// is only offered to observation (interpreters/probes.ts decides what it may answer, and probes
// everything else as usual). A worker that cannot start, or fails, prefetches nothing.
//
// The worker is started (`warm`) as soon as the manifest's text shows it is large, and given the
// paths once the text is parsed, so that its start overlaps the parse.
import { availableParallelism, loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { Probe } from '../../core/Probe.js'
import type { Job } from './prefetchWorker.js'
import * as Wire from './prefetchWire.js'

// model

/** Probes made ahead of observation, by machine path; `cancel` stops the work when it will not be used. */
export interface Prefetch {
  /** The probes found (empty when the worker failed), once the worker is done. */
  readonly found: () => Promise<ReadonlyMap<string, Probe>>
  readonly cancel: () => void
}

/** A started worker waiting for its paths: `probe` gives them (undefined and the worker stopped when too few to pay). */
export interface Warm {
  readonly probe: (paths: ReadonlyArray<string>) => Prefetch | undefined
  readonly cancel: () => void
}

/** Fewer paths than this are probed where they are asked: a worker's start costs more than they do. */
export const minimumPaths = 2000

/** A manifest shorter than this cannot name `minimumPaths` files (each takes a line of some 30 bytes at least): no worker is started for it. */
export const minimumBytes = 48 * 1024

/**
 * Whether a core is likely to be free for the worker: more than one, and the last minute's load
 * average below their number less one half. On a busy machine the worker would only take time
 * from the main thread (the plan is the same either way: only its speed depends on this).
 */
export const spareCore = (): boolean => {
  const cores = availableParallelism()
  return cores > 1 && loadavg()[0]! < cores - 0.5
}

/**
 * Whether to start a worker for a manifest of `bytes`: a large one, with a core to spare, unless
 * `setting` (PLAIT_PREFETCH) is `never`; `always` skips the look at the load (tests, benchmarks).
 */
export const wanted = (bytes: number, setting: string | undefined): boolean =>
  setting !== 'never' && bytes >= minimumBytes && (setting === 'always' || spareCore())

/** The worker's script beside this module: tsc's output, or the bundle's (scripts/bundle.mjs puts one beside it). */
const defaultScript = (): URL => new URL('./prefetchWorker.js', import.meta.url)

const none: ReadonlyMap<string, Probe> = new Map()

// constructors

/** Starts a worker for probes below `root`; it waits for `probe` to give it the paths. Undefined when it cannot start. */
export const warm = (root: string, script: URL = defaultScript()): Warm | undefined => {
  let worker: Worker
  try {
    worker = new Worker(script, { workerData: { root } satisfies Job, stdout: true, stderr: true })
  } catch {
    return undefined
  }
  worker.unref() // never keeps plait running
  // listened for from the start: a worker that fails before its paths are given resolves to nothing
  let paths: ReadonlyArray<string> = []
  const found = new Promise<ReadonlyMap<string, Probe>>((resolve) => {
    worker.once('message', (m: Wire.Wire) => {
      resolve(Wire.unpack(paths, m))
      void worker.terminate()
    })
    worker.once('error', () => resolve(none))
    worker.once('exit', () => resolve(none))
  })
  const cancel = (): void => void worker.terminate()
  return {
    cancel,
    probe: (given) => {
      if (given.length < minimumPaths) {
        cancel()
        return undefined
      }
      paths = given
      worker.postMessage(given)
      return { found: () => found, cancel }
    },
  }
}

/** Starts probing `paths` below `root` on a worker thread; undefined when there are too few to pay. */
export const start = (root: string, paths: ReadonlyArray<string>, script: URL = defaultScript()): Prefetch | undefined =>
  paths.length < minimumPaths ? undefined : warm(root, script)?.probe(paths)
