// setup: builds dist/ once for the e2e suite (tsc, then the bundle of the command, as npm run build does).
//
// Usable as a vitest globalSetup (`globalSetup: ['test/e2e/setup.ts']`), and also called from every
// e2e file's beforeAll through `ensureBuilt()`, which builds at most once per vitest run even when
// several worker processes start at the same time (a lock directory keyed by the vitest main pid).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const binary = path.join(repo, 'dist', 'bin', 'plait.js')

const build = (): void => {
  if (process.env['PLAIT_E2E_SKIP_BUILD'] === '1' && existsSync(binary)) return
  const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: repo, encoding: 'utf8' })
  if (r.status !== 0) {
    // tsc still emits on type errors; a broken type elsewhere in src/ need not stop the e2e suite.
    if (!existsSync(binary)) throw new Error(`build failed:\n${r.stdout}${r.stderr}`)
    process.stderr.write(`warning: tsc reported errors; testing the emitted dist/ anyway\n${r.stdout.slice(0, 2000)}`)
  }
  // The command as it ships: the bundle (scripts/bundle.mjs), dist/bin/plait.js.
  const b = spawnSync(process.execPath, [path.join(repo, 'scripts', 'bundle.mjs')], { cwd: repo, encoding: 'utf8' })
  if (b.status !== 0) throw new Error(`bundle failed:\n${b.stdout}${b.stderr}`)
}

/** vitest globalSetup entry point. */
export default function setup(): void {
  build()
  process.env['PLAIT_E2E_BUILT'] = String(process.pid)
}

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

const startOf = (pid: number): string => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '0'
  } catch {
    return '0'
  }
}

/** Removes the markers of earlier runs whose vitest process is gone. */
const sweep = (): void => {
  for (const name of readdirSync(os.tmpdir())) {
    const m = /^plait-e2e-build-(\d+)-(\d+)\.done$/.exec(name)
    if (m !== null && startOf(Number(m[1])) !== m[2]) rmSync(path.join(os.tmpdir(), name), { force: true })
  }
}

/** Builds once per vitest run (no-op when the globalSetup already built). */
export const ensureBuilt = (): void => {
  if (process.env['PLAIT_E2E_BUILT'] !== undefined) return
  // The parent (vitest's main process) pid and start time name this run; a reused pid has another start.
  const key = path.join(os.tmpdir(), `plait-e2e-build-${process.ppid}-${startOf(process.ppid)}`)
  const done = `${key}.done`
  const lock = `${key}.lock`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (existsSync(done)) break
    try {
      mkdirSync(lock)
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for another worker to build (${lock})`)
      sleep(200)
      continue
    }
    try {
      sweep()
      build()
      writeFileSync(done, '')
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
    break
  }
  process.env['PLAIT_E2E_BUILT'] = String(process.ppid)
}
