// e2e: the run lock. A lock held by a live process stops apply at once and names the pid; a lock
// whose holder is dead (or whose pid was reused: another start time) is taken over.
import { spawn, type ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, plait, processStart, put, read, sandbox, show, snapshot, stackFrame, stateRel, type Sandbox } from './helpers.js'

const sleepers: ChildProcess[] = []
let live: { pid: number; start: string }

beforeAll(async () => {
  ensureBuilt()
  const child = spawn('sleep', ['120'], { stdio: 'ignore' })
  sleepers.push(child)
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve)
    child.once('error', reject)
  })
  live = { pid: child.pid!, start: processStart(child.pid!) }
})

afterAll(async () => {
  for (const c of sleepers) c.kill('SIGKILL')
  await cleanup()
})

/** The pid of a process that has exited (and been reaped). */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

const manifest = `ccm:
  resources:
    - file:
        - /etc/app.conf:
            content: "new\\n"
            owner: root
            group: root
            mode: "0644"
`

const withLock = (body: string): { s: Sandbox; m: string; lock: string } => {
  const s = sandbox()
  put(s.at('/etc/app.conf'), 'old\n', 0o644)
  const lock = path.join(s.root, stateRel, 'lock')
  fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 })
  fs.writeFileSync(lock, body, { mode: 0o600 })
  return { s, m: s.manifest(manifest), lock }
}

describe.concurrent('the run lock', () => {
  it('a lock held by a live process: apply fails at once, names the pid, changes nothing and keeps the lock', async ({ expect }) => {
    const body = JSON.stringify({ pid: live.pid, start: live.start }) + '\n'
    const { s, m, lock } = withLock(body)
    const plan = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--out', plan])
    expect(p.code, show(p)).toBe(0) // planning does not take the lock
    const before = snapshot(s.root)
    const started = Date.now()
    const [fromManifest, fromPlan] = await Promise.all([plait(['apply', m, '--root', s.root]), plait(['apply', plan, '--root', s.root])])
    expect(Date.now() - started).toBeLessThan(10_000) // no waiting for the holder
    for (const r of [fromManifest, fromPlan]) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr, show(r)).toMatch(new RegExp(`another plait apply \\(pid ${live.pid}\\) holds the run lock`))
      expect(r.stderr).not.toMatch(stackFrame)
      expect(r.stdout).not.toMatch(/^changed /m)
    }
    expect(read(lock)).toBe(body)
    expect(snapshot(s.root)).toEqual(before)
  })

  it('a lock whose holder is dead is taken over and apply succeeds', async ({ expect }) => {
    const pid = await deadPid()
    const { s, m, lock } = withLock(JSON.stringify({ pid, start: '12345' }) + '\n')
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('Apply: 1 changed, 0 stable, 0 failed, 0 skipped.')
    expect(read(s.at('/etc/app.conf'))).toBe('new\n')
    expect(fs.existsSync(lock)).toBe(false)
  })

  it('a lock naming a live pid with another start time (a reused pid) is taken over', async ({ expect }) => {
    const other = String(BigInt(live.start) + 1n)
    const { s, m, lock } = withLock(JSON.stringify({ pid: live.pid, start: other }) + '\n')
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(read(s.at('/etc/app.conf'))).toBe('new\n')
    expect(fs.existsSync(lock)).toBe(false)
  })

  it('a lock file that is not a lock (garbage) is taken over', async ({ expect }) => {
    const { s, m, lock } = withLock('garbage\x00\xff')
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(read(s.at('/etc/app.conf'))).toBe('new\n')
    expect(fs.existsSync(lock)).toBe(false)
  })
})
