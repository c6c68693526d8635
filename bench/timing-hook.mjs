// timing-hook: preloaded with `node --import` into every process the bench spawns (plait, the floor
// and the `node -e 0` baseline alike), so that each reports, in BENCH_TIMING_FILE, how long Node
// took to boot (until this hook ran) and when the process exited, both in ms since process start.
// The difference is the process's own time: module loading plus the work, without boot or teardown.
// It also reports the CPU time (user + system, all threads) the process used, which other load on
// the machine disturbs less than wall time, its peak resident set size (KiB), and its minor page
// faults: each is a page of memory touched for the first time, which costs the kernel (and, on a
// virtual machine, the host) work that no CPU profile shows (docs/performance.md).
import { writeFileSync } from 'node:fs'

const file = process.env.BENCH_TIMING_FILE
if (file) {
  const loaded = performance.now()
  process.on('exit', () => {
    const cpu = process.cpuUsage()
    const usage = process.resourceUsage()
    writeFileSync(file, JSON.stringify({ loaded, exit: performance.now(), cpu: (cpu.user + cpu.system) / 1000, maxRssKiB: usage.maxRSS, faults: usage.minorPageFault }))
  })
}
