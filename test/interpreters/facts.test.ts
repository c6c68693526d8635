import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as Facts from '../../src/facts/Facts.js'
import * as Gather from '../../src/interpreters/posix/facts.js'
import * as FactsFiles from '../../src/interpreters/posix/factsFiles.js'
import * as Posix from '../../src/interpreters/posix/posix.js'

let tmp: string
beforeAll(async () => {
  tmp = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-facts-'))
})
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true })
})

let counter = 0
const dir = async (files: Readonly<Record<string, string | { link: string } | 'dir'>>): Promise<string> => {
  counter += 1
  const base = nodePath.join(tmp, `d${counter}`)
  await fs.mkdir(base, { recursive: true })
  for (const [name, content] of Object.entries(files)) {
    const p = nodePath.join(base, name)
    await fs.mkdir(nodePath.dirname(p), { recursive: true })
    if (content === 'dir') await fs.mkdir(p, { recursive: true })
    else if (typeof content === 'string') await fs.writeFile(p, content)
    else await fs.symlink(content.link, p)
  }
  return base
}

const problems = (r: E.Either<ReadonlyArray<{ message: string; at?: Position.Position }>, unknown>): ReadonlyArray<string> =>
  E.isLeft(r) ? r.left.map((d) => (d.at !== undefined ? `${Position.render(d.at)} ${d.message}` : d.message)) : []

describe('factsFiles', () => {
  it('reads facts.json, facts.yaml, then facts.d/* by name, directory after directory', async () => {
    const etc = await dir({ 'facts.json': '{"a": "etc-json", "l": [1]}', 'facts.yaml': 'a: etc-yaml\nb: etc\n', 'facts.d/20-x.yaml': 'c: twenty\n', 'facts.d/10-x.json': '{"c": "ten", "l": [2]}', 'facts.d/README': 'not facts', 'facts.d/sub': 'dir', 'facts.d/sub/x.yaml': 'c: sub\n' })
    const user = await dir({ 'facts.d/a.yml': 'b: user\n' })
    const r = await FactsFiles.factsFiles([etc, user, nodePath.join(tmp, 'missing')])
    if (E.isLeft(r)) throw new Error(problems(r).join('; '))
    expect(r.right).toEqual([{ a: 'etc-json', l: [1] }, { a: 'etc-yaml', b: 'etc' }, { c: 'ten', l: [2] }, { c: 'twenty' }, { b: 'user' }])
    expect(r.right.reduce(Facts.merge, Facts.empty)).toEqual({ a: 'etc-yaml', l: [1, 2], b: 'user', c: 'twenty' })
  })

  it('orders facts.d by the bytes of names, as Go does', async () => {
    const d = await dir({ 'facts.d/b.yaml': 'k: b\n', 'facts.d/B.yaml': 'k: B\n', 'facts.d/é.yaml': 'k: é\n', 'facts.d/z.yaml': 'k: z\n' })
    const r = await FactsFiles.factsFiles([d])
    expect(E.isRight(r) && r.right.map((f) => f['k'])).toEqual(['B', 'b', 'z', 'é'])
  })

  it('refuses symlinks: a facts file, the facts.d directory, an entry of facts.d', async () => {
    const target = await dir({ 'real.yaml': 'a: 1\n', 'realdir': 'dir' })
    const d = await dir({ 'facts.yaml': { link: nodePath.join(target, 'real.yaml') }, 'facts.d/x.yaml': { link: nodePath.join(target, 'real.yaml') } })
    const d2 = await dir({ 'facts.d': { link: nodePath.join(target, 'realdir') } })
    expect(problems(await FactsFiles.factsFiles([d, d2]))).toEqual([
      `facts file ${d}/facts.yaml is a symbolic link; plait reads facts only from regular files`,
      `facts file ${d}/facts.d/x.yaml is a symbolic link; plait reads facts only from regular files`,
      `facts directory ${d2}/facts.d is a symbolic link; plait reads facts only from a real directory`,
    ])
  })

  it('reports every malformed file with file:line:col', async () => {
    const d = await dir({ 'facts.json': '{\n  "a": 1,\n}\n', 'facts.yaml': 'a: [1\n', 'facts.d/x.json': '[1]' })
    const r = problems(await FactsFiles.factsFiles([d]))
    expect(r[0]).toBe(`${d}/facts.json:3:1 invalid JSON: expected a string key`)
    expect(r[1]).toMatch(new RegExp(`^${d}/facts.yaml:\\d+:\\d+ `))
    expect(r[2]).toBe(`${d}/facts.d/x.json:1:1 a facts file must hold a map (a JSON object), found a list`)
    expect(r).toHaveLength(3)
  })

  it('refuses a facts file that is not a regular file, a facts.d that is not a directory, text that is not UTF-8, and a relative directory', async () => {
    const d = await dir({ 'facts.json': 'dir', 'facts.d': 'plain file' })
    const bad = await dir({})
    await fs.writeFile(nodePath.join(bad, 'facts.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]))
    expect(problems(await FactsFiles.factsFiles([d, bad, 'relative/dir']))).toEqual([
      `facts file ${d}/facts.json is not a regular file`,
      `${d}/facts.d is not a directory`,
      `cannot read facts file ${bad}/facts.yaml: not UTF-8 text`,
      'facts directory relative/dir is not an absolute path',
    ])
  })

  it('reads no facts from directories that do not exist or hold none', async () => {
    expect(await FactsFiles.factsFiles([nodePath.join(tmp, 'nope'), await dir({})])).toEqual(E.right([]))
  })
})

describe('factsFile (--facts FILE)', () => {
  it('reads JSON by a .json name and YAML otherwise, following a symlink it is given', async () => {
    const d = await dir({ 'other.json': '{"host": {"info": {"hostname": "other"}}}', 'other.facts': 'role: db\n', 'link.json': { link: 'other.json' } })
    expect(await FactsFiles.factsFile(nodePath.join(d, 'other.json'))).toEqual(E.right({ host: { info: { hostname: 'other' } } }))
    expect(await FactsFiles.factsFile(nodePath.join(d, 'other.facts'))).toEqual(E.right({ role: 'db' }))
    expect(await FactsFiles.factsFile(nodePath.join(d, 'link.json'))).toEqual(E.right({ host: { info: { hostname: 'other' } } }))
  })

  it('says when it cannot be read', async () => {
    expect(problems(await FactsFiles.factsFile(nodePath.join(tmp, 'absent.json')))).toEqual([`cannot read facts file ${tmp}/absent.json: no such file or directory`])
  })
})

describe('defaultDirs', () => {
  it('is /etc/plait, then $XDG_CONFIG_HOME/plait or ~/.config/plait', () => {
    expect(FactsFiles.defaultDirs({ HOME: '/home/u' })).toEqual(['/etc/plait', '/home/u/.config/plait'])
    expect(FactsFiles.defaultDirs({ HOME: '/home/u', XDG_CONFIG_HOME: '/x' })).toEqual(['/etc/plait', '/x/plait'])
    expect(FactsFiles.defaultDirs({ HOME: '/home/u', XDG_CONFIG_HOME: 'relative' })).toEqual(['/etc/plait', '/home/u/.config/plait'])
    expect(FactsFiles.defaultDirs({})).toEqual(['/etc/plait'])
  })
})

// A machine root (release files, some behind symlinks) and a fake live host (/proc, /sys).
const machineRoot = (): Promise<string> =>
  dir({
    'usr/lib/os-release': 'NAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\n',
    'etc/os-release': { link: '../usr/lib/os-release' },
    'etc/debian_version': '12.5\n',
    'var/lib/dbus/machine-id': '0123456789abcdef0123456789abcdef\n',
    'etc/machine-id': { link: '/var/lib/dbus/machine-id' },
    '.dockerenv': '',
  })

const fakeHost = async (): Promise<Gather.Host> => {
  const d = await dir({
    'proc/meminfo': 'MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 600 kB\nBuffers: 50 kB\nCached: 200 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n',
    'proc/vmstat': 'pswpin 0\n',
    'proc/swaps': 'Filename Type Size Used Priority\n',
    'proc/cpuinfo': 'processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\ncpu MHz\t\t: 1000.0\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\ncpu MHz\t\t: 1000.0\n',
    'sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq': '3000000\n',
    'proc/uptime': '120.5 200.0\n',
    'proc/stat': 'cpu 1 2 3\nbtime 1700000000\n',
    'proc/1/mountinfo': '22 1 252:1 / / rw,relatime - ext4 /dev/vda1 rw\n23 22 0:21 / /proc rw - proc proc rw\n',
    'proc/123': 'dir',
    'proc/filesystems': 'nodev\tproc\n\text4\n',
    'proc/net/route': 'Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\neth0\t00000000\t0102000A\t0003\t0\t0\t100\t00000000\n',
    'proc/net/ipv6_route': '',
    'proc/self/cgroup': '0::/\n',
    'sys/class/net/eth0/ifindex': '2\n',
    'sys/class/net/eth0/mtu': '1500\n',
    'sys/class/net/eth0/address': '52:54:00:12:34:56\n',
    'sys/class/net/eth0/flags': '0x1003\n',
    'sys/class/net/lo/ifindex': '1\n',
    'sys/class/net/lo/mtu': '65536\n',
    'sys/class/net/lo/address': '00:00:00:00:00:00\n',
    'sys/class/net/lo/flags': '0x9\n',
    'sys/class/net/bonding_masters': '\n',
  })
  return {
    dir: d,
    hostname: () => 'test-host',
    release: () => '6.1.0-test',
    arch: () => 'aarch64',
    os: () => 'linux',
    addresses: () => new Map([['eth0', ['10.0.0.5/24', 'fe80::1/64']], ['lo', ['127.0.0.1/8']]]),
    statfs: async (p) => (p === '/' ? { bsize: 4096, blocks: 100, bfree: 40, bavail: 30, files: 10, ffree: 4 } : undefined),
  }
}

describe('system', () => {
  it('reads the release files below the machine root, following symlinks inside it, and the rest from the host', async () => {
    const root = await machineRoot()
    const f = await Gather.system(Posix.make({ root }), await fakeHost())
    expect(f['host']).toEqual({
      info: {
        hostname: 'test-host',
        uptime: 120,
        bootTime: 1700000000,
        procs: 2,
        os: 'linux',
        platform: 'debian',
        platformFamily: 'debian',
        platformVersion: '12.5',
        kernelVersion: '6.1.0-test',
        kernelArch: 'aarch64',
        virtualizationSystem: 'docker',
        virtualizationRole: 'guest',
        hostId: '01234567-89ab-cdef-0123-456789abcdef',
      },
    })
    expect(f['memory']).toMatchObject({ virtual: { total: 1024000, available: 614400, used: (1000 - 100 - 50 - 200) * 1024 }, swap: { devices: [], info: { total: 0 } } })
    expect(f['cpu']).toMatchObject({ info: [{ cpu: 0, modelName: 'Test CPU', mhz: 3000 }, { cpu: 1, mhz: 1000 }] })
    expect(f['partition']).toMatchObject({ partitions: [{ device: '/dev/vda1', mountpoint: '/', fstype: 'ext4' }], usage: [{ path: '/', total: 409600 }] })
    expect(f['network']).toEqual({
      addresses: [{ interface: 'eth0', address: '10.0.0.5', ipv4: true, default: true }],
      interfaces: [
        { index: 1, mtu: 65536, name: 'lo', hardwareAddr: '', flags: ['up', 'loopback'], addrs: [{ addr: '127.0.0.1/8' }] },
        { index: 2, mtu: 1500, name: 'eth0', hardwareAddr: '52:54:00:12:34:56', flags: ['up', 'broadcast', 'multicast'], addrs: [{ addr: '10.0.0.5/24' }, { addr: 'fe80::1/64' }] },
      ],
      default_ipv6: '',
      default_ipv4: '10.0.0.5',
    })
  })

  it('leaves out what it cannot read, keeping CCM\'s shape', async () => {
    const empty = await dir({})
    const host: Gather.Host = { ...(await fakeHost()), dir: empty, addresses: () => new Map() }
    const f = await Gather.system(Posix.make({ root: empty }), host)
    expect(f).toMatchObject({
      host: { info: { platform: '', platformFamily: '', platformVersion: '', uptime: 0, procs: 0, hostId: '', virtualizationSystem: '' } },
      network: { addresses: [], interfaces: [], default_ipv4: '', default_ipv6: '' },
      partition: { partitions: [], usage: [] },
      cpu: { info: [] },
      memory: { virtual: {}, swap: { info: {}, devices: [] } },
    })
  })

  it('leaves out a host file that is a FIFO, at once, instead of waiting on it for ever', async () => {
    const host = await fakeHost()
    await fs.rm(nodePath.join(host.dir, 'proc/cpuinfo'))
    execFileSync('mkfifo', [nodePath.join(host.dir, 'proc/cpuinfo')])
    const f = await Gather.system(Posix.make({ root: await machineRoot() }), host)
    expect(f['cpu']).toEqual({ info: [] })
    expect(f['memory']).toMatchObject({ virtual: { total: 1024000 } })
  })

  it('does not follow a symlink out of the machine root', async () => {
    const outside = await dir({ 'os-release': 'ID=outside\n' })
    const root = await dir({ 'etc/os-release': { link: nodePath.join(outside, 'os-release') } })
    const f = await Gather.system(Posix.make({ root }), await fakeHost())
    expect((f['host'] as { info: { platform: string } }).info.platform).toBe('')
  })

  it('gathers the live host without failing (read only)', async () => {
    const f = await Gather.system(Posix.make({}))
    expect((f['host'] as { info: Record<string, unknown> }).info['hostname']).toBe(os.hostname())
    expect((f['host'] as { info: Record<string, unknown> }).info['kernelVersion']).toBe(os.release())
    if (process.platform === 'linux') expect((f['memory'] as { virtual: { total: number } }).virtual.total).toBeGreaterThan(0)
  })
})

describe('gather', () => {
  it('merges system facts, facts files and --fact in that order', async () => {
    const root = await machineRoot()
    const etc = await dir({ 'facts.yaml': 'role: etc\nhost:\n  info:\n    platform: custom\n' })
    const r = await Gather.gather({ machine: Posix.make({ root }), host: await fakeHost(), dirs: [etc], assignments: ['role=web', 'env.name=prod'] })
    if (E.isLeft(r)) throw new Error(problems(r).join('; '))
    expect(r.right['role']).toBe('web')
    expect(r.right['env']).toEqual({ name: 'prod' })
    expect((r.right['host'] as { info: Record<string, unknown> }).info).toMatchObject({ platform: 'custom', platformFamily: 'debian', hostname: 'test-host' })
  })

  it('with --facts FILE, reads neither this machine nor its facts files', async () => {
    const untouchable: Gather.Host = {
      dir: '/nonexistent',
      hostname: () => {
        throw new Error('must not read the host')
      },
      release: () => '',
      arch: () => '',
      os: () => '',
      addresses: () => new Map(),
      statfs: async () => undefined,
    }
    const d = await dir({ 'other.json': '{"host": {"info": {"hostname": "other"}}, "role": "db"}', 'etc/facts.yaml': 'local: yes\n' })
    const r = await Gather.gather({ machine: Posix.make({ root: d }), host: untouchable, dirs: [nodePath.join(d, 'etc')], factsFile: nodePath.join(d, 'other.json'), assignments: ['role=web'] })
    expect(r).toEqual(E.right({ host: { info: { hostname: 'other' } }, role: 'web' }))
  })

  it('reports every problem: bad --fact, bad facts files, a bad --facts FILE', async () => {
    const etc = await dir({ 'facts.json': '{' })
    const r1 = await Gather.gather({ machine: Posix.make({ root: etc }), host: await fakeHost(), dirs: [etc], assignments: ['noequals', 'ok=1'] })
    expect(problems(r1)).toEqual(['--fact "noequals": no "="', `${etc}/facts.json:1:2 invalid JSON: unexpected end of input`])
    const r2 = await Gather.gather({ machine: Posix.make({ root: etc }), dirs: [], factsFile: nodePath.join(etc, 'facts.json'), assignments: [] })
    expect(problems(r2)).toEqual([`${etc}/facts.json:1:2 invalid JSON: unexpected end of input`])
  })
})
