// heap: once a run reads a large input, V8's young generation kept at the size it starts with,
// and (for a plan) its whole heap collected once between compiling and observing.
//
// V8 gives new objects a young generation of two halves that start at 1 MiB each and double, up to
// 16 MiB each, as objects survive its collections. A plan of a large manifest keeps nearly all it
// makes (the YAML tree until compiling is done, then the resources, observations and steps until
// the plan is printed), so the young generation grows to its largest, 32 MiB of memory the process
// touches for the first time, while every object that lives is copied to the old generation all the
// same. A page touched for the first time costs the kernel a fault and a zeroed page, and on the
// virtual machines CI and many servers run on, the host's work too: about 4 ms a MiB on the
// machines plait is measured on (`Buffer.alloc(32 MiB).fill(1)` 130 ms, the same again 2 ms). Kept
// at 1 MiB, the young generation is collected more often, each time copying what lives as before;
// the plan of 10,000 unchanged files peaks at some 106 MiB instead of 127, and runs 4 to 9% faster
// (docs/performance.md, "The young generation kept at its starting size").
//
// V8 reads `--semi-space-growth-factor` each time it would grow the young generation, so setting it
// to 1 while running stops the growing and changes nothing else: not what is collected or kept, nor
// the code V8 compiles. Loading `node:v8` costs some 4 ms, so a small run, whose young generation
// never grows, is left as it is: the flag is set at the first input of `largeInput` bytes or more.
//
// The old generation has the same cost the other way round. What lives through two collections of
// the young generation moves to the old one, onto pages touched for the first time, and the old
// generation's garbage is found only by a full collection, which V8 starts by itself late, if at
// all. By the end of compiling a large manifest its YAML tree (1.6 KiB a resource) is garbage, but it
// still holds its pages, and what observing and planning keep goes onto new ones: 5,800 of the
// 18,400 faults of the 10,000-file plan came after compiling. `settle` runs one full collection
// there, so that the tree's pages are reused: the plan's peak falls from 106 to 91 MiB and it runs
// 4 to 5% faster. The collection takes 7 to 9 ms whatever the size, and pays from a manifest of
// some 1,500 files (`settleInput`: no gain at 1,000 files, 2% at 3,000).
import * as v8 from 'node:v8'
import { runInNewContext } from 'node:vm'

/** The size of an input from which a run keeps the young generation at its starting size (a manifest of about 800 files). */
export const largeInput = 256 * 1024

/** The size of an input from which a plan runs one full collection once it has compiled (a manifest of about 1,600 files). */
export const settleInput = 512 * 1024

/** The largest input the run has read, in bytes. */
let largest = 0

/** Says that the run read an input of `bytes` bytes: from `largeInput` on, the young generation stops growing. */
export const reading = (bytes: number): void => {
  const crosses = largest < largeInput && bytes >= largeInput
  largest = Math.max(largest, bytes)
  if (crosses) v8.setFlagsFromString('--semi-space-growth-factor=1')
}

/** V8's full collection, as a function: Node's own where it was started with `--expose-gc`, else one from a context of its own. */
const collector = (): unknown => {
  const own: unknown = (globalThis as { gc?: unknown }).gc
  if (typeof own === 'function') return own
  v8.setFlagsFromString('--expose-gc')
  try {
    return runInNewContext('gc')
  } finally {
    v8.setFlagsFromString('--no-expose-gc')
  }
}

/**
 * Collects the whole heap once, if the run has read an input of `settleInput` bytes or more: called
 * between compiling and observing, when the YAML tree has just become garbage. V8 gives a script
 * its collector (`gc`) only with `--expose-gc`, and only in a context made while the flag is set, so
 * the flag is set for as long as it takes to make one (some 2 ms) and unset again: no other
 * context, a plugin's or a test's, sees a `gc` (a Node started with the flag keeps it, and its
 * own `gc` is used). A Node whose V8 gave no collector runs on without the collection: it saves
 * time, and a plan is the same without it.
 */
export const settle = (): void => {
  if (largest < settleInput) return
  const collect = collector()
  if (typeof collect === 'function') (collect as () => void)()
}
