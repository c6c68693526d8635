// diff: `plait diff` of 500 hosts through the CLI: a temporary git repository with two commits of a
// manifest (hiera data by role, a template, 20 files, a package) and a facts directory of N hosts
// in 5 roles; prints hosts per second (wall time of the child process, from spawn to exit).
//
//   node bench/diff.mjs [--hosts 500] [--runs 3]     (standalone; bench/run.mjs calls benchDiff)
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

export const HOSTS = 500
const ROLES = ['web', 'db', 'cache', 'lb', 'worker']

const git = (cwd, ...args) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com' } })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
}

const manifest = (port) => `hierarchy:
  order:
    - role:\${ lookup('facts.role') }
    - host:\${ lookup('facts.host.info.hostname') }
data:
  port: ${port}
  workers: 4
overrides:
${ROLES.map((r, i) => `  role:${r}:\n    workers: ${i + 2}\n`).join('')}ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/app.conf:
            content: "{{ template('app.templ') }}"
${Array.from({ length: 20 }, (_, i) => `        - /etc/app/part${i}.conf:\n            content: "part ${i} port {{ Data.port }} workers {{ Data.workers }}\\n"\n`).join('')}    - package:
        - nginx:
            ensure: present
`

/** A repository with two commits and a facts directory of `hosts` hosts, below `dir`. */
export const setUp = (dir, hosts) => {
  mkdirSync(join(dir, 'repo'), { recursive: true })
  const repo = join(dir, 'repo')
  git(repo, 'init', '-q')
  writeFileSync(join(repo, 'manifest.yaml'), manifest(80))
  writeFileSync(join(repo, 'app.templ'), 'port = {{ Data.port }}\nrole = {{ Facts.role }}\n')
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'one')
  writeFileSync(join(repo, 'manifest.yaml'), manifest(8080))
  writeFileSync(join(repo, 'app.templ'), 'port = {{ Data.port }}\nrole = {{ Facts.role }}\nworkers = {{ Data.workers }}\n')
  git(repo, 'commit', '-q', '-a', '-m', 'two')
  const facts = join(dir, 'facts')
  mkdirSync(facts)
  for (let i = 0; i < hosts; i++) {
    const name = `host${String(i).padStart(4, '0')}`
    writeFileSync(join(facts, `${name}.json`), JSON.stringify({ role: ROLES[i % ROLES.length], host: { info: { hostname: name } } }))
  }
  return { repo, facts }
}

/** Runs `plait ARGS` in `cwd`: its exit code, wall time from spawn to exit (ms) and output. */
export const runCli = (plait, args, cwd = process.cwd()) =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(process.execPath, [plait, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    const out = []
    const err = []
    child.stdout.on('data', (b) => out.push(b))
    child.stderr.on('data', (b) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
  })

const run = (plait, repo, facts) => runCli(plait, ['diff', '--from', 'HEAD~1', '--to', 'HEAD', '--facts', facts, 'manifest.yaml', '--json', '--now', '2026-11-25T10:00:00Z'], repo)

/** Times `plait diff` of `hosts` hosts `runs` times; the bench's lines (hosts per second, median run). */
export async function benchDiff(plait, work, { hosts = HOSTS, runs = 3 } = {}) {
  const dir = mkdtempSync(join(work, 'diff-'))
  try {
    const { repo, facts } = setUp(dir, hosts)
    const ms = []
    for (let i = 0; i < runs; i++) {
      const r = await run(plait, repo, facts)
      const doc = r.code === 2 ? JSON.parse(r.stdout) : undefined
      if (doc === undefined || doc.hosts !== hosts || doc.changes.length !== ROLES.length) throw new Error(`plait diff of ${hosts} hosts: unexpected result (exit ${r.code})\n${r.stdout.slice(0, 1500)}\n${r.stderr.slice(0, 1500)}`)
      ms.push(r.ms)
    }
    const median = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]
    return [`diff of ${hosts} hosts (2 revisions, 22 resources, ${ROLES.length} groups), CLI on ${availableParallelism()} core(s): median ${median.toFixed(0)} ms, ${((hosts * 1000) / median).toFixed(0)} hosts per second`]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { hosts: { type: 'string', default: String(HOSTS) }, runs: { type: 'string', default: '3' } } })
  const plait = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin', 'plait.js')
  const work = mkdtempSync(join(tmpdir(), 'plait-bench-diff-'))
  try {
    console.log((await benchDiff(plait, work, { hosts: Number(values.hosts), runs: Number(values.runs) })).join('\n'))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
