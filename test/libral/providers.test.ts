// plait's own providers (lib/libral/providers), run for real in sandboxes, and `plait provider
// test` (the property test) run on them and on fixtures.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Fault from '../../src/core/Fault.js'
import * as Discover from '../../src/interpreters/libral/discover.js'
import * as ProviderTest from '../../src/interpreters/libral/providerTest.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import * as Changes from '../../src/interpreters/libral/protocol/Changes.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import { cleanup, ownProvider, tempDir } from './support.js'

afterAll(cleanup)

const hostEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'] }

const open = async (name: string, files: Record<string, string> = {}): Promise<{ root: string; s: Session.Session; p: Discover.Provider }> => {
  const root = tempDir()
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true })
    fs.writeFileSync(path.join(root, f), text)
  }
  const s = Session.make({ root, hostEnv })
  const p = await Discover.load(s.context, ownProvider(name))
  if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
  return { root, s, p: p.right }
}

const right = <A>(r: E.Either<Fault.Fault, A>): A => {
  if (E.isLeft(r)) throw new Error(`${r.left.op} ${r.left.subject}: ${r.left.description}`)
  return r.right
}

/** Plans and applies desired attributes, returning the changes made. */
const ensure = async (x: { s: Session.Session; p: Discover.Provider }, name: string, desired: Resource.Attrs): Promise<ReadonlyArray<Resource.Change>> => {
  const found = right(await x.s.find(x.p, name))
  const r = right(await x.s.update(x.p, found, Changes.plan(x.p.meta, desired, found), { noop: false }))
  if (r._tag === 'Unknown') throw new Error('unknown')
  return r.changes
}

describe('host::etc_hosts', () => {
  const hosts = '# static table\n127.0.0.1\tlocalhost\n::1 localhost ip6-localhost  # loopback\n10.0.0.4   db1 db  # the database\n10.0.0.9 db1 shadowed\n'

  it('lists the first line of each canonical name, with its aliases', async () => {
    const x = await open('etc_hosts', { 'etc/hosts': hosts })
    expect(x.p.meta.qname).toBe('host::etc_hosts')
    expect(right(await x.s.list(x.p))).toEqual([
      Resource.make('localhost', { ensure: 'present', ip: '127.0.0.1', aliases: [], target: '/etc/hosts' }),
      Resource.make('db1', { ensure: 'present', ip: '10.0.0.4', aliases: ['db'], target: '/etc/hosts' }),
    ])
  })

  it('changes one entry in place and keeps every other line, comment and mode', async () => {
    const x = await open('etc_hosts', { 'etc/hosts': hosts })
    fs.chmodSync(path.join(x.root, 'etc/hosts'), 0o640)
    expect(await ensure(x, 'db1', { ip: '10.0.0.5', aliases: ['db', 'pg'] })).toEqual([Resource.change('ip', '10.0.0.4', '10.0.0.5'), Resource.change('aliases', ['db'], ['db', 'pg'])])
    expect(fs.readFileSync(path.join(x.root, 'etc/hosts'), 'utf8')).toBe('# static table\n127.0.0.1\tlocalhost\n::1 localhost ip6-localhost  # loopback\n10.0.0.5\tdb1 db pg # the database\n10.0.0.9 db1 shadowed\n')
    expect(fs.statSync(path.join(x.root, 'etc/hosts')).mode & 0o777).toBe(0o640)
    expect(await ensure(x, 'db1', { ip: '10.0.0.5', aliases: ['db', 'pg'] })).toEqual([])
  })

  it('creates an entry (and the file), and removes every line of a name', async () => {
    const x = await open('etc_hosts')
    expect(await ensure(x, 'web', { ip: 'fd00::1', aliases: ['www'] })).toEqual([Resource.change('ensure', 'absent', 'present'), Resource.change('ip', undefined, 'fd00::1'), Resource.change('aliases', undefined, ['www'])])
    expect(fs.readFileSync(path.join(x.root, 'etc/hosts'), 'utf8')).toBe('fd00::1\tweb www\n')
    const y = await open('etc_hosts', { 'etc/hosts': hosts })
    expect(await ensure(y, 'db1', { ensure: 'absent' })).toEqual([Resource.change('ensure', 'present', 'absent')])
    expect(fs.readFileSync(path.join(y.root, 'etc/hosts'), 'utf8')).not.toContain('db1')
  })

  it('refuses bad values with a well-formed error and changes nothing', async () => {
    const x = await open('etc_hosts', { 'etc/hosts': hosts })
    const found = right(await x.s.find(x.p, 'db1'))
    for (const [attr, v] of [
      ['ip', 'not an ip'],
      ['aliases', ['bad alias']],
    ] as const) {
      const r = await x.s.update(x.p, found, [Resource.change(attr, undefined, v)], { noop: false })
      expect(E.isLeft(r) && r.left.description).toMatch(/^invalid (IP address|alias) /)
    }
    const made = await x.s.update(x.p, Resource.absent('new'), [Resource.change('aliases', undefined, ['a'])], { noop: false })
    expect(E.isLeft(made) && made.left.description).toBe('cannot create new: ip is required')
    expect(fs.readFileSync(path.join(x.root, 'etc/hosts'), 'utf8')).toBe(hosts)
  })

  it('changes nothing on a noop update, and reports what it would change', async () => {
    const x = await open('etc_hosts', { 'etc/hosts': hosts })
    const found = right(await x.s.find(x.p, 'db1'))
    const r = right(await x.s.update(x.p, found, [Resource.change('ip', '10.0.0.4', '10.1.1.1')], { noop: true }))
    expect(r._tag === 'Updated' && r.changes).toEqual([Resource.change('ip', '10.0.0.4', '10.1.1.1')])
    expect(fs.readFileSync(path.join(x.root, 'etc/hosts'), 'utf8')).toBe(hosts)
  })
})

describe('sysctl::file', () => {
  const files = {
    'etc/sysctl.d/10-net.conf': '# network\nnet.ipv4.ip_forward = 0\n; old style comment\nkernel.pid_max=1000\n',
    'etc/sysctl.d/20-vm.conf': 'vm.swappiness = 10\n-kernel.pid_max = 2000\n',
    'etc/sysctl.conf': 'net/ipv4/tcp_syncookies = 1\n',
  }

  it('reports each key at its effective setting (the last file that sets it)', async () => {
    const x = await open('sysctl_file', files)
    expect(x.p).toMatchObject({ from: 'describe', meta: { qname: 'sysctl::file', noop: true } })
    expect(right(await x.s.list(x.p))).toEqual([
      Resource.make('kernel.pid_max', { ensure: 'present', value: '2000', target: '/etc/sysctl.d/20-vm.conf' }),
      Resource.make('net.ipv4.ip_forward', { ensure: 'present', value: '0', target: '/etc/sysctl.d/10-net.conf' }),
      Resource.make('net.ipv4.tcp_syncookies', { ensure: 'present', value: '1', target: '/etc/sysctl.conf' }),
      Resource.make('vm.swappiness', { ensure: 'present', value: '10', target: '/etc/sysctl.d/20-vm.conf' }),
    ])
  })

  it('sets a key in its target and removes it from every other file', async () => {
    const x = await open('sysctl_file', files)
    expect(await ensure(x, 'kernel.pid_max', { value: '4096', target: '/etc/sysctl.d/10-net.conf' })).toEqual([
      Resource.change('value', '2000', '4096'),
      Resource.change('target', '/etc/sysctl.d/20-vm.conf', '/etc/sysctl.d/10-net.conf'),
    ])
    expect(fs.readFileSync(path.join(x.root, 'etc/sysctl.d/10-net.conf'), 'utf8')).toBe('# network\nnet.ipv4.ip_forward = 0\n; old style comment\nkernel.pid_max = 4096\n')
    expect(fs.readFileSync(path.join(x.root, 'etc/sysctl.d/20-vm.conf'), 'utf8')).toBe('vm.swappiness = 10\n')
    expect(await ensure(x, 'kernel.pid_max', { value: '4096' })).toEqual([])
  })

  it('creates new keys in /etc/sysctl.d/99-plait.conf, and removes a key from every file', async () => {
    const x = await open('sysctl_file', files)
    await ensure(x, 'net.core.somaxconn', { value: '1024' })
    expect(fs.readFileSync(path.join(x.root, 'etc/sysctl.d/99-plait.conf'), 'utf8')).toBe('net.core.somaxconn = 1024\n')
    expect(await ensure(x, 'kernel.pid_max', { ensure: 'absent' })).toEqual([Resource.change('ensure', 'present', 'absent')])
    expect(right(await x.s.find(x.p, 'kernel.pid_max'))).toEqual(Resource.present(Resource.make('kernel.pid_max', { ensure: 'absent' })))
    for (const f of Object.keys(files)) expect(fs.readFileSync(path.join(x.root, f), 'utf8')).not.toContain('pid_max')
  })

  it('refuses a target outside the sysctl files, and a value with surrounding whitespace', async () => {
    const x = await open('sysctl_file', files)
    const found = right(await x.s.find(x.p, 'vm.swappiness'))
    const r = await x.s.update(x.p, found, [Resource.change('target', undefined, '/etc/passwd')], { noop: false })
    expect(E.isLeft(r) && r.left.description).toContain("invalid target '/etc/passwd'")
    const v = await x.s.update(x.p, found, [Resource.change('value', undefined, ' 5')], { noop: false })
    expect(E.isLeft(v) && v.left.description).toContain('no surrounding whitespace')
  })
})

describe('plait provider test', () => {
  const run = (p: string, runs: number, extra: Partial<ProviderTest.Options> = {}): Promise<ProviderTest.Report> =>
    ProviderTest.testProvider({ path: p, runs, steps: 3, seed: 42, hostEnv, ...extra }).then((r) => {
      if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
      return r.right
    })

  it('passes host::etc_hosts', async () => {
    const r = await run(ownProvider('etc_hosts'), 15)
    expect(r.failure).toBeUndefined()
    expect(r.runs).toBe(15)
    expect(ProviderTest.renderReport(r)).toContain('ok: 15 runs')
  })

  it('passes sysctl::file (metadata from describe), from a fixture /etc', async () => {
    const fixture = tempDir()
    fs.mkdirSync(path.join(fixture, 'etc/sysctl.d'), { recursive: true })
    fs.writeFileSync(path.join(fixture, 'etc/sysctl.d/10-a.conf'), 'net.ipv4.ip_forward = 1\n')
    const r = await run(ownProvider('sysctl_file'), 2, { fixture })
    expect(r.failure).toBeUndefined()
    expect(r.metaSource).toContain('(ral_action=describe)')
  })
})
