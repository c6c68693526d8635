// prefetch: probes a plan's paths on a worker thread while the main thread still compiles the
// manifest, so that on two cores the system calls of observation overlap the compile instead of
// following it. The worker (prefetchWorker.ts) runs the machine's own confined probe, a chunk of
// paths at a time, and posts each chunk when it is done. When observation starts, it takes the
// chunks that have come and stops the worker: it never waits for it, so a worker that had no core
// to itself costs little more than its start (observation probes what it did not). What was found
// is only offered to observation (interpreters/probes.ts decides what it may answer, and probes
// everything else as usual). A worker that cannot start, or fails, prefetches nothing more.
//
// The worker is started (`warm`) as soon as the manifest's text shows it is large, and given the
// paths once the text is parsed, so that its start overlaps the parse.
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { Probe } from '../../core/Probe.js'
import type { Job } from './prefetchWorker.js'
import * as Wire from './prefetchWire.js'

// model

/** Probes made ahead of observation, by machine path; `cancel` stops the work when it will not be used. */
export interface Prefetch {
  /** The probes found so far (none when the worker failed before its first chunk); the worker is stopped. */
  readonly found: () => Promise<ReadonlyMap<string, Probe>>
  /** Settles once the worker has posted every chunk, or failed, or was stopped: what `found` then gives is all it will find. */
  readonly done: () => Promise<void>
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
 * How many tasks are running or ready to run on the machine at this moment (the fourth field of
 * /proc/loadavg), and how many of them are this process's own threads (state R in
 * /proc/self/task/TID/stat); undefined where /proc cannot tell.
 */
const runnableNow = (): { readonly all: number; readonly own: number } | undefined => {
  try {
    const all = Number.parseInt(readFileSync('/proc/loadavg', 'latin1').split(' ')[3] ?? '', 10)
    if (!Number.isFinite(all)) return undefined
    let own = 0
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1')
        if (stat.charAt(stat.lastIndexOf(')') + 2) === 'R') own++
      } catch {
        // the thread has ended meanwhile: not running
      }
    }
    return { all, own }
  } catch {
    return undefined
  }
}

/**
 * Whether `cores` leave one free for the worker while `others` tasks of other processes are running
 * or ready to run: more than one core, and another besides this process's main thread that nothing
 * else wants.
 */
export const spare = (cores: number, others: number): boolean => cores > 1 && others < cores - 1

/**
 * Whether a core is likely to be free for the worker now (see `spare`). It looks at this moment, not
 * at the last minute's load average, which the user's own previous runs keep high when nothing else
 * runs; only where /proc cannot tell is that average the guess (below the cores less one half). On a
 * busy machine the worker would only take time from the main thread (the plan is the same either
 * way: only its speed depends on this).
 */
export const spareCore = (): boolean => {
  const cores = availableParallelism()
  const now = runnableNow()
  return now !== undefined ? spare(cores, Math.max(0, now.all - now.own)) : cores > 1 && loadavg()[0]! < cores - 0.5
}

/**
 * Whether to start a worker for a manifest of `bytes`: a large one, with a core to spare, unless
 * `setting` (PLAIT_PREFETCH) is `never`; `always` skips the look at the load (tests, benchmarks).
 */
export const wanted = (bytes: number, setting: string | undefined): boolean =>
  setting !== 'never' && bytes >= minimumBytes && (setting === 'always' || spareCore())

/** The worker's script beside this module: tsc's output, or the bundle's (scripts/bundle.mjs puts one beside it). */
const defaultScript = (): URL => new URL('./prefetchWorker.js', import.meta.url)

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
  // listened for from the start: a worker that fails before its paths are given gives nothing
  let paths: ReadonlyArray<string> = []
  const made = new Map<string, Probe>()
  let stopped = false
  let received = 0
  let settle = (): void => undefined
  const settled = new Promise<void>((resolve) => (settle = resolve))
  worker.on('message', (m: Wire.Wire) => {
    if (stopped) return
    Wire.unpackInto(made, paths, m)
    received += m.tags.length
    if (received >= paths.length) settle()
  })
  worker.on('error', () => settle()) // what came before the failure stands; the rest is probed by observation
  worker.once('exit', () => settle())
  const cancel = (): void => {
    stopped = true
    settle()
    void worker.terminate()
  }
  const found = async (): Promise<ReadonlyMap<string, Probe>> => {
    // the chunks posted before this call are delivered (to the listener above) before an immediate runs
    await new Promise<void>((resolve) => setImmediate(resolve))
    cancel()
    return made
  }
  return {
    cancel,
    probe: (given) => {
      if (given.length < minimumPaths) {
        cancel()
        return undefined
      }
      paths = given
      worker.postMessage(given)
      return { found, done: () => settled, cancel }
    },
  }
}

/** Starts probing `paths` below `root` on a worker thread; undefined when there are too few to pay. */
export const start = (root: string, paths: ReadonlyArray<string>, script: URL = defaultScript()): Prefetch | undefined =>
  paths.length < minimumPaths ? undefined : warm(root, script)?.probe(paths)
