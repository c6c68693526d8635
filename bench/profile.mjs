#!/usr/bin/env node
// profile: where `plait plan` of N unchanged files spends its time. Generates the bench workload,
// applies it below a temporary root, runs `node --cpu-prof dist/cli/main.js plan ...` on it (tsc's
// output, module by module, so that phases can be told by module; the shipped bundle is
// dist/bin/plait.js), and
// prints the time by phase and the hottest functions, mapped back to src/ through the source maps.
// The profile is kept in .bench/ (open it in Chrome DevTools, Performance tab, or speedscope).
//
//   npm run build && node bench/profile.mjs [--n 10000] [--interval 200] [--keep]
//   node bench/profile.mjs --analyze FILE.cpuprofile      (only the summary of an existing profile)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { account, workload } from './workload.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '..')
const plait = join(repo, 'dist', 'cli', 'main.js')

const { values: argv } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '200' },
    analyze: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})

// ---------------------------------------------------------------- analysis

/** Where a profile frame's code lives: src/… for plait (through its source map), else a short name. */
const locator = () => {
  const maps = new Map()
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let m
      try {
        m = new SourceMap(JSON.parse(readFileSync(file + '.map', 'utf8')))
      } catch {
        m = null
      }
      maps.set(file, m)
    }
    return maps.get(file)
  }
  return (frame) => {
    const url = frame.url
    if (url === '') return `(${frame.functionName || 'native'})`
    if (url.startsWith('node:')) return url
    const file = url.startsWith('file://') ? fileURLToPath(url) : url
    const nm = file.lastIndexOf('/node_modules/')
    if (nm >= 0) {
      const rest = file.slice(nm + '/node_modules/'.length).split('/')
      return `${rest[0].startsWith('@') ? rest.slice(0, 2).join('/') : rest[0]} (dependency)`
    }
    const rel = relative(repo, file)
    if (!rel.startsWith('dist/')) return rel
    const m = mapOf(file)
    const e = m?.findEntry(frame.lineNumber, frame.columnNumber)
    if (e !== undefined && e !== null && e.originalSource !== undefined) {
      const src = relative(repo, e.originalSource.startsWith('file://') ? fileURLToPath(e.originalSource) : join(dirname(file), e.originalSource))
      return `${src}:${e.originalLine + 1}`
    }
    return rel
  }
}

// Phases, by priority: a sample belongs to the first phase any frame of its stack matches.
const phases = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['idle (waiting for I/O)', (f) => f.functionName === '(idle)'],
  ['V8/Node internals (program)', (f) => f.functionName === '(program)'],
  ['compile: YAML parse (src/manifest/Yaml.ts + yaml)', (f) => f.url.includes('/node_modules/yaml/') || f.url.includes('/dist/manifest/Yaml.js')],
  ['seal: plan hash (src/planfile/PlanFile.ts)', (f) => f.url.includes('/dist/planfile/')],
  ['plan: per resource (src/compiler/plan.ts, src/types/file/)', (f) => /\/dist\/(compiler\/plan|types\/file\/(plan|Status|verify))\.js/.test(f.url)],
  // system calls count here through the probe frames above them (not by name: the module loader reads files too)
  ['observe: probes (src/executor/observe.ts, src/interpreters/)', (f) => /\/dist\/(executor|interpreters)\//.test(f.url)],
  ['compile: decode, templates (src/compiler/compile.ts, src/manifest/, io-ts)', (f) => /\/dist\/(compiler|manifest|types)\//.test(f.url) || f.url.includes('/node_modules/io-ts/')],
  ['render and CLI (src/cli/)', (f) => f.url.includes('/dist/cli/') && !f.url.endsWith('/dist/cli/main.js')],
  ['module loading and start-up', (f) => f.url.includes('internal/modules') || f.url.includes('internal/main') || f.url.includes('/node_modules/')],
]

export const analyze = (profile, top = 25) => {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const where = locator()
  const byPhase = new Map()
  const self = new Map()
  const inclusive = new Map()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000
    total += dt
    const stack = []
    for (let c = id; c !== undefined; c = parent.get(c)) stack.push(nodes.get(c).callFrame)
    const phase = phases.find(([, test]) => stack.some(test))?.[0] ?? 'other'
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + dt)
    const leaf = stack[0]
    const k = `${leaf.functionName || '(anonymous)'}  ${where(leaf)}`
    self.set(k, (self.get(k) ?? 0) + dt)
    const seen = new Set()
    for (const f of stack) {
      const w = where(f)
      if (!w.startsWith('src/')) continue
      const key = `${f.functionName || '(anonymous)'}  ${w}`
      if (seen.has(key)) continue
      seen.add(key)
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt)
    }
  })
  const lines = []
  const list = (title, m, k) => {
    lines.push('', title)
    for (const [name, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, k)) lines.push(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}`)
  }
  lines.push(`profiled ${total.toFixed(0)} ms (sampled CPU time of the main thread; async continuations are charged to the phase whose code resumes)`)
  list('by phase', byPhase, phases.length + 1)
  list('hottest functions (self time)', self, top)
  list('plait functions in src/ (inclusive time; async callers are not included)', inclusive, top)
  return lines.join('\n')
}

// ---------------------------------------------------------------- run

const main = () => {
  if (argv.analyze !== undefined) {
    console.log(analyze(JSON.parse(readFileSync(argv.analyze, 'utf8'))))
    return
  }
  if (!existsSync(plait)) {
    console.error(`profile: ${plait} is missing; run \`npm run build\` first`)
    process.exit(1)
  }
  const n = Number(argv.n)
  const w = workload(n, 100, account())
  const work = mkdtempSync(join(tmpdir(), 'plait-profile-'))
  try {
    const manifest = join(work, 'manifest.yaml')
    writeFileSync(manifest, w.yaml)
    mkdirSync(join(work, 'root'))
    const root = realpathSync(join(work, 'root'))
    const run = (args, extra = []) => {
      const r = spawnSync(process.execPath, [...extra, plait, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 })
      if (r.status !== 0) throw new Error(`plait ${args.join(' ')} exited ${r.status}\n${r.stderr}`)
      return r
    }
    console.error(`profile: ${n} files below ${root}: plan --out, apply, then the profiled plan`)
    run(['plan', manifest, '--root', root, '--out', join(work, 'plan.json')])
    run(['apply', join(work, 'plan.json'), '--root', root])
    run(['plan', manifest, '--root', root]) // warm the page cache
    const profDir = join(work, 'prof')
    const t0 = performance.now()
    const r = run(['plan', manifest, '--root', root], ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-interval=${argv.interval}`])
    const wall = performance.now() - t0
    if (!new RegExp(`Plan: 0 to create, 0 to change, 0 to delete, ${w.resources} unchanged`).test(r.stdout)) throw new Error(`unexpected plan:\n${r.stdout.slice(-1000)}`)
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))
    mkdirSync(join(repo, '.bench'), { recursive: true })
    const kept = join(repo, '.bench', `plan-unchanged-${n}.cpuprofile`)
    renameSync(join(profDir, file), kept)
    console.log(`plait plan of ${n} unchanged files: ${wall.toFixed(0)} ms wall (with the profiler on)`)
    console.log(analyze(JSON.parse(readFileSync(kept, 'utf8'))))
    console.log(`\nprofile kept in ${relative(process.cwd(), kept)}`)
  } finally {
    if (argv.keep) console.error(`kept ${work}`)
    else rmSync(work, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
