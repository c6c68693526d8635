// heap: V8's young generation kept at the size it starts with, once a run reads a large input.
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
import * as v8 from 'node:v8'

/** The size of an input from which a run keeps the young generation at its starting size (a manifest of about 800 files). */
export const largeInput = 256 * 1024

let lean = false

/** Says that the run read an input of `bytes` bytes: from `largeInput` on, the young generation stops growing. */
export const reading = (bytes: number): void => {
  if (lean || bytes < largeInput) return
  lean = true
  v8.setFlagsFromString('--semi-space-growth-factor=1')
}
