// `plait ensure`, `plait status`, sessions and the JSON API, through the built binary under temp
// roots. Services use the stand-in systemctl (test/support/systemctl.ts): systemd is not PID 1 here.
import { execFileSync, spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeSystemctl } from '../support/systemctl.js'
import * as Api from '../../src/ensure/Api.js'
import { checkResponse } from '../ensure/schema.js'
import { binary, cleanup, collected, ensureBuilt, plait, sandbox, show, stackFrame, tempDir, type Run } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const state = ['--state-dir', '/var/lib/plait']
const attrs = ['--owner', 'root', '--group', 'root', '--mode', '0644']

/** Runs the binary with `input` on stdin. */
const piped = (args: ReadonlyArray<string>, input: string, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> => {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env }
  delete env['PLAIT_SESSION_STORE']
  if (options.env?.['PLAIT_SESSION_STORE'] !== undefined) env['PLAIT_SESSION_STORE'] = options.env['PLAIT_SESSION_STORE']
  const child = spawn(process.execPath, [binary, ...args], { cwd: options.cwd ?? tempDir(), env, stdio: ['pipe', 'pipe', 'pipe'] })
  const run = collected(child)
  child.stdin.end(input)
  return run
}

const examples = JSON.parse(fs.readFileSync(new URL('../../../shared/compat/ccm/api-request-examples.json', import.meta.url), 'utf8')) as Record<string, unknown>

describe('plait ensure', () => {
  it('creates a file, then finds it stable on a second run (idempotent), and --noop changes nothing', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const cwd = tempDir()
    const first = await plait(['ensure', 'file', '/etc/motd', '--content', 'hello\n', ...attrs, '--root', s.root, ...state], { cwd })
    expect(first.code, show(first)).toBe(0)
    expect(first.stdout).toContain('plait plan of plait ensure file /etc/motd')
    expect(first.stdout).toContain('+ file#/etc/motd')
    expect(first.stdout).toMatch(/changed +file#\/etc\/motd/)
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('hello\n')
    const again = await plait(['ensure', 'file', '/etc/motd', '--content', 'hello\n', ...attrs, '--root', s.root, ...state], { cwd })
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('No changes.')
    expect(again.stdout).toMatch(/stable +file#\/etc\/motd/)
    const noop = await plait(['ensure', 'file', '/etc/motd', '--content', 'bye\n', ...attrs, '--root', s.root, '--noop'], { cwd })
    expect(noop.code, show(noop)).toBe(0)
    expect(noop.stdout).toContain('-hello\n      +bye')
    expect(noop.stdout).toContain('Apply (noop): 1 would change')
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('hello\n')
  })

  it('checks every property as a manifest does: a file without owner, group and mode fails with the reason and exit 1, and no position in a temp file', async () => {
    const s = sandbox()
    const r = await plait(['ensure', 'file', '/etc/x', '--content', 'x', '--root', s.root], { cwd: tempDir() })
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('error: file#/etc/x: owner is required unless ensure is absent')
    expect(r.stderr).not.toContain('ensure.yaml')
    const bad = await plait(['ensure', 'package', 'zsh', '5.9', 'extra', '--root', s.root], { cwd: tempDir() })
    expect(bad.code, show(bad)).toBe(1)
    expect(bad.stderr).toContain('2 arguments after the name, but a package takes at most 1 (ensure)')
    const prop = await plait(['ensure', 'file', '/etc/x', '--prop', 'nokey', '--root', s.root], { cwd: tempDir() })
    expect(prop.code).toBe(1)
    expect(prop.stderr).toContain('--prop "nokey": expected KEY=VALUE')
  })

  it('says a resource that fails at plan time by its id, never by a path or position in the temp manifest, for a command and for the API', async () => {
    const s = sandbox()
    const r = await plait(['ensure', 'file', '/nodir/f', '--content', 'hi', ...attrs, '--root', s.root, ...state], { cwd: tempDir() })
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('error: file#/nodir/f: the parent directory /nodir does not exist')
    expect(r.stdout + r.stderr).not.toMatch(/plait-ensure-|ensure\.yaml/)
    const json = await plait(['ensure', 'file', '/nodir/f', '--content', 'hi', ...attrs, '--root', s.root, '--json'], { cwd: tempDir() })
    expect(json.code, show(json)).toBe(1)
    expect(json.stdout + json.stderr).not.toMatch(/plait-ensure-|ensure\.yaml/)
    const template = await plait(['ensure', 'file', '/etc/x', '--content', '${ nope( }', ...attrs, '--root', s.root], { cwd: tempDir() })
    expect(template.code, show(template)).toBe(1)
    expect(template.stderr).toContain('error: file#/etc/x: content:')
    expect(template.stdout + template.stderr).not.toMatch(/plait-ensure-|ensure\.yaml/)
    for (const [content, says] of [
      ['hi', 'the parent directory /nodir does not exist'],
      ['${ nope( }', 'file#/nodir/f: content:'],
    ] as const) {
      const request = { protocol: 'io.choria.ccm.v1.resource.ensure.request', type: 'file', properties: { name: '/nodir/f', content, owner: 'root', group: 'root', mode: '0644' } }
      const api = await piped(['ensure', 'api', 'pipe', '--noop', '--root', s.root], JSON.stringify(request))
      expect(api.stdout + api.stderr).not.toMatch(/plait-ensure-|ensure\.yaml/)
      expect(checkResponse(JSON.parse(api.stdout))).toEqual([])
      expect(api.stdout).toContain(says)
    }
  })

  it('shows the observed state of one resource with status --json, and changes nothing', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    fs.writeFileSync(s.at('/etc/hosts'), 'x\n', { mode: 0o640 })
    const before = fs.statSync(s.at('/etc/hosts')).mtimeMs
    const r = await plait(['status', 'file', '/etc/hosts', '--root', s.root, '--json'], { cwd: tempDir() })
    expect(r.code, show(r)).toBe(0)
    const v = JSON.parse(r.stdout) as { id: string; observed: { status: { _tag: string; size: number; mode: number } } }
    expect(v.id).toBe('file#/etc/hosts')
    expect(v.observed.status).toMatchObject({ _tag: 'File', size: 2, mode: 0o640 })
    expect(fs.statSync(s.at('/etc/hosts')).mtimeMs).toBe(before)
    const absent = await plait(['status', 'file', '/etc/none', '--root', s.root, '--json'], { cwd: tempDir() })
    expect((JSON.parse(absent.stdout) as { observed: { status: { _tag: string } } }).observed.status._tag).toBe('Absent')
  })

  it("shows a service's state from systemctl, and says why it cannot when systemd is down (exit 1, no temp file named)", async () => {
    const fake = fakeSystemctl(tempDir('plait-systemctl-'))
    fake.unit('web', { active: 'active', unitFile: 'enabled' })
    const r = await plait(['status', 'service', 'web', '--json'], { cwd: tempDir(), env: { PATH: fake.path } })
    expect(r.code, show(r)).toBe(0)
    expect(JSON.stringify((JSON.parse(r.stdout) as { observed: unknown }).observed)).toContain('active')
    expect(fake.calls().filter((c) => !c.startsWith('show'))).toEqual([])
    fake.down(true)
    const down = await plait(['status', 'service', 'web'], { cwd: tempDir(), env: { PATH: fake.path } })
    expect(down.code, show(down)).toBe(1)
    expect(down.stderr).toContain('error: service#web:')
    expect(down.stderr).not.toContain('ensure.yaml')
  })

  it('reads ./.env into what lookup("environ.…") sees, and ./.hiera as the data of the command', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const cwd = tempDir()
    fs.writeFileSync(path.join(cwd, '.env'), '# the greeting\nGREETING="hello there"\n')
    fs.writeFileSync(path.join(cwd, '.hiera'), 'data:\n  motd_mode: "0600"\n')
    const r = await plait(['ensure', 'file', '/etc/motd', '--content', '${ lookup("environ.GREETING") }', '--owner', 'root', '--group', 'root', '--mode', '${ lookup("data.motd_mode") }', '--root', s.root, ...state], { cwd })
    expect(r.code, show(r)).toBe(0)
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('hello there')
    expect(fs.statSync(s.at('/etc/motd')).mode & 0o777).toBe(0o600)
  })

  it('stops at a bad ./.env with its line named: exit 1 for a command, an error response for the API', async () => {
    const s = sandbox()
    const cwd = tempDir()
    fs.writeFileSync(path.join(cwd, '.env'), 'A=1\nthis is not a variable\n')
    const r = await plait(['ensure', 'file', '/etc/motd', '--content', 'x', ...attrs, '--root', s.root], { cwd })
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('.env: line 2: expected KEY=value')
    const api = await piped(['ensure', 'api', 'pipe', '--root', s.root], JSON.stringify(examples['package_request']), { cwd })
    expect(JSON.parse(api.stdout)).toEqual({ protocol: 'io.choria.ccm.v1.resource.ensure.response', error: expect.stringContaining('.env: line 2: expected KEY=value') })
  })

  it('refuses a ./.env that is a FIFO (at once, not waiting for a writer) or larger than 1 MiB', async () => {
    const s = sandbox()
    const fifo = tempDir()
    execFileSync('mkfifo', [path.join(fifo, '.env')])
    const big = tempDir()
    fs.writeFileSync(path.join(big, '.env'), `A=${'x'.repeat(1024 * 1024)}\n`)
    for (const [cwd, why] of [[fifo, 'is not a regular file'], [big, 'is larger than the limit of 1048576 bytes']] as const) {
      const r = await plait(['ensure', 'file', '/etc/motd', '--content', 'x', ...attrs, '--root', s.root], { cwd })
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toContain(`cannot read ${path.join(cwd, '.env')}: ${why}`)
      expect(r.stderr).not.toMatch(stackFrame)
    }
  })
})

/** A root, a working directory, and a private session store named in the environment. */
const sessionWorld = () => {
  const dir = tempDir('plait-session-')
  fs.chmodSync(dir, 0o700)
  return { s: sandbox(), cwd: tempDir(), dir, env: { PLAIT_SESSION_STORE: dir } }
}

describe('plait session', () => {
  it('restarts a service and runs a subscribed command because an earlier ensure file of the session changed it, and reports the session', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const fake = fakeSystemctl(tempDir('plait-systemctl-'))
    fake.unit('web', { active: 'active', unitFile: 'enabled' })
    const cwd = tempDir()
    const made = await plait(['session', 'new'], { cwd })
    expect(made.code, show(made)).toBe(0)
    const m = /^export PLAIT_SESSION_STORE='([^']+)'\n$/.exec(made.stdout)
    expect(m, made.stdout).not.toBeNull()
    const dir = m![1]!
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    const env = { PATH: fake.path, PLAIT_SESSION_STORE: dir }
    const file = await plait(['ensure', 'file', '/etc/web.conf', '--content', 'port 80\n', ...attrs, '--root', s.root, ...state], { cwd, env })
    expect(file.code, show(file)).toBe(0)
    const svc = await plait(['ensure', 'service', 'web', 'running', '--subscribe', 'file#/etc/web.conf', '--root', s.root, ...state], { cwd, env })
    expect(svc.code, show(svc)).toBe(0)
    expect(svc.stdout).toContain('service.restart')
    expect(fake.calls().filter((c) => !c.startsWith('show'))).toContain('restart --system -- web')
    const marker = s.at('/ran')
    const ex = await plait(['ensure', 'exec', `/bin/touch ${marker}`, '--refresh-only', 'true', '--subscribe', 'file#/etc/web.conf', '--root', s.root, ...state], { cwd, env })
    expect(ex.code, show(ex)).toBe(0)
    expect(fs.existsSync(marker)).toBe(true)
    // Nothing changed it since: a second file ensure is stable, and a subscriber of another resource does not restart.
    const calls = fake.calls().length
    const other = await plait(['ensure', 'service', 'web', '--subscribe', 'file#/etc/other.conf', '--root', s.root, ...state], { cwd, env })
    expect(other.code, show(other)).toBe(0)
    expect(fake.calls().slice(calls).filter((c) => c.startsWith('restart'))).toEqual([])
    const report = await plait(['session', 'report', '--json'], { cwd, env })
    expect(report.code, show(report)).toBe(0)
    const summary = JSON.parse(report.stdout) as { resources: { id: string; outcome: string }[]; counts: Record<string, number> }
    expect(summary.resources.map((r) => [r.id, r.outcome])).toEqual([
      ['file#/etc/web.conf', 'changed'],
      ['service#web', 'stable'],
      [`exec#/bin/touch ${marker}`, 'changed'],
    ])
    const removed = await plait(['session', 'report', '--remove'], { cwd, env })
    expect(removed.code, show(removed)).toBe(0)
    expect(removed.stdout).toContain('3 resources, 2 changed, 1 stable, 0 failed, 0 skipped')
    expect(fs.existsSync(dir)).toBe(false)
  })

  it('skips a resource whose requirement failed earlier in the session, and refuses --require without a session', async () => {
    const { s, cwd, env } = sessionWorld()
    const bad = await plait(['ensure', 'file', '/etc/a', '--content', 'x', '--root', s.root], { cwd, env })
    expect(bad.code).toBe(1)
    const dep = await plait(['ensure', 'file', '/etc/b', '--content', 'y', ...attrs, '--require', 'file#/etc/a', '--root', s.root, ...state], { cwd, env })
    expect(dep.code, show(dep)).toBe(1)
    expect(dep.stdout).toContain('skipped file#/etc/b: unmet requirement: file#/etc/a failed')
    const none = await plait(['ensure', 'file', '/etc/b', '--content', 'y', ...attrs, '--require', 'file#/etc/a', '--root', s.root], { cwd })
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('there is no session')
  })

  it('reads the session only for a command with --require or --subscribe: one without runs in a session too large to read', async () => {
    const { s, cwd, dir, env } = sessionWorld()
    fs.mkdirSync(s.at('/etc'))
    expect((await plait(['ensure', 'file', '/etc/a', '--content', 'x', ...attrs, '--root', s.root, ...state], { cwd, env })).code).toBe(0)
    // past the most a session may hold: its log cannot be read
    const log = fs.readdirSync(dir).map((f) => path.join(dir, f))[0]!
    fs.appendFileSync(log, `${fs.readFileSync(log, 'utf8').trimEnd()}\n`.repeat(Math.ceil((16 * 1024 * 1024) / fs.statSync(log).size) + 1))
    const plain = await plait(['ensure', 'file', '/etc/b', '--content', 'y', ...attrs, '--root', s.root, ...state], { cwd, env })
    expect(plain.code, show(plain)).toBe(0)
    const linked = await plait(['ensure', 'file', '/etc/c', '--content', 'z', ...attrs, '--require', 'file#/etc/a', '--root', s.root, ...state], { cwd, env })
    expect(linked.code).toBe(1)
    expect(linked.stderr).toContain('larger than 16777216 bytes')
    // an unfit store is refused either way
    fs.chmodSync(dir, 0o777)
    const open = await plait(['ensure', 'file', '/etc/d', '--content', 'w', ...attrs, '--root', s.root, ...state], { cwd, env })
    expect(open.code).toBe(1)
    expect(open.stderr).toContain('writable by others')
  })
})

describe('plait ensure api pipe', () => {
  it("answers CCM's example requests with responses that satisfy CCM's response schema", async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const file = { protocol: 'io.choria.ccm.v1.resource.ensure.request', type: 'file', properties: { name: '/etc/motd', ensure: 'present', content: 'Welcome\n', owner: 'root', group: 'root', mode: '0644' } }
    const r = await piped(['ensure', 'api', 'pipe', '--root', s.root, ...state], JSON.stringify(file))
    expect(r.code, show(r)).toBe(0)
    const v = JSON.parse(r.stdout) as { state: { changed: boolean; failed: boolean; final_ensure: string } }
    expect(checkResponse(v)).toEqual([])
    expect(v.state).toMatchObject({ changed: true, failed: false, final_ensure: 'present' })
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('Welcome\n')
    const yaml = `protocol: io.choria.ccm.v1.resource.ensure.request\ntype: file\nproperties:\n  name: /etc/motd\n  content: "Welcome\\n"\n  owner: root\n  group: root\n  mode: "0644"\n`
    const again = await piped(['ensure', 'api', 'pipe', '--root', s.root, ...state], yaml)
    expect(checkResponse(JSON.parse(again.stdout))).toEqual([])
    expect(JSON.parse(again.stdout)).toMatchObject({ state: { changed: false, failed: false } })
    // CCM's package example, in noop: the answer validates whatever the machine has installed.
    const pkg = await piped(['ensure', 'api', 'pipe', '--noop', '--root', s.root], JSON.stringify(examples['package_request']))
    expect(checkResponse(JSON.parse(pkg.stdout)), pkg.stdout + pkg.stderr).toEqual([])
  })

  it("reports health check results in CCM's health_check field, not in error, and fails the resource on one that is not OK", async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const request = (checks: ReadonlyArray<Record<string, unknown>>) =>
      JSON.stringify({ protocol: 'io.choria.ccm.v1.resource.ensure.request', type: 'file', properties: { name: '/etc/motd', content: 'hi\n', owner: 'root', group: 'root', mode: '0644', health_checks: checks } })
    const ok = await piped(['ensure', 'api', 'pipe', '--root', s.root, ...state], request([{ name: 'up', command: '/bin/echo all good' }]))
    expect(ok.code, show(ok)).toBe(0)
    const good = JSON.parse(ok.stdout) as { state: Record<string, unknown> }
    expect(checkResponse(good)).toEqual([])
    expect(good.state).toMatchObject({ changed: true, failed: false, health_check: [{ status: 'ok', tries: 1, output: 'all good' }] })
    expect(good.state['error']).toBeUndefined()
    const bad = await piped(['ensure', 'api', 'pipe', '--root', s.root, ...state], request([{ name: 'up', command: '/bin/echo all good' }, { name: 'down', command: '/bin/sh -c "echo gone; exit 2"', tries: 2, try_sleep: '10ms' }]))
    expect(bad.code, show(bad)).toBe(0)
    const failed = JSON.parse(bad.stdout) as { state: { health_check: unknown; error: string[]; failed: boolean } }
    expect(checkResponse(failed)).toEqual([])
    expect(failed.state.failed).toBe(true)
    expect(failed.state.health_check).toEqual([
      { status: 'ok', tries: 1, output: 'all good' },
      { status: 'critical', tries: 2, output: 'gone' },
    ])
    expect(failed.state.error).toEqual(['health check down is CRITICAL (see health_check)'])
  })

  it('gives a malformed request an error response, never a stack trace', async () => {
    for (const [input, says] of [
      ['{"protocol":"wrong.protocol","type":"file","properties":{"name":"/x"}}', 'invalid protocol "wrong.protocol"'],
      ['{not json', 'not JSON or YAML'],
      ['', 'empty'],
      ['[1,2]', 'must be an object'],
      ['{"protocol":"io.choria.ccm.v1.resource.ensure.request","type":"archive","properties":{"name":"/x"}}', 'unknown resource type "archive"'],
      ['{"protocol":"io.choria.ccm.v1.resource.ensure.request","type":"file","properties":{}}', 'properties.name'],
      ['{"protocol":"io.choria.ccm.v1.resource.ensure.request","type":"file","properties":{"name":"/etc/x","content":"x"}}', 'owner is required'],
      // a problem for each of 1,000 unknown properties: the first are named, the rest counted
      [JSON.stringify({ protocol: 'io.choria.ccm.v1.resource.ensure.request', type: 'file', properties: { name: '/etc/x', ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`bogus${i}`, 1])) } }), `(and ${1003 - Api.maxProblems} more)`],
    ] as const) {
      const r = await piped(['ensure', 'api', 'pipe', '--noop', '--root', tempDir()], input)
      expect(r.stdout + r.stderr).not.toMatch(stackFrame)
      const v = JSON.parse(r.stdout) as { error?: string }
      expect(checkResponse(v)).toEqual([])
      expect(v.error).toContain(says)
    }
  })
})
