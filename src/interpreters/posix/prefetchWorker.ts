// prefetchWorker: the body of the worker thread that prefetch.ts starts. Given the paths (one
// message), it probes them below the root with the very confinement and probe the machine uses
// (confine.ts, probe.ts: handles from the root, no symlink followed out of it), a chunk at a time,
// and posts back what each chunk's probes found (packed: prefetchWire.ts) as soon as it has them:
// the main thread takes the chunks that have come when observation starts, and probes the rest
// itself. A path whose probe failed is left out: the machine probes it again and reports the fault.
import { parentPort, workerData } from 'node:worker_threads'
import * as Confine from './confine.js'
import * as Observe from './probe.js'
import * as Wire from './prefetchWire.js'

/** What the worker is started with (its paths come in a message). */
export interface Job {
  readonly root: string
}

const job = workerData as Job
parentPort?.once('message', (paths: ReadonlyArray<string>) => {
  const confine = Confine.make(job.root)
  for (let first = 0; first < paths.length; first += Wire.chunk) {
    const probed = Observe.probeAll(
      confine,
      paths.slice(first, first + Wire.chunk).map((path) => ({ path })),
    )
    const wire = Wire.pack(
      first,
      probed.map((r) => (r.ok ? r.probe : undefined)),
    )
    // the arrays move to the main thread rather than being copied (pack made them: nothing else holds them)
    parentPort?.postMessage(wire, [wire.tags.buffer as ArrayBuffer, wire.numbers.buffer as ArrayBuffer])
  }
})
