// goss rules checked on the real machine: files, users and groups under a temp root (its own
// /etc/passwd and /etc/group), commands as real processes, packages through dpkg (read only, the
// host's database), services through the stand-in systemctl (systemd cannot run here: it is not
// PID 1), processes and ports from the host's /proc, http against a real server on 127.0.0.1
// started here, and addr against that server's port.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Health from '../../../src/executor/health.js'
import * as Commands from '../../../src/interpreters/commands/posix.js'
import * as Context from '../../../src/interpreters/goss/context.js'
import * as Run from '../../../src/interpreters/goss/run.js'
import * as Probes from '../../../src/interpreters/goss/probes.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../../src/core/Fault.js'
import * as PackageSelect from '../../../src/interpreters/packages/select.js'
import * as Posix from '../../../src/interpreters/posix/posix.js'
import * as Systemctl from '../../../src/interpreters/services/systemctl.js'
import { fakeSystemctl } from '../../support/systemctl.js'

let root: string
let base: string
let server: http.Server
let port: number

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-goss-'))
  root = path.join(base, 'root')
  fs.mkdirSync(path.join(root, 'etc'), { recursive: true })
  fs.writeFileSync(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\nweb:x:1500:1500:Web:/srv/web:/usr/sbin/nologin\n')
  fs.writeFileSync(path.join(root, 'etc/group'), 'root:x:0:\nweb:x:1500:\nwheel:x:10:web\n')
  fs.writeFileSync(path.join(root, 'etc/motd'), 'Welcome to Acme\nport 8080\n')
  fs.chmodSync(path.join(root, 'etc/motd'), 0o640)
  fs.mkdirSync(path.join(root, 'srv'))
  server = http.createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { Location: '/' })
      res.end()
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2000)
    } else {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-App': 'acme' })
      res.end('Hello from Acme Inc\n')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  fs.rmSync(base, { recursive: true, force: true })
})

const context = (extra: Partial<Context.Given> = {}) => {
  const machine = Posix.make({ root })
  return Context.make({ machine, ...extra }, Commands.make({ root }))
}
const check = (rules: unknown, extra: Partial<Context.Given> = {}) => Run.check(rules, context(extra))

describe('goss rules against the real machine', () => {
  it('checks a file under the root: existence, mode, owner, type, contents and sha256', async () => {
    const sha = (await import('node:crypto')).createHash('sha256').update('Welcome to Acme\nport 8080\n').digest('hex')
    const me = os.userInfo().uid
    const r = await check({ file: { '/etc/motd': { exists: true, mode: '0640', filetype: 'file', sha256: sha, size: { gt: 10 }, contents: ['Acme', '/^port \\d+$/', '!Evil'], owner: me === 0 ? 'root' : String(me) }, '/srv': { filetype: 'directory' }, '/nope': { exists: false } } })
    expect(r).toEqual({ status: 'OK', message: 'goss: 9 checks of 3 rules passed' })
  })
  it('names a file check that fails with what it expected and found', async () => {
    const r = await check({ file: { '/etc/motd': { mode: '0644', contents: ['Welcome', 'Goodbye'] } } })
    expect(r.status).toBe('CRITICAL')
    expect(r.message).toBe('goss: 2 of 2 checks failed: file "/etc/motd" mode: expected "0644", got "0640"; file "/etc/motd" contents: expected patterns ["Goodbye"], got no match in "Welcome to Acme\\nport 8080\\n"')
  })
  it('reads at most 1 MiB of a file for contents, and says so of a larger one', async () => {
    fs.writeFileSync(path.join(root, 'srv/big'), Buffer.alloc(1_048_577, 'a'))
    const r = await check({ file: { '/srv/big': { contents: ['b'] } } })
    expect(r.message).toBe('goss: 1 of 1 checks failed: file "/srv/big" contents: expected ["b"], got could not be checked: it is larger than 1048576 bytes, the most a contents check reads')
  })
  it('does not see outside the root (--root confinement): a file beside the root is not there', async () => {
    fs.writeFileSync(path.join(base, 'outside'), 'secret')
    const r = await check({ file: { '/../outside': { exists: true } } })
    expect(r.status).toBe('CRITICAL')
    expect(r.message).not.toMatch(/got true/)
  })
  it("checks users and groups from the root's /etc/passwd and /etc/group", async () => {
    const ok = await check({ user: { web: { exists: true, uid: 1500, gid: { ge: 1000 }, groups: { 'consist-of': ['web', 'wheel'] }, home: '/srv/web', shell: { 'have-suffix': 'nologin' } }, nobody: { exists: false } }, group: { wheel: { gid: 10 } } })
    expect(ok).toEqual({ status: 'OK', message: 'goss: 8 checks of 3 rules passed' })
    const bad = await check({ user: { web: { groups: ['root'] } } })
    expect(bad.message).toBe('goss: 1 of 1 checks failed: user "web" groups: expected {"contain-elements":["root"]}, got ["web","wheel"]')
  })
  it('runs commands as real processes: exit status, stdout and stderr, and a timeout', async () => {
    const ok = await check({ command: { 'echo hello; echo oops >&2; exit 3': { 'exit-status': 3, stdout: ['hello'], stderr: { 'contain-substring': 'oops' } } } })
    expect(ok.status).toBe('OK')
    const slow = await check({ command: { late: { exec: 'sleep 5', 'exit-status': 0, timeout: 200 } } })
    expect(slow.status).toBe('CRITICAL')
    expect(slow.message).toMatch(/command "late" exit-status: expected 0, got could not be checked: run \/bin\/sh: ran longer than 0\.2 s/)
  })
  it('checks an http server on 127.0.0.1: status, body, headers and redirects', async () => {
    const url = `http://127.0.0.1:${port}/`
    expect(await check({ http: { [url]: { status: 200, body: ['Acme Inc'], headers: ['X-App: acme'] }, [`${url}moved`]: { status: 200 } } })).toEqual({ status: 'OK', message: 'goss: 4 checks of 2 rules passed' })
    const noFollow = await check({ http: { [`${url}moved`]: { status: 200, 'no-follow-redirects': true } } })
    expect(noFollow.message).toBe(`goss: 1 of 1 checks failed: http "${url}moved" status: expected 200, got 302`)
    const slow = await check({ http: { [`${url}slow`]: { status: 200, timeout: 200 } } })
    expect(slow.message).toMatch(/could not be checked: timed out after 200ms/)
  })
  it('refuses a self-signed https certificate unless allow-insecure is true (a real TLS server, its certificate made with openssl)', async () => {
    const key = path.join(base, 'key.pem')
    const cert = path.join(base, 'cert.pem')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert, '-days', '1'], { stdio: 'ignore' })
    const tls = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_, res) => res.end('secure\n'))
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
    try {
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`
      const strict = await check({ http: { [url]: { status: 200 } } })
      expect(strict.message).toMatch(/status: expected 200, got could not be checked: self[- ]signed certificate/)
      expect(await check({ http: { [url]: { status: 200, body: ['secure'], 'allow-insecure': true } } })).toEqual({ status: 'OK', message: 'goss: 2 checks of 1 rule passed' })
    } finally {
      tls.closeAllConnections()
      await new Promise<void>((resolve) => tls.close(() => resolve()))
    }
  }, 30_000)
  it('checks addr and port: the test server is reachable and listening, a closed port is neither', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port
        s.close(() => resolve(p))
      })
    })
    const r = await check({ addr: { [`tcp://127.0.0.1:${port}`]: { reachable: true }, [`tcp://127.0.0.1:${closed}`]: { reachable: false } }, port: { [`tcp:${port}`]: { listening: true, ip: ['127.0.0.1'] }, [`tcp:${closed}`]: { listening: false } } })
    expect(r).toEqual({ status: 'OK', message: 'goss: 5 checks of 4 rules passed' })
  })
  it('checks processes by name in /proc', async () => {
    const comm = fs.readFileSync(`/proc/${process.pid}/comm`, 'utf8').trim()
    expect(await check({ process: { [comm]: { running: true }, 'no-such-process-here': { running: false } } })).toEqual({ status: 'OK', message: 'goss: 2 checks of 2 rules passed' })
  })
  it('answers many process and port rules from one reading of a proc directory (a fake one here)', async () => {
    const proc = path.join(base, 'proc')
    const names = ['nginx', 'sshd', 'postgres']
    names.forEach((n, i) => {
      fs.mkdirSync(path.join(proc, String(100 + i)), { recursive: true })
      fs.writeFileSync(path.join(proc, String(100 + i), 'comm'), `${n}\n`)
    })
    fs.mkdirSync(path.join(proc, 'self'))
    fs.mkdirSync(path.join(proc, 'net'))
    const head = '  sl  local_address rem_address   st\n'
    fs.writeFileSync(path.join(proc, 'net/tcp'), `${head}   0: 0100007F:1F90 00000000:0000 0A\n   1: 00000000:0016 00000000:0000 0A\n   2: 0100007F:0050 0100007F:D2F0 01\n`)
    fs.writeFileSync(path.join(proc, 'net/tcp6'), `${head}   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A\n`)
    const processes = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i < names.length ? names[i]! : `absent-${i}`, { running: i < names.length }]))
    const ports = { 'tcp:8080': { listening: true, ip: ['127.0.0.1', '::1'] }, 'tcp6:8080': { listening: true, ip: ['::1'] }, 'tcp:22': { listening: true, ip: ['0.0.0.0'] }, 'tcp:80': { listening: false }, 'udp:53': { listening: false } }
    expect(await check({ process: processes, port: ports }, { proc })).toEqual({ status: 'OK', message: 'goss: 308 checks of 305 rules passed' })
    expect(await check({ process: { sshd: { running: false } } }, { proc })).toEqual({ status: 'CRITICAL', message: 'goss: 1 of 1 checks failed: process "sshd" running: expected false, got true' })
    expect((await check({ process: { sshd: { running: true } } }, { proc: path.join(base, 'no-proc') })).status).toBe('CRITICAL')
  })

  it("checks packages through dpkg's status (the host's database, read only)", async () => {
    const packages = PackageSelect.make({ root: '/' })
    const r = await check({ package: { dpkg: { installed: true, versions: { 'contain-element': { 'match-regexp': '^\\d+\\.' } } }, 'no-such-package-plait': { installed: false } } }, { packages: () => packages })
    expect(r).toEqual({ status: 'OK', message: 'goss: 3 checks of 2 rules passed' })
  }, 30_000)
  it('checks services through the service manager (a stand-in systemctl: systemd cannot run here)', async () => {
    const fake = fakeSystemctl(path.join(base, 'systemctl'))
    fake.unit('httpd.service', { active: 'active', unitFile: 'enabled' })
    fake.unit('cron.service', { active: 'inactive', unitFile: 'disabled' })
    const services = Systemctl.make({ path: fake.path })
    const r = await check({ service: { 'httpd.service': { running: true, enabled: true }, 'cron.service': { running: true } } }, { services: () => services })
    expect(r).toEqual({ status: 'CRITICAL', message: 'goss: 1 of 3 checks failed: service "cron.service" running: expected true, got false' })
  })
  it('is UNKNOWN for rules a plan carries that do not decode', async () => {
    expect((await check({ mount: { '/': { exists: true } } })).status).toBe('UNKNOWN')
  })
})

describe('goss health checks with tries', () => {
  it('run through the executor until OK, within the check timeout', async () => {
    const marker = path.join(root, 'srv/ready')
    let tries = 0
    const wait = async () => {
      tries++
      if (tries === 2) fs.writeFileSync(marker, '')
    }
    const r = await Health.runCheck({ name: 'ready', argv: [], goss: { file: { '/srv/ready': { exists: true } } }, timeoutMs: 5000, tries: 4, trySleepMs: 1 }, Commands.make({ root }), wait, { machine: Posix.make({ root }) })
    expect(r).toEqual({ name: 'ready', status: 'OK', message: 'goss: 1 check of 1 rule passed', tries: 3 })
  })
  it('are UNKNOWN when the whole check outlives its timeout', async () => {
    const r = await Health.runCheck({ name: 'slow', argv: [], goss: { command: { 'sleep 3': { 'exit-status': 0 } } }, timeoutMs: 100, tries: 1, trySleepMs: 1 }, Commands.make({ root }), async () => undefined, { machine: Posix.make({ root }) })
    expect(r).toEqual({ name: 'slow', status: 'UNKNOWN', message: 'goss rules timed out after 100ms', tries: 1 })
  })
})

describe('Context', () => {
  it('gives every check of a run made from one shared Given the same managers, made on first use; a Given without them, a manager each', () => {
    const machine = Posix.make({ root })
    const runner = Commands.make({ root })
    const given = Context.shared(machine)
    const [a, b] = [Context.make(given, runner), Context.make(given, runner)]
    expect(a.packages()).toBe(b.packages())
    expect(a.services()).toBe(b.services())
    const [c, d] = [Context.make({ machine }, runner), Context.make({ machine }, runner)]
    expect(c.packages()).toBe(c.packages())
    expect(c.packages()).not.toBe(d.packages())
  })
})

describe('Probes.batched', () => {
  it('asks the manager once for every name, and name by name when the batch as a whole fails', async () => {
    const asked: string[][] = []
    const ask = async (names: ReadonlyArray<string>) => {
      asked.push([...names])
      return names.includes('bad') ? E.left(Fault.make('Failed', 'packages', 'status', names.join(' '), 'refused')) : E.right(names.map((n) => n.toUpperCase()))
    }
    const good = Probes.batched(['a', 'b', 'a', 'c'], ask)
    expect(await Promise.all(['a', 'b', 'c'].map(good))).toEqual([E.right('A'), E.right('B'), E.right('C')])
    expect(asked).toEqual([['a', 'b', 'c']])
    asked.length = 0
    const mixed = Probes.batched(['a', 'bad'], ask)
    expect(await mixed('a')).toEqual(E.right('A'))
    expect(E.isLeft(await mixed('bad'))).toBe(true)
    expect(asked).toEqual([['a', 'bad'], ['a'], ['bad']])
    // a name outside the batch is asked alone
    asked.length = 0
    expect(await mixed('z')).toEqual(E.right('Z'))
    expect(asked).toEqual([['z']])
  })

  fcTest.prop([fc.uniqueArray(fc.nat(600), { minLength: 1, maxLength: 300 }), fc.uniqueArray(fc.nat(600), { maxLength: 4 })], { numRuns: 200 })(
    'answers every name as asking it alone answers, splitting a failed batch so that a few bad names cost a few batches',
    async (ids, badIds) => {
      const names = ids.map((i) => `p${i}`)
      const bad = new Set(badIds.map((i) => `p${i}`))
      let asks = 0
      const ask = async (ns: ReadonlyArray<string>) => {
        asks++
        const refused = ns.find((n) => bad.has(n))
        return refused !== undefined ? E.left(Fault.make('Failed', 'packages', 'status', refused, `${refused} refused`)) : E.right(ns.map((n) => n.length))
      }
      const answer = Probes.batched(names, ask)
      for (const n of names) {
        const alone = bad.has(n) ? E.left(Fault.make('Failed', 'packages', 'status', n, `${n} refused`)) : E.right(n.length)
        expect(await answer(n)).toEqual(alone)
      }
      // each bad name costs at most two asks a level of halving; none, one
      const badIn = names.filter((n) => bad.has(n)).length
      expect(asks).toBeLessThanOrEqual(1 + 2 * badIn * Math.ceil(Math.log2(names.length) + 1))
    },
  )
})
