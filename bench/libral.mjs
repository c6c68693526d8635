// bench/libral.mjs: a manifest of 500 resources of one libral provider (plait's host::etc_hosts)
// under a temp root, 25 of them changed. Counts the provider processes of plan and of apply (from
// the sessions' invocation records, in-process against dist/) and times `plait plan` as a user
// runs it (child process, median).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ip = (i, bump) => `10.${bump}.${Math.floor(i / 250)}.${i % 250}`

/** Builds the workload: /etc/hosts with n entries, and a manifest wanting `changed` of them moved. */
export const libralWorkload = (dir, n, changed) => {
  const root = join(dir, 'root')
  mkdirSync(join(root, 'etc'), { recursive: true })
  writeFileSync(join(root, 'etc', 'hosts'), Array.from({ length: n }, (_, i) => `${ip(i, 0)}\thost${i} alias${i}\n`).join(''))
  const items = Array.from({ length: n }, (_, i) => `        - host${i}:\n            ip: "${ip(i, i < changed ? 1 : 0)}"\n            aliases: [alias${i}]\n`).join('')
  const manifest = join(dir, 'hosts.yaml')
  writeFileSync(manifest, `ccm:\n  resources:\n    - host:\n${items}`)
  return { root, manifest }
}

const count = (invocations) => {
  const by = {}
  for (const i of invocations) by[`${i.provider} ${i.action}`] = (by[`${i.provider} ${i.action}`] ?? 0) + 1
  return { total: invocations.length, by }
}

/** Plans and applies the workload in-process; returns the process counts and times. */
export async function benchLibral(repo, dir, { n = 500, changed = 25, timed, median, runs = 5 }) {
  const dist = (p) => pathToFileURL(join(repo, 'dist', p)).href
  const Pipeline = await import(dist('cli/pipeline.js'))
  const Posix = await import(dist('interpreters/posix/posix.js'))
  const Session = await import(dist('interpreters/libral/Session.js'))
  const Apply = await import(dist('executor/apply.js'))

  // The CLI, as a user runs it: plan of the 500 resources (nothing changes between runs).
  const timing = libralWorkload(join(dir, 'cli'), n, changed)
  const cli = []
  for (let r = 0; r < runs; r++) {
    const res = await timed(process.execPath, [join(repo, 'dist', 'bin', 'plait.js'), 'plan', timing.manifest, '--root', timing.root], { hook: false })
    if (!res.stdout.includes(`Plan: 0 to create, ${changed} to change, 0 to delete, ${n - changed} unchanged.`)) throw new Error(`libral bench: unexpected plan\n${res.stdout.slice(-500)}`)
    cli.push(res.ms)
  }

  // In-process, to count processes: one session for the plan, one for the apply.
  const w = libralWorkload(join(dir, 'inproc'), n, changed)
  const machine = Posix.make({ root: w.root })
  const hostEnv = { PATH: process.env.PATH }
  const planSession = Session.make({ root: w.root, hostEnv })
  const t0 = performance.now()
  const plan = await Pipeline.planManifest(w.manifest, machine, 'bench', { assignments: [] }, () => undefined, { providerPath: [], session: async () => planSession })
  const t1 = performance.now()
  if (plan._tag !== 'Right') throw new Error(`libral bench: plan failed: ${JSON.stringify(plan.left)}`)
  const applySession = Session.make({ root: w.root, hostEnv })
  const report = await Apply.apply(machine, plan.right, { stateDir: '/var/lib/plait', atomic: false, noop: false, libral: async () => applySession })
  const t2 = performance.now()
  if (report._tag !== 'Right') throw new Error(`libral bench: apply failed: ${JSON.stringify(report.left)}`)
  const changedCount = report.right.resources.filter((r) => r.outcome === 'changed').length
  if (changedCount !== changed) throw new Error(`libral bench: ${changedCount} changed, expected ${changed}`)
  return {
    resources: n,
    changed,
    planCliMedianMs: median(cli),
    planInProcessMs: Math.round(t1 - t0),
    applyInProcessMs: Math.round(t2 - t1),
    planProcesses: count(planSession.invocations()),
    applyProcesses: count(applySession.invocations()),
  }
}

/** The report lines. */
export const libralLines = (r) => [
  `libral: ${r.resources} host resources of host::etc_hosts, ${r.changed} changed`,
  `  plait plan (CLI, median):  ${r.planCliMedianMs.toFixed(0)} ms`,
  `  plan in-process:           ${r.planInProcessMs} ms, ${r.planProcesses.total} provider processes (${Object.entries(r.planProcesses.by).map(([k, v]) => `${v} × ${k}`).join(', ')})`,
  `  apply in-process:          ${r.applyInProcessMs} ms, ${r.applyProcesses.total} provider processes (${Object.entries(r.applyProcesses.by).map(([k, v]) => `${v} × ${k}`).join(', ')})`,
  `  bound: plan 1 list (+ describes of providers without .yaml), apply 1 list + 2 per changed resource = ${1 + 2 * r.changed}: ${r.applyProcesses.by['host::etc_hosts list'] === 1 && r.applyProcesses.total === 1 + 2 * r.changed ? 'met' : 'NOT met'}`,
]
