#!/usr/bin/env node
// run: the plait benchmark (`npm run bench`, which builds first).
//
// For N = 1,000 and 10,000 managed files (over 100 directories, under a fresh temporary root) it
// times the real CLI, each run a child process timed from spawn to exit:
//   1. `plait plan` against an empty root (everything to create),
//   2. `plait apply plan.json` of a saved plan (`plan --out` first; a fresh root for every run),
//   3. `plait plan` of the same files, unchanged, after the apply: the headline number, and the same
//      resources written in the other YAML styles of bench/workload.mjs (flow, defaults, template),
// and compares 3 with the floor (bench/floor.mjs: lstat + readFile + sha256 per file and nothing
// else, spawned the same way), and 2 with the write floor (bench/floor-write.mjs: the same files
// written durably, temp file + fsync + rename + one fsync per directory, and nothing else; goal:
// apply ≤ 2x, as `apply N new files / write floor`). With puppet installed, it also times `puppet apply --noop` against
// `plait plan` on 200 unchanged files. Prints a table and writes .bench/results.json.
//
// Every number is wall time in ms of the child process (median, min, max over the runs), timed as
// a user runs the command: no preload. "internal", "cpu" and "peak RSS" come from another run of the
// same command with bench/timing-hook.mjs preloaded (its own time from the end of Node's boot to
// exit, its CPU time, its peak RSS): the hook is an ES module, and preloading one makes Node start
// its ES module loader and run the command through it, some 15 ms more for every process (more
// for plait's than for `node -e 0`), which would pull every ratio towards 1 if it were timed so.
// Start-up (`node -e 0`, `plait --version`, the plan of an empty manifest) is timed once, first, in
// rounds of its own (--startup-runs, 30 by default): a ratio of two 50 ms medians needs many runs.
//
//   node bench/run.mjs [--sizes 1000,10000] [--runs N] [--startup-runs N] [--no-puppet] [--no-packages] [--no-libral] [--keep]
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { benchLibral, libralLines } from './libral.mjs'
import { benchPackages, packageLines } from './packages.mjs'
import { account, styles, workload as makeWorkload } from './workload.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '..')
const plait = join(repo, 'dist', 'bin', 'plait.js')
const floorScript = join(here, 'floor.mjs')
const floorWriteScript = join(here, 'floor-write.mjs')
const hookUrl = pathToFileURL(join(here, 'timing-hook.mjs')).href

const { values: argv } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    runs: { type: 'string' },
    'startup-runs': { type: 'string', default: '30' },
    'no-puppet': { type: 'boolean', default: false },
    'no-libral': { type: 'boolean', default: false },
    'no-packages': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const sizes = argv.sizes.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0)
/** Runs per measurement: 5 for small N, 3 for 10,000 and more (each 10k apply run needs a fresh root). */
const runsFor = (n) => (argv.runs !== undefined ? Math.max(1, Number(argv.runs)) : n >= 10000 ? 5 : 5)
const applyRunsFor = (n) => (argv.runs !== undefined ? Math.max(1, Number(argv.runs)) : n >= 10000 ? 3 : 5)
const DIRS = 100
const PUPPET_N = 200

if (!existsSync(plait)) {
  console.error(`bench: ${plait} is missing; run \`npm run build\` first (npm run bench does)`)
  process.exit(1)
}

const { owner, group } = account()
const workload = (n, dirs) => makeWorkload(n, dirs, { owner, group })
const plaitVersion = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version
const work = mkdtempSync(join(tmpdir(), 'plait-bench-'))
const started = Date.now()
const loadStart = loadavg()
// NODE_EXTRA_CA_CERTS makes every Node process parse that certificate file as it starts (about
// 50 ms for Debian's bundle): where it is set, start-up and the headline are timed without it too,
// as most machines start Node, and both sets of ratios are printed.
const extraCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined && process.env.NODE_EXTRA_CA_CERTS !== ''
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'))

// ---------------------------------------------------------------- timing

let seq = 0

/** Spawns a command, times it from spawn to exit; Node children get the timing hook unless `hook` is false. */
function timed(cmd, args, { node = true, hook = node, okCodes = [0], env = process.env } = {}) {
  const timingFile = join(work, `timing-${seq++}.json`)
  const argsFull = hook ? ['--import', hookUrl, ...args] : args
  return new Promise((resolve, reject) => {
    const out = []
    const err = []
    const t0 = process.hrtime.bigint()
    let t1
    const child = spawn(cmd, argsFull, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, BENCH_TIMING_FILE: timingFile } })
    child.stdout.on('data', (b) => out.push(b))
    child.stderr.on('data', (b) => err.push(b))
    child.on('error', reject)
    child.on('exit', () => {
      t1 = process.hrtime.bigint()
    })
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8')
      const stderr = Buffer.concat(err).toString('utf8')
      if (!okCodes.includes(code)) {
        reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${stderr.slice(0, 4000)}\n${stdout.slice(-2000)}`))
        return
      }
      let internal
      let cpu
      let rss
      let faults
      if (hook && existsSync(timingFile)) {
        const t = JSON.parse(readFileSync(timingFile, 'utf8'))
        internal = t.exit - t.loaded
        cpu = t.cpu
        rss = t.maxRssKiB
        faults = t.faults
        rmSync(timingFile)
      }
      resolve({ ms: Number((t1 ?? process.hrtime.bigint()) - t0) / 1e6, internal, cpu, rss, faults, stdout, stderr, code })
    })
  })
}

/**
 * Times a Node command as a user runs it (its wall time, which the ratios use), then once more with
 * the timing hook for its internal time, CPU time and peak RSS (the hook's run's wall time is not kept).
 */
async function measured(args, { env = process.env } = {}) {
  const bare = await timed(process.execPath, args, { hook: false, env })
  const hooked = await timed(process.execPath, args, { env })
  return { ...bare, internal: hooked.internal, cpu: hooked.cpu, rss: hooked.rss, faults: hooked.faults }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Samples of one measurement, summarized. */
class Series {
  constructor(label) {
    this.label = label
    this.ms = []
    this.internal = []
    this.cpu = []
    this.rss = []
    this.faults = []
  }
  add(r) {
    this.ms.push(r.ms)
    if (r.internal !== undefined) this.internal.push(r.internal)
    if (r.cpu !== undefined) this.cpu.push(r.cpu)
    if (r.rss !== undefined) this.rss.push(r.rss)
    if (r.faults !== undefined) this.faults.push(r.faults)
    return r
  }
  get median() {
    return median(this.ms)
  }
  summary() {
    return {
      label: this.label,
      runs: this.ms.length,
      median: round(this.median),
      min: round(Math.min(...this.ms)),
      max: round(Math.max(...this.ms)),
      internalMedian: this.internal.length > 0 ? round(median(this.internal)) : null,
      cpuMedian: this.cpu.length > 0 ? round(median(this.cpu)) : null,
      peakRssMiB: this.rss.length > 0 ? round(Math.max(...this.rss) / 1024) : null,
      faultsMedian: this.faults.length > 0 ? median(this.faults) : null,
      samples: this.ms.map(round),
    }
  }
}

const round = (x) => Math.round(x * 10) / 10

const expectSummary = (r, what, re) => {
  if (!re.test(r.stdout)) throw new Error(`${what}: unexpected output (wanted ${re}):\n${r.stdout.slice(-1500)}\n${r.stderr.slice(0, 1500)}`)
  return r
}

const progress = (s) => process.stderr.write(`  · ${s}\n`)

// ---------------------------------------------------------------- start-up

/**
 * `node -e 0`, `plait --version`, the plan of an empty manifest (one file to keep absent, below an
 * empty root) and the same plan with a data hierarchy that reads a fact (CCM's way of varying data
 * by host: the facts are gathered, from the root's /etc and the host's /proc and /sys), interleaved,
 * as a user runs them (no preload), --startup-runs rounds after one untimed round. Where
 * NODE_EXTRA_CA_CERTS is set, the same again without it in each round. The facts plan has no goal
 * of its own; it shows what gathering facts adds to a start.
 */
async function benchStartup() {
  const runs = Number(argv['startup-runs'])
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`bench: --startup-runs ${argv['startup-runs']}: expected a whole number of rounds, 1 or more`)
  const dir = mkdtempSync(join(work, 'startup-'))
  const manifest = join(dir, 'empty.yaml')
  writeFileSync(manifest, 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
  const withFacts = join(dir, 'facts.yaml')
  writeFileSync(withFacts, "data:\n  motd: hello\nccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\nhierarchy:\n  order:\n    - os:${ lookup('facts.host.info.platformFamily') }\noverrides:\n  os:debian:\n    motd: hi\n")
  mkdirSync(join(dir, 'root'))
  const root = realpathSync(join(dir, 'root'))
  const emptyRe = /Plan: 0 to create, 0 to change, 0 to delete, 1 unchanged/
  const commands = [
    ['node', 'node -e 0 (Node start-up)', ['-e', '0']],
    ['version', 'plait --version (start-up + modules)', [plait, '--version']],
    ['planEmpty', 'plan, empty manifest (start-up + a run)', [plait, 'plan', manifest, '--root', root]],
    ['planFacts', 'plan, the same with a hierarchy reading facts', [plait, 'plan', withFacts, '--root', root]],
  ]
  const envs = extraCerts ? [['', process.env, ''], ['Clean', cleanEnv, ', without NODE_EXTRA_CA_CERTS']] : [['', process.env, '']]
  const s = Object.fromEntries(envs.flatMap(([suffix, , label]) => commands.map(([key, what]) => [key + suffix, new Series(what + label)])))
  process.stderr.write(`start-up: ${runs} rounds\n`)
  for (let i = 0; i <= runs; i++) {
    for (const [suffix, env] of envs) {
      for (const [key, , args] of commands) {
        const r = await timed(process.execPath, args, { hook: false, env })
        if (key === 'planEmpty' || key === 'planFacts') expectSummary(r, key === 'planEmpty' ? 'plan (empty manifest)' : 'plan (facts)', emptyRe)
        if (i > 0) s[key + suffix].add(r)
      }
    }
  }
  rmSync(dir, { recursive: true, force: true })
  const ratios = (suffix) => ({
    node: round(s[`node${suffix}`].median),
    versionOverNode: round2(s[`version${suffix}`].median / s[`node${suffix}`].median),
    emptyPlanOverNode: round2(s[`planEmpty${suffix}`].median / s[`node${suffix}`].median),
    factsPlanOverNode: round2(s[`planFacts${suffix}`].median / s[`node${suffix}`].median),
  })
  return {
    runs,
    goal: 1.5,
    series: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.summary()])),
    ...ratios(''),
    ...(extraCerts ? { withoutExtraCerts: ratios('Clean') } : {}),
    _series: s,
  }
}

// ---------------------------------------------------------------- one size

async function benchSize(n) {
  const runs = runsFor(n)
  const applyRuns = applyRunsFor(n)
  const w = workload(n, DIRS)
  const dir = mkdtempSync(join(work, `n${n}-`))
  const manifest = join(dir, 'manifest.yaml')
  const list = join(dir, 'paths.txt')
  writeFileSync(manifest, w.yaml)
  writeFileSync(list, w.list)
  // the same resources in the other YAML styles (bench/workload.mjs), each planned against the same root and floor
  const otherStyles = styles.filter((st) => st !== 'block')
  const styleManifest = Object.fromEntries(otherStyles.map((st) => [st, join(dir, `manifest-${st}.yaml`)]))
  for (const st of otherStyles) writeFileSync(styleManifest[st], w.manifests[st])
  const freshRoot = (name) => {
    const r = join(dir, name)
    mkdirSync(r)
    return realpathSync(r)
  }
  const total = w.resources
  const createRe = new RegExp(`Plan: ${total} to create, 0 to change, 0 to delete, 0 unchanged`)
  const unchangedRe = new RegExp(`Plan: 0 to create, 0 to change, 0 to delete, ${total} unchanged`)
  const applyRe = new RegExp(`Apply: ${total} changed, 0 stable, 0 failed`)
  const validRe = new RegExp(`: valid, ${total} resources`)

  process.stderr.write(`N=${n}: ${n} files + ${w.dirs} directories, manifest ${(w.yaml.length / 1024).toFixed(0)} KiB, ${runs} runs (${applyRuns} for apply)\n`)
  const s = {
    node: new Series('node -e 0 (Node start-up)'),
    planCreate: new Series('plan, empty root (all to create)'),
    planOut: new Series('plan --out, empty root (hooked)'),
    apply: new Series('apply plan.json (hooked)'),
    planUnchanged: new Series('plan, unchanged (headline)'),
    ...Object.fromEntries(otherStyles.map((st) => [`style-${st}`, new Series(`plan, unchanged, ${st} style`)])),
    floorSync: new Series('floor: sync'),
    floorSeq: new Series('floor: async sequential'),
    floorPool: new Series('floor: async pool of 32'),
    floorParse: new Series('floor: sync + manifest parsed'),
    validate: new Series('plait validate (parse + compile)'),
    writeSync: new Series('write floor: sync (hooked)'),
    writeSeq: new Series('write floor: async sequential (hooked)'),
    writePool: new Series('write floor: async pool of 32 (hooked)'),
    ...(extraCerts
      ? {
          nodeClean: new Series('node -e 0, without NODE_EXTRA_CA_CERTS'),
          planUnchangedClean: new Series('plan, unchanged, without it'),
          floorSyncClean: new Series('floor: sync, without it'),
          validateClean: new Series('plait validate, without it'),
        }
      : {}),
  }

  // 1. plan against an empty root (one warm-up run first: page cache, compile cache)
  const empty = freshRoot('empty')
  const planArgs = (root) => [plait, 'plan', manifest, '--root', root]
  progress('plan, empty root')
  expectSummary(await timed(process.execPath, planArgs(empty)), 'plan (create)', createRe)
  for (let i = 0; i < runs; i++) expectSummary(s.planCreate.add(await measured(planArgs(empty))), 'plan (create)', createRe)

  // 2. plan --out, then apply the saved plan; each run on a fresh root. The first root stays for 3.
  // Each apply is followed by the durable-write floor (bench/floor-write.mjs) writing the same
  // files below fresh roots, in each of its strategies, so that both see the same machine. These
  // runs change what they run on, so each is timed once, with the hook: apply and the write floor
  // alike carry its few milliseconds, small beside their seconds at 10,000 files.
  progress('plan --out + apply, and the write floor')
  let applied
  const floorWrite = async (mode, i) => {
    const root = freshRoot(`floor-${mode}-${i}`)
    const r = await timed(process.execPath, [floorWriteScript, '--root', root, '--n', String(n), '--dirs', String(DIRS), '--mode', mode])
    if (JSON.parse(r.stdout).files !== n) throw new Error(`floor-write: unexpected output ${r.stdout}`)
    rmSync(root, { recursive: true, force: true })
    return r
  }
  for (let i = 0; i < applyRuns; i++) {
    const root = freshRoot(`root-${i}`)
    const planFile = join(dir, `plan-${i}.json`)
    s.planOut.add(await timed(process.execPath, [plait, 'plan', manifest, '--root', root, '--out', planFile]))
    expectSummary(s.apply.add(await timed(process.execPath, [plait, 'apply', planFile, '--root', root])), 'apply', applyRe)
    rmSync(planFile)
    if (applied === undefined) applied = root
    else rmSync(root, { recursive: true, force: true })
    s.writeSync.add(await floorWrite('sync', i))
    s.writeSeq.add(await floorWrite('seq', i))
    s.writePool.add(await floorWrite('pool', i))
  }

  // 3. plan of the unchanged files, interleaved with the floors and `node -e 0` so that
  // any drift of the machine touches them all alike. One untimed warm-up round first.
  progress('plan unchanged vs floor')
  const floorArgs = (mode) => [floorScript, '--root', applied, '--list', list, '--manifest', manifest, '--mode', mode]
  const validateArgs = [plait, 'validate', manifest]
  const parseTimes = [] // the parse alone, in the floor's process (bench/floor.mjs --parse)
  const round_ = async (record) => {
    const add = (series, r) => (record ? series.add(r) : r)
    const floors = []
    add(s.node, await measured(['-e', '0']))
    expectSummary(add(s.planUnchanged, await measured(planArgs(applied))), 'plan (unchanged)', unchangedRe)
    for (const st of otherStyles) {
      const r = await measured([plait, 'plan', styleManifest[st], '--root', applied])
      expectSummary(add(s[`style-${st}`], r), `plan (unchanged, ${st} style)`, unchangedRe)
    }
    floors.push(add(s.floorSync, await measured(floorArgs('sync'))))
    floors.push(add(s.floorSeq, await measured(floorArgs('seq'))))
    floors.push(add(s.floorPool, await measured(floorArgs('pool'))))
    const parsed = add(s.floorParse, await measured([...floorArgs('sync'), '--parse']))
    if (record) parseTimes.push(JSON.parse(parsed.stdout).parseMs)
    floors.push(parsed)
    expectSummary(add(s.validate, await measured(validateArgs)), 'validate', validRe)
    if (extraCerts) {
      const env = cleanEnv
      add(s.nodeClean, await measured(['-e', '0'], { env }))
      expectSummary(add(s.planUnchangedClean, await measured(planArgs(applied), { env })), 'plan (unchanged, without NODE_EXTRA_CA_CERTS)', unchangedRe)
      add(s.floorSyncClean, await measured(floorArgs('sync'), { env }))
      expectSummary(add(s.validateClean, await measured(validateArgs, { env })), 'validate (without NODE_EXTRA_CA_CERTS)', validRe)
    }
    const digests = new Set(floors.map((f) => JSON.parse(f.stdout).digest))
    if (digests.size !== 1 || JSON.parse(floors[0].stdout).files !== n) throw new Error(`floor: the modes disagree: ${floors.map((f) => f.stdout).join('')}`)
  }
  await round_(false)
  for (let i = 0; i < runs; i++) await round_(true)

  if (!argv.keep) rmSync(dir, { recursive: true, force: true })

  const floors = [s.floorSync, s.floorSeq, s.floorPool]
  const floor = floors.reduce((a, b) => (b.median < a.median ? b : a))
  const nodeMs = s.node.median
  const head = s.planUnchanged.median
  const ratio = head / floor.median
  const ratioNoStartup = (head - nodeMs) / (floor.median - nodeMs)
  const ratioInternal =
    s.planUnchanged.internal.length > 0 && floor.internal.length > 0 ? median(s.planUnchanged.internal) / median(floor.internal) : null
  const ratioCpu = s.planUnchanged.cpu.length > 0 && floor.cpu.length > 0 ? median(s.planUnchanged.cpu) / median(floor.cpu) : null
  const asyncFloor = s.floorSeq.median < s.floorPool.median ? s.floorSeq : s.floorPool
  const writeFloor = [s.writeSync, s.writeSeq, s.writePool].reduce((a, b) => (b.median < a.median ? b : a))
  const applyOverWrite = s.apply.median / writeFloor.median
  const applyOverWriteCpu = s.apply.cpu.length > 0 && writeFloor.cpu.length > 0 ? median(s.apply.cpu) / median(writeFloor.cpu) : null
  return {
    n,
    dirs: w.dirs,
    resources: total,
    manifestBytes: w.yaml.length,
    series: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.summary()])),
    floor: { mode: floor.label, median: round(floor.median) },
    ratio: {
      planUnchangedOverFloor: round2(ratio),
      excludingNodeStartup: round2(ratioNoStartup),
      internal: ratioInternal === null ? null : round2(ratioInternal),
      cpu: ratioCpu === null ? null : round2(ratioCpu),
      overBestAsyncFloor: round2(head / asyncFloor.median),
    },
    goal: { ratio: 2, met: ratio <= 2 },
    parsed: { median: round(s.floorParse.median), parseMs: round(median(parseTimes)), planOver: round2(head / s.floorParse.median) },
    bound: {
      validate: round(s.validate.median),
      validateOverFloor: round2(s.validate.median / floor.median),
      lowest: round(lowestPlan(s.validate, floor, s.node)),
      lowestOverFloor: round2(lowestPlan(s.validate, floor, s.node) / floor.median),
    },
    apply: {
      writeFloor: { mode: writeFloor.label, median: round(writeFloor.median) },
      applyOverWriteFloor: round2(applyOverWrite),
      cpu: applyOverWriteCpu === null ? null : round2(applyOverWriteCpu),
      goal: { ratio: 2, met: applyOverWrite <= 2 },
    },
    styles: Object.fromEntries(
      ['block', ...otherStyles].map((st) => {
        const series = st === 'block' ? s.planUnchanged : s[`style-${st}`]
        const cpu = series.cpu.length > 0 && floor.cpu.length > 0 ? round2(median(series.cpu) / median(floor.cpu)) : null
        return [st, { median: round(series.median), overFloor: round2(series.median / floor.median), cpu, met: series.median / floor.median <= 2 }]
      }),
    ),
    ...(extraCerts
      ? {
          withoutExtraCerts: {
            node: round(s.nodeClean.median),
            planUnchangedOverFloor: round2(s.planUnchangedClean.median / s.floorSyncClean.median),
            boundOverFloor: round2(lowestPlan(s.validateClean, s.floorSyncClean, s.nodeClean) / s.floorSyncClean.median),
          },
        }
      : {}),
    _series: s,
  }
}

const round2 = (x) => Math.round(x * 100) / 100

/**
 * The least a plan that compiles as fast as `validate` can take (medians of the series, ms): it does
 * all that validate does, then observes at least what the floor reads after Node's start (`node`;
 * the floor's reads of its list and the manifest, a few ms, counted in).
 */
const lowestPlan = (validate, floor, node) => validate.median + floor.median - node.median

// ---------------------------------------------------------------- puppet

function puppetCommand() {
  const r = spawnSync('sh', ['-c', 'command -v puppet'], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : undefined
}

async function benchPuppet() {
  const puppet = puppetCommand()
  if (puppet === undefined) return { installed: false }
  const version = spawnSync(puppet, ['--version'], { encoding: 'utf8' }).stdout.trim()
  const w = workload(PUPPET_N, 20)
  const dir = mkdtempSync(join(work, 'puppet-'))
  const manifest = join(dir, 'manifest.yaml')
  writeFileSync(manifest, w.yaml)
  mkdirSync(join(dir, 'root'))
  const root = realpathSync(join(dir, 'root'))
  const pp = join(dir, 'manifest.pp')
  writeFileSync(pp, w.puppet(root))
  for (const d of ['conf', 'code', 'var', 'log', 'run']) mkdirSync(join(dir, d))
  const puppetArgs = [
    'apply',
    '--noop',
    '--detailed-exitcodes',
    '--color=false',
    `--confdir=${join(dir, 'conf')}`,
    `--codedir=${join(dir, 'code')}`,
    `--vardir=${join(dir, 'var')}`,
    `--logdir=${join(dir, 'log')}`,
    `--rundir=${join(dir, 'run')}`,
    pp,
  ]
  process.stderr.write(`puppet ${version}: ${PUPPET_N} files + ${w.dirs} directories, unchanged\n`)
  // make the state with plait, then both tools check it without changing anything
  const planFile = join(dir, 'plan.json')
  await timed(process.execPath, [plait, 'plan', manifest, '--root', root, '--out', planFile])
  await timed(process.execPath, [plait, 'apply', planFile, '--root', root])
  const unchangedRe = new RegExp(`Plan: 0 to create, 0 to change, 0 to delete, ${w.resources} unchanged`)
  const plaitS = new Series(`plait plan, ${PUPPET_N} files unchanged`)
  const puppetS = new Series(`puppet apply --noop, ${PUPPET_N} files unchanged`)
  // puppet --detailed-exitcodes: 0 no changes, 2 changes (would be a non-equivalent manifest), 4/6 failures
  const puppetRun = async () => {
    const r = await timed(puppet, puppetArgs, { node: false, okCodes: [0, 2, 4, 6] })
    if (r.code !== 0) throw new Error(`puppet apply --noop exited ${r.code}: the state is not unchanged for puppet\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`)
    return r
  }
  // plait as a user runs it, like puppet: no preload
  const plaitRun = async () => expectSummary(await timed(process.execPath, [plait, 'plan', manifest, '--root', root], { hook: false }), 'plait plan (puppet comparison)', unchangedRe)
  await puppetRun() // warm-up (and a check that puppet sees no changes)
  await plaitRun()
  const runs = argv.runs !== undefined ? Math.max(1, Number(argv.runs)) : 3
  for (let i = 0; i < runs; i++) {
    puppetS.add(await puppetRun())
    plaitS.add(await plaitRun())
    plaitS.add(await plaitRun())
  }
  rmSync(dir, { recursive: true, force: true })
  const ratio = puppetS.median / plaitS.median
  return {
    installed: true,
    version,
    files: PUPPET_N,
    resources: w.resources,
    series: { plait: plaitS.summary(), puppet: puppetS.summary() },
    ratio: { puppetOverPlait: round2(ratio) },
    goal: { ratio: 12, met: ratio >= 12 },
    _series: [plaitS, puppetS],
  }
}

// ---------------------------------------------------------------- report

const fmt = (x) => (x === null || x === undefined ? '' : x >= 1000 ? x.toFixed(0) : x.toFixed(1))

function table(rows) {
  const header = ['', 'median', 'min', 'max', 'runs', 'internal', 'cpu', 'peak RSS MiB', 'faults']
  const body = rows.map((r) =>
    typeof r === 'string'
      ? r
      : [
          `  ${r.label}`,
          fmt(r.median),
          fmt(Math.min(...r.ms)),
          fmt(Math.max(...r.ms)),
          String(r.ms.length),
          r.internal.length > 0 ? fmt(median(r.internal)) : '',
          r.cpu.length > 0 ? fmt(median(r.cpu)) : '',
          r.rss.length > 0 ? fmt(Math.max(...r.rss) / 1024) : '',
          r.faults.length > 0 ? String(median(r.faults)) : '',
        ],
  )
  const widths = header.map((h, i) => Math.max(h.length, ...body.filter((b) => Array.isArray(b)).map((b) => b[i].length)))
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(header), ...body.map((b) => (Array.isArray(b) ? line(b) : b))].join('\n')
}

/**
 * What memory a process touches for the first time costs on this machine: a child fills 32 MiB of
 * new memory, then fills it again (ms each, medians of 3). The difference, a MiB at a time, is what
 * each MiB of a command's peak RSS costs it beyond the work done in it (on a virtual machine the
 * host backs each new page: about 4 ms a MiB where plait is measured).
 */
async function pageCost() {
  const script = 'const b = Buffer.alloc(32 << 20); let t = performance.now(); b.fill(1); const first = performance.now() - t; t = performance.now(); b.fill(2); process.stdout.write(JSON.stringify({ first, again: performance.now() - t }))'
  const runs = []
  for (let i = 0; i < 3; i++) runs.push(JSON.parse((await timed(process.execPath, ['-e', script], { hook: false })).stdout))
  const first = median(runs.map((r) => r.first))
  const again = median(runs.map((r) => r.again))
  return { firstMs: round(first), againMs: round(again), perMiBMs: round2((first - again) / 32) }
}

async function main() {
  console.error(`plait bench: node ${process.version}, ${cpus().length} CPU(s), files owned by ${owner}:${group}, work dir ${work}`)
  const pages = await pageCost()
  progress('start-up')
  const startup = await benchStartup()
  const results = []
  for (const n of sizes) results.push(await benchSize(n))
  const puppet = argv['no-puppet'] ? { installed: false, skipped: true } : await benchPuppet()
  if (!argv['no-packages']) progress('packages: 300 apt packages')
  const packages = argv['no-packages'] ? undefined : await benchPackages(plait, work, { timed, median, runs: runsFor(300) })
  if (!argv['no-libral']) progress('libral: 500 host resources')
  const libral = argv['no-libral'] ? undefined : await benchLibral(repo, join(work, 'libral'), { timed, median, runs: runsFor(500) })

  const out = []
  out.push('')
  out.push(`plait ${plaitVersion} bench — node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), times in ms (wall time of the child process)`)
  out.push('"internal": the process\'s own time, from the end of Node\'s boot to exit (module loading + work); "cpu": user + system CPU ms; "faults": minor page faults (pages touched for the first time)')
  out.push(`new memory: 32 MiB filled the first time ${fmt(pages.firstMs)} ms, again ${fmt(pages.againMs)} ms: ${pages.perMiBMs} ms a MiB of peak RSS, 4 KiB a fault`)
  out.push(`load average at start ${loadStart.map((x) => x.toFixed(2)).join(' ')}, at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}${loadStart[0] > cpus().length * 0.75 || loadavg()[0] > cpus().length * 0.75 ? '  (a busy machine: wall times are noisy, compare the cpu column)' : ''}`)
  {
    const met = (x) => `goal ≤ ${startup.goal}x: ${x <= startup.goal ? 'met' : 'NOT met'}`
    const ss = startup._series
    out.push('')
    out.push(`Start-up: ${startup.runs} interleaved rounds, each command as a user runs it (no preload)`)
    out.push(table([ss.node, ss.version, ss.planEmpty, ss.planFacts, ...(extraCerts ? [ss.nodeClean, ss.versionClean, ss.planEmptyClean, ss.planFactsClean] : [])]))
    // the two ratios of one environment, their labels padded to `width` after `indent`
    const ratioLines = (r, indent, width) => [
      `${indent}${'plait --version / node -e 0:'.padEnd(width)}${r.versionOverNode.toFixed(2)}x  (${met(r.versionOverNode)})`,
      `${indent}${'plan of an empty manifest / node -e 0:'.padEnd(width)}${r.emptyPlanOverNode.toFixed(2)}x  (${met(r.emptyPlanOverNode)})`,
      `${indent}${'the same reading facts / node -e 0:'.padEnd(width)}${r.factsPlanOverNode.toFixed(2)}x  (no goal: what gathering facts adds)`,
    ]
    out.push(...ratioLines(startup, '  ', 43))
    const c = startup.withoutExtraCerts
    if (c !== undefined) {
      out.push(`  NODE_EXTRA_CA_CERTS is set: each Node start parses it (node -e 0 ${fmt(startup.node)} ms with it, ${fmt(c.node)} ms without); without it, as most machines start:`)
      out.push(...ratioLines(c, '    ', 41))
    }
  }
  for (const r of results) {
    const s = r._series
    out.push('')
    out.push(`N = ${r.n.toLocaleString('en-US')} files (+ ${r.dirs} directories, ${r.resources} resources)`)
    out.push(
      table([
        s.node,
        s.planCreate,
        s.planOut,
        s.apply,
        s.planUnchanged,
        ...styles.filter((st) => st !== 'block').map((st) => s[`style-${st}`]),
        s.floorSync,
        s.floorSeq,
        s.floorPool,
        s.floorParse,
        s.validate,
        s.writeSync,
        s.writeSeq,
        s.writePool,
        ...(r.withoutExtraCerts !== undefined ? [s.nodeClean, s.planUnchangedClean, s.floorSyncClean, s.validateClean] : []),
      ]),
    )
    const c = r.withoutExtraCerts
    if (c !== undefined) {
      out.push(`  without NODE_EXTRA_CA_CERTS (node -e 0 ${fmt(c.node)} ms): plan unchanged / floor (sync): ${c.planUnchangedOverFloor.toFixed(2)}x  (goal ≤ 2x: ${c.planUnchangedOverFloor <= 2 ? 'met' : 'NOT met'});`)
      out.push(`    the least a plan compiling as fast as validate can take (below), without it: ${c.boundOverFloor.toFixed(2)}x the floor`)
    }
    out.push(`  floor = ${r.floor.mode} (${fmt(r.floor.median)} ms)`)
    out.push(`  plan unchanged / floor:                    ${r.ratio.planUnchangedOverFloor.toFixed(2)}x  (goal ≤ 2x: ${r.goal.met ? 'met' : 'NOT met'})`)
    out.push(`  same, Node start-up (node -e 0) excluded:  ${r.ratio.excludingNodeStartup.toFixed(2)}x`)
    if (r.ratio.internal !== null) out.push(`  same, internal times (boot excluded):      ${r.ratio.internal.toFixed(2)}x`)
    if (r.ratio.cpu !== null) out.push(`  same, CPU time (user + system):            ${r.ratio.cpu.toFixed(2)}x`)
    for (const [st, x] of Object.entries(r.styles)) {
      out.push(`  plan unchanged, ${`${st} style / floor:`.padEnd(24)}   ${x.overFloor.toFixed(2)}x  (cpu ${x.cpu === null ? '?' : x.cpu.toFixed(2)}x; goal ≤ 2x: ${x.met ? 'met' : 'NOT met'})`)
    }
    out.push(`  plan unchanged / best async floor:         ${r.ratio.overBestAsyncFloor.toFixed(2)}x`)
    out.push(`  the floor with the manifest parsed by plait's own reader (the parse alone ${fmt(r.parsed.parseMs)} ms): ${fmt(r.parsed.median)} ms, ${(r.parsed.median / r.floor.median).toFixed(2)}x the floor;`)
    out.push(`    plan unchanged / it:                     ${r.parsed.planOver.toFixed(2)}x  (not the goal's floor, which reads the manifest unparsed: what parsing alone takes of the 2x)`)
    out.push(`  plait validate (read, parse, compile; nothing observed): ${fmt(r.bound.validate)} ms, ${r.bound.validateOverFloor.toFixed(2)}x the floor; with the floor's own`)
    out.push(`    work after Node's start added (floor - node -e 0), the least a plan compiling as fast can take: ${fmt(r.bound.lowest)} ms, ${r.bound.lowestOverFloor.toFixed(2)}x the floor`)
    out.push(`  write floor = ${r.apply.writeFloor.mode} (${fmt(r.apply.writeFloor.median)} ms)`)
    out.push(`  apply ${r.n} new files / write floor:     ${r.apply.applyOverWriteFloor.toFixed(2)}x  (goal ≤ 2x: ${r.apply.goal.met ? 'met' : 'NOT met'})`)
    if (r.apply.cpu !== null) out.push(`  same, CPU time (user + system):            ${r.apply.cpu.toFixed(2)}x`)
  }
  const rssOf = (r) => (r._series.planUnchanged.rss.length > 0 ? Math.max(...r._series.planUnchanged.rss) / 1024 : undefined)
  const sized = results.filter((r) => rssOf(r) !== undefined).sort((a, b) => a.resources - b.resources)
  if (sized.length >= 2) {
    const [small, large] = [sized[0], sized[sized.length - 1]]
    const perThousand = ((rssOf(large) - rssOf(small)) / (large.resources - small.resources)) * 1000
    const baseline = rssOf(small) - (perThousand * small.resources) / 1000
    out.push('')
    out.push(`peak RSS of plan unchanged: ${sized.map((r) => `${r.resources.toLocaleString('en-US')} resources ${fmt(rssOf(r))} MiB`).join(', ')}`)
    out.push(`  = ${fmt(baseline)} MiB fixed + ${fmt(perThousand)} MiB per 1,000 resources (linear through the two sizes)`)
  }
  out.push('')
  if (!puppet.installed) {
    out.push(puppet.skipped ? 'puppet comparison: skipped (--no-puppet)' : 'puppet comparison: puppet is not installed (`command -v puppet` found nothing); skipped')
  } else {
    out.push(`puppet ${puppet.version} vs plait: ${puppet.files} files (+ ${puppet.resources - puppet.files} directories), unchanged`)
    out.push(table(puppet._series))
    out.push(`  puppet apply --noop / plait plan: ${puppet.ratio.puppetOverPlait.toFixed(1)}x  (goal ≥ 12x: ${puppet.goal.met ? 'met' : 'NOT met'})`)
  }
  if (packages !== undefined) out.push('', ...packageLines(packages))
  if (libral !== undefined) out.push('', ...libralLines(libral))
  out.push('', ...(await (await import('./diff.mjs')).benchDiff(plait, work))) // plait diff of 500 hosts: hosts per second
  out.push('', ...(await (await import('./bounded.mjs')).benchBounded(plait, work))) // work that once grew with a square: a rewritten file's diff, a large map's keys
  const elapsed = (Date.now() - started) / 1000
  out.push('')
  out.push(`bench took ${elapsed.toFixed(0)} s; results in .bench/results.json`)
  console.log(out.join('\n'))

  const strip = (o) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')))
  mkdirSync(join(repo, '.bench'), { recursive: true })
  writeFileSync(
    join(repo, '.bench', 'results.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        plait: plaitVersion,
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? null,
        user: `${owner}:${group}`,
        loadavg: { start: loadStart, end: loadavg() },
        newMemory: pages,
        unit: 'ms (wall time of the child process; internalMedian: from end of Node boot to exit; cpuMedian: user + system CPU)',
        startup: strip(startup),
        sizes: results.map(strip),
        puppet: strip(puppet),
        libral: libral ?? null,
        packages: packages ?? null,
        elapsedSeconds: round(elapsed),
      },
      null,
      2,
    ) + '\n',
  )
}

try {
  await main()
} finally {
  if (argv.keep) console.error(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
