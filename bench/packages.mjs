// packages: `plait plan` of 300 package resources with the apt provider, through the CLI, below an
// empty root (none of them installed, all `ensure: absent`: a converged machine), with wrappers
// first on PATH that count the package-manager processes plait starts. Observation is batched, so
// the count must not grow with the number of packages (issue 11: print it). Needs dpkg-query and
// apt-cache (Debian); otherwise the row is skipped with a message.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const PACKAGES = 300
const tools = ['dpkg-query', 'apt-cache', 'apt-get', 'dpkg']

/** Times the plan of 300 packages (`runs` times) and counts the package-manager processes of each run. */
export async function benchPackages(plait, work, { timed, median, runs }) {
  const where = (t) => spawnSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).stdout.trim()
  if (where('dpkg-query') === '' || where('apt-cache') === '') return { available: false }
  const dir = join(work, 'packages')
  const bin = join(dir, 'bin')
  const root = join(dir, 'root')
  const log = join(dir, 'processes.log')
  mkdirSync(bin, { recursive: true })
  mkdirSync(root, { recursive: true })
  for (const t of tools) {
    const real = where(t)
    if (real === '') continue
    writeFileSync(join(bin, t), `#!/bin/sh\necho ${t} >> '${log}'\nexec '${real}' "$@"\n`)
    chmodSync(join(bin, t), 0o755)
  }
  const manifest = join(dir, 'packages.yaml')
  const names = Array.from({ length: PACKAGES }, (_, i) => `plait-bench-${i}`)
  writeFileSync(manifest, `ccm:\n  resources:\n    - package:\n${names.map((n) => `        - ${n}:\n            ensure: absent\n`).join('')}`)
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` }
  const ms = []
  const counts = []
  for (let i = 0; i < runs; i++) {
    rmSync(log, { force: true })
    const r = await timed(process.execPath, [plait, 'plan', manifest, '--root', root], { env, hook: false })
    if (!r.stdout.includes(`Plan: 0 to create, 0 to change, 0 to delete, ${PACKAGES} unchanged.`)) throw new Error(`plan of ${PACKAGES} packages: unexpected output\n${r.stdout.slice(-1500)}\n${r.stderr.slice(0, 1500)}`)
    ms.push(r.ms)
    counts.push(readFileSync(log, 'utf8').trim().split('\n'))
  }
  rmSync(dir, { recursive: true, force: true })
  return { available: true, packages: PACKAGES, median: median(ms), processes: counts[0], sameEveryRun: counts.every((c) => c.join() === counts[0].join()) }
}

/** The bench's lines for it. */
export const packageLines = (p) =>
  !p.available
    ? ['packages: dpkg-query or apt-cache is missing; skipped']
    : [
        `plan of ${p.packages} packages (apt, none installed, ensure: absent), CLI: median ${p.median.toFixed(1)} ms`,
        `  package-manager processes per plan: ${p.processes.length} (${p.processes.join(', ')})${p.sameEveryRun ? '' : ', not the same in every run'}`,
      ]
