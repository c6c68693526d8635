// The Holo plugins plait ships (lib/holo): their holo-test(7) suites pass under `plait holo test`
// (the built command, on a copy of each plugin's folder in a temporary directory, since a test run
// writes its target/ beside each case), a deviation from an expectation fails the suite, and the
// protocol edges the suites cannot reach (info, the API version, fd 3) hold when each plugin is
// run on its own.
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, repo, show, tempDir } from '../e2e/helpers.js'

const plugins = ['oneshot', 'settings'] as const
const binaryOf = (id: string): string => path.join(repo, 'lib', 'holo', id, `holo-${id}`)

/** A copy of a plugin's folder (its binary and its test cases) in a temporary directory, and its case directories. */
const copyOf = (id: string): { readonly dir: string; readonly cases: ReadonlyArray<string> } => {
  const dir = path.join(tempDir('plait-holo-lib-'), id)
  fs.cpSync(path.join(repo, 'lib', 'holo', id), dir, { recursive: true })
  const cases = fs
    .readdirSync(path.join(dir, 'test'))
    .sort()
    .map((c) => path.join(dir, 'test', c))
  return { dir, cases }
}

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly fd3: string
}

/** Runs a plugin operation with fd 3 open as a pipe (as a Holo host does). */
const runPlugin = (id: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>>, withFd3 = true): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(binaryOf(id), [...args], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe', withFd3 ? 'pipe' : 'ignore'] })
    let stdout = ''
    let stderr = ''
    let fd3 = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    if (withFd3) (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (d: string) => (fd3 += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, fd3 }))
  })

beforeAll(() => ensureBuilt(), 600_000)
afterAll(cleanup)

describe.each(plugins)('the %s plugin', (id) => {
  it('passes its holo-test suite under plait holo test', async () => {
    const { dir, cases } = copyOf(id)
    expect(cases.length).toBeGreaterThanOrEqual(2)
    const r = await plait(['holo', 'test', ...cases], { cwd: dir })
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain(`All ${cases.length} test cases passed`)
  }, 120_000)

  it('fails its suite when an expectation deviates, and says which', async () => {
    const { dir, cases } = copyOf(id)
    const first = cases[0]!
    fs.appendFileSync(path.join(first, 'expected-scan-output'), 'an entity nobody reports\n')
    const r = await plait(['holo', 'test', ...cases], { cwd: dir })
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout).toContain('The scan-output deviates from our expectation')
  }, 120_000)

  it('answers info with API version 3 whatever HOLO_API_VERSION says, and refuses other operations under another version', async () => {
    const info = await runPlugin(id, ['info'], { HOLO_API_VERSION: '9' })
    expect(info).toMatchObject({ code: 0, stdout: 'MIN_API_VERSION=3\nMAX_API_VERSION=3\n' })
    const dir = tempDir('plait-holo-lib-')
    const scan = await runPlugin(id, ['scan'], { HOLO_API_VERSION: '4', HOLO_RESOURCE_DIR: dir, HOLO_STATE_DIR: dir, HOLO_ROOT_DIR: dir })
    expect(scan.code).toBe(1)
    expect(scan.stderr).toMatch(/supports API version 3, not 4/)
  })

  it('refuses an unknown operation and an entity of another plugin, on stderr, exiting non-zero', async () => {
    const dir = tempDir('plait-holo-lib-')
    const env = { HOLO_API_VERSION: '3', HOLO_RESOURCE_DIR: dir, HOLO_STATE_DIR: dir, HOLO_ROOT_DIR: dir }
    const unknown = await runPlugin(id, ['frobnicate'], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/unknown operation/)
    const foreign = await runPlugin(id, ['apply', 'file:/etc/foo.conf'], env)
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toMatch(/not an entity of holo-/)
  })
})

describe('holo-oneshot', () => {
  it('writes "not changed" on fd 3 for a script whose content already ran, and runs it again once it changes', async () => {
    const base = tempDir('plait-holo-lib-')
    const res = path.join(base, 'res')
    const state = path.join(base, 'state')
    fs.mkdirSync(res)
    fs.mkdirSync(state)
    fs.writeFileSync(path.join(res, 'count'), '#!/bin/sh\necho x >> ran\n', { mode: 0o755 })
    const env = { HOLO_API_VERSION: '3', HOLO_RESOURCE_DIR: res, HOLO_STATE_DIR: state, HOLO_ROOT_DIR: base }
    expect(await runPlugin('oneshot', ['apply', 'oneshot:count'], env)).toMatchObject({ code: 0, fd3: '' })
    expect(await runPlugin('oneshot', ['apply', 'oneshot:count'], env)).toMatchObject({ code: 0, fd3: 'not changed\n' })
    expect(fs.readFileSync(path.join(base, 'ran'), 'utf8')).toBe('x\n')
    fs.writeFileSync(path.join(res, 'count'), '#!/bin/sh\necho y >> ran\n', { mode: 0o755 })
    expect((await runPlugin('oneshot', ['scan'], env)).stdout).toContain('ACTION: Running (script changed since it last ran)')
    expect(await runPlugin('oneshot', ['apply', 'oneshot:count'], env)).toMatchObject({ code: 0, fd3: '' })
    expect(fs.readFileSync(path.join(base, 'ran'), 'utf8')).toBe('x\ny\n')
  })

  it('runs a script without the host\'s fd 3, so that it cannot answer for the plugin', async () => {
    const base = tempDir('plait-holo-lib-')
    fs.writeFileSync(path.join(base, 'sneaky'), '#!/bin/sh\necho "requires --force to overwrite" >&3 2>/dev/null\necho ran > ran\n', { mode: 0o755 })
    const r = await runPlugin('oneshot', ['apply', 'oneshot:sneaky'], { HOLO_API_VERSION: '3', HOLO_RESOURCE_DIR: base, HOLO_STATE_DIR: base, HOLO_ROOT_DIR: base })
    expect(r).toMatchObject({ code: 0, fd3: '' })
    expect(fs.readFileSync(path.join(base, 'ran'), 'utf8')).toBe('ran\n')
  })

  it('refuses a script name that could forge a report line', async () => {
    const base = tempDir('plait-holo-lib-')
    fs.writeFileSync(path.join(base, 'bad\nENTITY: x'), '#!/bin/sh\n', { mode: 0o755 })
    const r = await runPlugin('oneshot', ['scan'], { HOLO_API_VERSION: '3', HOLO_RESOURCE_DIR: base, HOLO_STATE_DIR: base, HOLO_ROOT_DIR: base })
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/not a valid script name/)
  })
})

describe('holo-settings', () => {
  const setUp = () => {
    const base = tempDir('plait-holo-lib-')
    const root = path.join(base, 'root')
    const res = path.join(base, 'res')
    fs.mkdirSync(path.join(root, 'etc'), { recursive: true })
    fs.mkdirSync(path.join(res, '10-app', 'etc'), { recursive: true })
    fs.writeFileSync(path.join(root, 'etc', 'app.conf'), 'port = 80\n')
    fs.writeFileSync(path.join(res, '10-app', 'etc', 'app.conf'), 'port=8080\nmode=fast\n')
    return { root, env: { HOLO_API_VERSION: '3', HOLO_RESOURCE_DIR: res, HOLO_STATE_DIR: path.join(base, 'state'), HOLO_ROOT_DIR: root } }
  }

  it('keeps the spacing of a line it sets, appends a missing key, and is "not changed" the second time', async () => {
    const { root, env } = setUp()
    expect(await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env)).toMatchObject({ code: 0, fd3: '' })
    expect(fs.readFileSync(path.join(root, 'etc', 'app.conf'), 'utf8')).toBe('port = 8080\nmode=fast\n')
    expect(await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env)).toMatchObject({ code: 0, fd3: 'not changed\n' })
    expect((await runPlugin('settings', ['scan'], env)).stdout).toContain('state: up to date')
  })

  it('names the last applied and the current file on fd 3 for diff, and nothing for a target never applied', async () => {
    const { env } = setUp()
    expect(await runPlugin('settings', ['diff', 'settings:/etc/app.conf'], env)).toMatchObject({ code: 0, fd3: '' })
    await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env)
    const d = await runPlugin('settings', ['diff', 'settings:/etc/app.conf'], env)
    expect(d.fd3).toBe(`${env.HOLO_STATE_DIR}/provisioned/etc/app.conf\0${env.HOLO_ROOT_DIR}/etc/app.conf\0`)
  })

  it('refuses a malformed settings line with its file and line number', async () => {
    const { env } = setUp()
    fs.writeFileSync(path.join(env.HOLO_RESOURCE_DIR, '10-app', 'etc', 'app.conf'), 'port=8080\njust words\n')
    const r = await runPlugin('settings', ['scan'], env)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('app.conf:2: expected key=value or !key')
  })

  it('refuses an entity path that leaves the root', async () => {
    const { env } = setUp()
    const r = await runPlugin('settings', ['apply', 'settings:/etc/../../outside'], env)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/not a valid target path/)
  })

  it('skips a target that is a symlink, or whose directory leads out of the root, and never writes through it', async () => {
    const { root, env } = setUp()
    const outside = tempDir('plait-holo-outside-')
    fs.writeFileSync(path.join(outside, 'app.conf'), 'port = 1\n')
    fs.rmSync(path.join(root, 'etc', 'app.conf'))
    fs.symlinkSync(path.join(outside, 'app.conf'), path.join(root, 'etc', 'app.conf'))
    expect((await runPlugin('settings', ['scan'], env)).stdout).toContain('ACTION: Skipping (the target is a symlink)')
    const linked = await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env)
    expect(linked.code).toBe(1)
    expect(linked.stderr).toMatch(/the target is a symlink/)
    fs.rmSync(path.join(root, 'etc'), { recursive: true })
    fs.symlinkSync(outside, path.join(root, 'etc'))
    const escaped = await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env)
    expect(escaped.code).toBe(1)
    expect(escaped.stderr).toMatch(/leads out of the root/)
    expect(fs.readFileSync(path.join(outside, 'app.conf'), 'utf8')).toBe('port = 1\n')
  })

  it('says so when fd 3 is not open, instead of failing silently', async () => {
    const { env } = setUp()
    const r = await runPlugin('settings', ['apply', 'settings:/etc/app.conf'], env, false)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/file descriptor 3 is not open/)
  })
})
