// security: processes are bounded. A timeout kills the whole process group and ends the wait; a
// command that exited is reported by its own exit even when a daemon it started holds its pipes;
// timeouts of any length are exact; a NUL byte never reaches exec(2) and never crashes an apply.
import * as fs from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, formatDuration } from '../../src/interpreters/spawn.js'
import { after } from '../../src/interpreters/timer.js'
import * as ExecSpec from '../../src/types/exec/Spec.js'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const sh = (script: string, timeoutMs: number) => spawn('/bin/sh', { args: ['-c', script], env: { PATH: '/usr/bin:/bin' }, input: '', timeoutMs, subject: 'sh', op: 'run', module: 'exec' })

/** Whether a process runs (a zombie waiting for a reaper has ended: this container's init may not reap). */
const alive = (pid: number): boolean => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

const gone = async (pid: number): Promise<boolean> => {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20))
  return !alive(pid)
}

describe('a command that leaves a daemon holding its stdout', () => {
  it('is reported by its own exit, at once, and the daemon is left alone', async () => {
    const t0 = performance.now()
    const r = await sh('sleep 30 & echo $!; echo done; exit 0', 20_000)
    const took = performance.now() - t0
    expect(E.isRight(r)).toBe(true)
    if (E.isLeft(r)) return
    expect(r.right.exitCode).toBe(0)
    const [pid, said] = r.right.stdout.split('\n')
    expect(said).toBe('done')
    expect(took).toBeLessThan(5_000)
    // a started daemon is not plait's to kill when the command succeeded
    expect(alive(Number(pid))).toBe(true)
    process.kill(Number(pid), 'SIGKILL')
  })

  it('is not reported as timed out when it exited before its timeout', async () => {
    const r = await sh('sleep 30 & echo $!', 500)
    expect(E.isRight(r) && r.right.exitCode).toBe(0)
    if (E.isRight(r)) process.kill(Number(r.right.stdout.trim()), 'SIGKILL')
  })
})

describe('a command that outlives its timeout', () => {
  it('is killed with its whole process group, and the wait ends', async () => {
    const marker = `/tmp/plait-procs-${process.pid}-${Date.now()}`
    const t0 = performance.now()
    const r = await sh(`sleep 30 & echo $! > ${marker}; sleep 30`, 300)
    expect(performance.now() - t0).toBeLessThan(5_000)
    expect(E.isLeft(r) && r.left._tag).toBe('TimedOut')
    expect(E.isLeft(r) && r.left.description).toBe('ran longer than 0.3 s and was killed with its process group')
    const child = Number(fs.readFileSync(marker, 'utf8'))
    fs.rmSync(marker)
    expect(await gone(child)).toBe(true)
  })
})

describe('durations', () => {
  it('a timeout beyond 2^31-1 ms does not fire at once', async () => {
    const r = await sh('sleep 0.2; echo slept', 2 ** 31 + 5_000)
    expect(E.isRight(r) && r.right.stdout).toBe('slept\n')
    let fired = false
    const cancel = after(40 * 24 * 3_600_000, () => (fired = true))
    await new Promise((res) => setTimeout(res, 50))
    cancel()
    expect(fired).toBe(false)
  })

  it('a tiny timeout is a timeout, not zero and not forever', async () => {
    const r = await sh('sleep 5', ExecSpec.parseDuration('1ns')!)
    expect(E.isLeft(r) && r.left._tag).toBe('TimedOut')
    expect(formatDuration(0.000001)).toBe('0.000001 ms')
    expect(formatDuration(1500)).toBe('1.5 s')
  })

  it('parse exactly Go durations: positive, within 2^63-1 ns', () => {
    expect(ExecSpec.parseDuration('1ns')).toBe(0.000001)
    expect(ExecSpec.parseDuration('1h30m')).toBe(5_400_000)
    expect(ExecSpec.parseDuration('2562047h')).toBe(2562047 * 3_600_000)
    expect(ExecSpec.parseDuration('2562048h')).toBeUndefined()
    expect(ExecSpec.parseDuration('0s')).toBeUndefined()
    expect(ExecSpec.parseDuration('30')).toBeUndefined()
    expect(ExecSpec.parseDuration('-5s')).toBeUndefined()
  })
})

describe('NUL bytes', () => {
  it('are a Fault from spawn, never a throw', async () => {
    for (const o of [{ args: ['a\0b'] }, { args: [], env: { K: 'v\0w' } }, { args: [], cwd: '/tmp\0x' }]) {
      const r = await spawn('/bin/echo', { args: o.args, env: o.env ?? {}, input: '', timeoutMs: 1000, subject: 'echo', op: 'run', ...(o.cwd !== undefined ? { cwd: o.cwd } : {}) })
      expect(E.isLeft(r) && r.left.description).toMatch(/NUL byte/)
    }
    const r = await spawn('/bin/ec\0ho', { args: [], env: {}, input: '', timeoutMs: 1000, subject: 'echo', op: 'run' })
    expect(E.isLeft(r) && r.left.description).toMatch(/NUL byte/)
  })

  it('in a command, an environment entry, a cwd or a health check are refused at compile with their position', async () => {
    const s = sandbox()
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - "/bin/echo a\\0b": {}
        - env:
            command: /bin/true
            environment: ["K=v\\0w"]
        - cwd:
            command: /bin/true
            cwd: "/tmp\\0x"
        - health:
            command: /bin/true
            health_checks:
              - command: "/bin/true \\0"
`)
    const r = await plait(['validate', m])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/manifest\.yaml:4:\d+: .*NUL byte/)
    expect(r.stderr).toMatch(/manifest\.yaml:7:\d+: .*environment entry "K" contains a NUL byte/)
    expect(r.stderr).toMatch(/manifest\.yaml:10:\d+: .*without NUL bytes/)
    expect(r.stderr).toMatch(/manifest\.yaml:14:\d+: .*NUL byte/)
    expect(r.stderr).not.toMatch(stackFrame)
    expect(r.stderr).not.toContain('internal error')
  })

  it('in a command known only at apply fails that step cleanly, and --atomic rolls back', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc/app'), { recursive: true })
    const uid = String(process.getuid?.() ?? 0)
    fs.writeFileSync(
      s.at('/etc/site.yaml'),
      `ccm:
  resources:
    - file:
        - /etc/app/word:
            content: "a\\0b"
            owner: "${uid}"
            group: "${uid}"
            mode: "0644"
    - exec:
        - say:
            command: "/bin/echo {{ readFile('app/word') }}"
`,
    )
    const r = await plait(['apply', s.at('/etc/site.yaml'), '--root', s.root, '--atomic'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout + r.stderr).toMatch(/NUL byte/)
    expect(r.stdout + r.stderr).not.toContain('internal error')
    expect(r.stdout).toMatch(/rolled back/)
    expect(fs.existsSync(s.at('/etc/app/word'))).toBe(false)
  })
})
