// `plait ral` and `plait provider test`, end to end in this process (the commands registered on a
// commander program as main.ts registers them), with real providers in temporary sandboxes.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cleanup, cli, fixtures, ownProvider, tempDir, writeProvider } from './support.js'

afterAll(cleanup)

const sandbox = (hosts?: string): string => {
  const root = tempDir()
  if (hosts !== undefined) {
    fs.mkdirSync(path.join(root, 'etc'))
    fs.writeFileSync(path.join(root, 'etc', 'hosts'), hosts)
  }
  return root
}

describe('plait ral', () => {
  it('lists the suitable providers by full name', async () => {
    const r = await cli(['ral', '--provider-path', fixtures])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(['echo::echo', 'echo::py', 'host::etc_hosts', 'kv::forgetful', 'misbehave::misbehave', 'store::store', 'sysctl::file', ''].join('\n'))
    const j = await cli(['ral', '--json'])
    expect((JSON.parse(j.stdout) as { providers: Array<{ name: string }> }).providers.map((p) => p.name)).toEqual(['host::etc_hosts', 'sysctl::file'])
  })

  it('lists the resources of a type, and shows one', async () => {
    const root = sandbox('10.0.0.4 db1 db\n10.0.0.7 web\n')
    const r = await cli(['ral', 'host', '--root', root])
    expect(r).toEqual({
      code: 0,
      stdout: "host::etc_hosts { 'db1':\n  ensure  => 'present',\n  aliases => ['db'],\n  ip      => '10.0.0.4',\n  target  => '/etc/hosts',\n}\nhost::etc_hosts { 'web':\n  ensure  => 'present',\n  aliases => [],\n  ip      => '10.0.0.7',\n  target  => '/etc/hosts',\n}\n",
      stderr: '',
    })
    const one = await cli(['ral', 'host::etc_hosts', 'web', '--root', root, '--json'])
    expect(JSON.parse(one.stdout)).toEqual({ resource: { name: 'web', ensure: 'present', aliases: [], ip: '10.0.0.7', target: '/etc/hosts', ral: { type: 'host', provider: 'host::etc_hosts' } } })
  })

  it('changes a resource, printing it and each change as ralsh did, and only what differs', async () => {
    const root = sandbox('10.0.0.4 db1 db\n')
    const r = await cli(['ral', 'host', 'db1', 'ip=10.0.0.5', 'aliases=db', '--root', root])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("host::etc_hosts { 'db1':\n  ensure  => 'present',\n  aliases => ['db'],\n  ip      => '10.0.0.5',\n  target  => '/etc/hosts',\n}\nip(10.0.0.4->10.0.0.5)\n")
    expect(fs.readFileSync(path.join(root, 'etc', 'hosts'), 'utf8')).toBe('10.0.0.5\tdb1 db\n')
    const again = await cli(['ral', 'host', 'db1', 'ip=10.0.0.5', '--root', root])
    expect(again.stdout).not.toContain('->')
  })

  it('exits 1 for a resource that is not found (with -a, also for ensure=absent)', async () => {
    const root = sandbox('')
    expect(await cli(['ral', 'host', 'nope', '--root', root])).toMatchObject({ code: 0, stdout: "host::etc_hosts { 'nope':\n  ensure => 'absent',\n}\n" })
    expect((await cli(['ral', 'host', 'nope', '-a', '--root', root])).code).toBe(1)
    expect(await cli(['ral', 'kv::forgetful', 'nope', '--root', root, '--provider-path', fixtures])).toMatchObject({ code: 1, stdout: '' })
  })

  it('exits 2 for an unknown provider, a bad attribute, or a provider that fails, saying why', async () => {
    const unknown = await cli(['ral', 'nosuch'])
    expect(unknown).toMatchObject({ code: 2, stderr: "error: unknown provider: 'nosuch'\nrun 'plait ral' to see a list of all providers\n" })
    const bad = await cli(['ral', 'host', 'db1', 'colour=red', 'ip=x', 'ip=y', '--root', sandbox()])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('error: host::etc_hosts has no attribute "colour" (its writable attributes: ensure, ip, aliases)')
    expect(bad.stderr).toContain('error: attribute "ip" is given twice')
    expect(bad.stderr).toContain("run 'plait ral --explain host::etc_hosts'")
    const failing = await cli(['ral', 'misbehave', '--provider-path', fixtures, '--root', sandbox()], { PLAIT_FIXTURE_MODE: 'exit' })
    expect(failing.code).toBe(2)
    expect(failing.stderr).toContain('error: misbehave::misbehave list: it went wrong\n')
    expect(failing.stderr).toContain('failed: list misbehave::misbehave')
    expect(failing.stderr).toContain('exited with status 3 (a fatal error): it went wrong')
    const refused = await cli(['ral', 'host', 'db1', 'ip=not-an-ip', '--root', sandbox(), '--json'])
    expect(refused.code).toBe(2)
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { kind: 'failed', message: expect.stringContaining("invalid IP address 'not-an-ip'") } })
  })

  it('shows provider stderr lines at the chosen level and above', async () => {
    const quiet = await cli(['ral', 'misbehave', '--provider-path', fixtures, '--root', sandbox()], { PLAIT_FIXTURE_MODE: 'logs' })
    expect(quiet.stderr).toBe('warn: misbehave::misbehave list: w\nerror: misbehave::misbehave list: e\nwarn: misbehave::misbehave list: plain\n')
    const loud = await cli(['ral', 'misbehave', '--provider-path', fixtures, '--root', sandbox(), '-l', 'debug'], { PLAIT_FIXTURE_MODE: 'logs' })
    expect(loud.stderr).toContain('debug: misbehave::misbehave list: d\ninfo: misbehave::misbehave list: i\n')
  })

  it('reports a broken provider on the path, lists the others, and exits 2', async () => {
    const dir = tempDir()
    writeProvider(dir, 'broken', '#!/bin/bash\n', 'provider:\n  type: broken\n')
    const r = await cli(['ral', '--provider-path', dir])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('host::etc_hosts\nsysctl::file\n')
    expect(r.stderr).toContain(`error: ${path.join(dir, 'providers', 'broken.yaml')}:2:3: provider.invoke is missing`)
  })

  it('--noop asks a provider that opted in, and only plans for one that did not', async () => {
    const root = sandbox('10.0.0.4 db1\n')
    const r = await cli(['ral', 'host', 'db1', 'ip=10.9.9.9', '--noop', '--root', root])
    expect(r.stdout).toContain('ip(10.0.0.4->10.9.9.9)')
    expect(fs.readFileSync(path.join(root, 'etc', 'hosts'), 'utf8')).toBe('10.0.0.4 db1\n')
    const kv = await cli(['ral', 'kv::forgetful', 'k', 'value=v', '--noop', '--root', root, '--provider-path', fixtures])
    expect(kv.code).toBe(0)
    expect(kv.stderr).toContain('note: kv::forgetful does not declare plait.noop')
    expect(kv.stdout).toBe("kv::forgetful { 'k':\n  ensure => 'present',\n  value  => 'v',\n}\nensure(absent->present)\nvalue(->v)\n")
    expect(fs.existsSync(path.join(root, 'db'))).toBe(false)
  })

  it('explains a provider', async () => {
    const r = await cli(['ral', '--explain', 'sysctl'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Provider sysctl::file\n  source: ')
    expect(r.stdout).toContain('  target : the file that holds the setting')
    expect(r.stdout).toContain('         . kind = rw\n')
  })

  it('refuses a bad --root and --timeout', async () => {
    expect(await cli(['ral', 'host', '--root', '/nonexistent/x'])).toMatchObject({ code: 2, stderr: 'error: --root /nonexistent/x: not an existing directory\n' })
    expect(await cli(['ral', 'host', '--timeout', '0'])).toMatchObject({ code: 2, stderr: 'error: --timeout 0: not a positive number of seconds\n' })
  })
})

describe('plait provider test', () => {
  it('exits 0 for a provider that passes', async () => {
    const r = await cli(['provider', 'test', ownProvider('etc_hosts'), '--runs', '3', '--seed', '7'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('plait provider test host::etc_hosts')
    expect(r.stdout).toContain('ok: 3 runs')
    expect(r.stdout).toContain('seed 7')
  })

  it('exits 1 for a provider that fails a property, 2 for one that can not be loaded', async () => {
    const dir = tempDir()
    writeProvider(dir, 'nolist', '#!/bin/bash\n', 'provider:\n  type: t\n  invoke: simple\n  actions: [find]\n  suitable: true\n  attributes:\n    name:\n')
    const fails = await cli(['provider', 'test', path.join(dir, 'providers', 'nolist.prov')])
    expect(fails.code).toBe(1)
    expect(fails.stdout).toContain('FAILED')
    expect(fails.stdout).toContain('does not list')
    writeProvider(dir, 'bad', '#!/bin/bash\n', 'provider: 1\n')
    const all = await cli(['provider', 'test', dir, '--json'])
    expect(all.code).toBe(2)
    const j = JSON.parse(all.stdout) as { providers: Array<{ path: string; ok: boolean }> }
    expect(j.providers.map((p) => [path.basename(p.path), p.ok])).toEqual([
      ['bad.prov', false],
      ['nolist.prov', false],
    ])
    expect(all.stderr).toContain('"provider" must be a map')
  })

  it('refuses bad options', async () => {
    expect((await cli(['provider', 'test', '/nonexistent/p.prov'])).code).toBe(2)
    expect((await cli(['provider', 'test', ownProvider('etc_hosts'), '--runs', 'many'])).stderr).toContain('--runs many: not a positive whole number')
    expect((await cli(['provider', 'test', ownProvider('etc_hosts'), '--replay-path', '1:2'])).stderr).toContain('needs the --seed')
  })
})
