// libral resources through the built binary: plait's own etc_hosts provider (bash, real) manages
// /etc/hosts under a temp root (PLAIT_ROOT_DIR); plan, apply, staleness and a changed provider.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, repo, sandbox, show, stackFrame, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const manifest = `data:
  dbip: 10.0.0.5
ccm:
  resources:
    - host:
        - db1:
            ip: "{{ lookup('data.dbip') }}"
            aliases: [db, primary]
        - old:
            ensure: absent
        - localhost:
            ip: 127.0.0.1
    - file:
        - /etc/motd:
            content: "hi\\n"
            owner: "${process.getuid?.() ?? 0}"
            group: "${process.getgid?.() ?? 0}"
            mode: "0644"
`

const setup = (): Sandbox & { hosts: string; plan: string } => {
  const s = sandbox()
  fs.mkdirSync(s.at('/etc'))
  fs.writeFileSync(s.at('/etc/hosts'), '127.0.0.1 localhost\n10.0.0.9 old\n')
  return { ...s, hosts: s.at('/etc/hosts'), plan: path.join(s.host, 'plan.json') }
}

const env = { PLAIT_PROVIDER_PATH: '' }

describe('libral resources', () => {
  it('plans, applies a saved plan, reports the updates as irreversible, and converges', async () => {
    const s = setup()
    const m = s.manifest(manifest)
    const p = await plait(['plan', m, '--root', s.root, '--out', s.plan], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('+ host#db1')
    expect(p.stdout).toContain("    libral.update (host::etc_hosts): db1 does not exist\n      ensure: 'absent' → 'present'\n      ip: → '10.0.0.5'\n      aliases: → ['db', 'primary']")
    expect(p.stdout).toContain('- host#old')
    expect(p.stdout).toContain('Plan: 2 to create, 0 to change, 1 to delete, 1 unchanged.')
    const saved = JSON.parse(fs.readFileSync(s.plan, 'utf8')) as { inputs: { providers: Array<{ name: string; path: string }> } }
    expect(saved.inputs.providers).toEqual([{ name: 'host::etc_hosts', path: path.join(repo, 'lib', 'libral', 'providers', 'etc_hosts.prov'), sha256: expect.stringMatching(/^sha256:/) }])
    expect(fs.readFileSync(s.hosts, 'utf8')).toBe('127.0.0.1 localhost\n10.0.0.9 old\n')

    const a = await plait(['apply', s.plan, '--root', s.root, '--state-dir', '/var/lib/plait'], { env })
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +host#db1/)
    expect(a.stdout).toMatch(/stable +host#localhost/)
    expect(a.stdout).toContain("Ran and cannot be undone:\n  host#db1: update host::etc_hosts 'db1': ensure(absent->present), ip(->10.0.0.5), aliases(->['db', 'primary'])")
    expect(fs.readFileSync(s.hosts, 'utf8')).toBe('127.0.0.1 localhost\n10.0.0.5\tdb1 db primary\n')
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('hi\n')

    const again = await plait(['plan', m, '--root', s.root, '--detailed-exitcode'], { env })
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 4 unchanged.')
  })

  it('refuses a stale plan when a libral resource changed, and changes nothing', async () => {
    const s = setup()
    const p = await plait(['plan', s.manifest(manifest), '--root', s.root, '--out', s.plan], { env })
    expect(p.code, show(p)).toBe(0)
    fs.writeFileSync(s.hosts, '127.0.0.1 localhost\n10.0.0.9 old\n10.1.1.1 db1\n')
    const a = await plait(['apply', s.plan, '--root', s.root, '--state-dir', '/var/lib/plait'], { env })
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).toContain("host#db1: changed since the plan was made: was absent, now ensure => 'present', aliases => [], ip => '10.1.1.1', target => '/etc/hosts'")
    expect(a.stderr).toMatch(/refusing a stale plan: 1 resource changed/)
    expect(fs.readFileSync(s.hosts, 'utf8')).toBe('127.0.0.1 localhost\n10.0.0.9 old\n10.1.1.1 db1\n')
    expect(fs.existsSync(s.at('/etc/motd'))).toBe(false)
  })

  it('refuses a plan whose provider changed since it was made', async () => {
    const s = setup()
    const dir = path.join(s.host, 'libral', 'providers')
    fs.mkdirSync(dir, { recursive: true })
    for (const f of ['etc_hosts.prov', 'etc_hosts.yaml']) fs.copyFileSync(path.join(repo, 'lib', 'libral', 'providers', f), path.join(dir, f))
    const m = s.manifest(manifest.replace('aliases: [db, primary]', 'aliases: [db, primary]\n            provider: host::etc_hosts'))
    const p = await plait(['plan', m, '--root', s.root, '--out', s.plan, '--provider-path', path.join(s.host, 'libral')], { env })
    expect(p.code, show(p)).toBe(0)
    expect(fs.readFileSync(s.plan, 'utf8')).toContain(path.join(dir, 'etc_hosts.prov'))
    fs.appendFileSync(path.join(dir, 'etc_hosts.prov'), '\n# changed\n')
    const a = await plait(['apply', s.plan, '--root', s.root, '--state-dir', '/var/lib/plait'], { env })
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).toContain(`provider host::etc_hosts (${path.join(dir, 'etc_hosts.prov')}) changed since the plan was made`)
    expect(fs.readFileSync(s.hosts, 'utf8')).toBe('127.0.0.1 localhost\n10.0.0.9 old\n')
  })

  it('reports bad libral properties with positions, and a provider that fails with its name and action', async () => {
    const s = setup()
    const bad = await plait(['plan', s.manifest('ccm:\n  resources:\n    - host:\n        - db1:\n            ip: [1]\n            colour: red\n'), '--root', s.root], { env })
    expect(bad.code, show(bad)).toBe(1)
    expect(bad.stderr).toMatch(/manifest\.yaml:5:13: host#db1: attribute "ip" \(string\)/)
    expect(bad.stderr).toMatch(/manifest\.yaml:6:13: host#db1: host::etc_hosts has no attribute "colour"/)
    expect(bad.stderr).not.toMatch(stackFrame)
    // The provider refuses to create an entry without an ip: the apply fails for that resource only.
    const a = await plait(['apply', s.manifest('ccm:\n  resources:\n    - host:\n        - db1:\n            aliases: [x]\n', 'n.yaml'), '--root', s.root, '--state-dir', '/var/lib/plait'], { env })
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/failed +host#db1: update host::etc_hosts 'db1'.* failed: /)
    expect(a.stdout).not.toMatch(stackFrame)
  })

  it('validate and compile read .yaml metadata and never run a provider', async () => {
    const s = setup()
    const m = s.manifest(manifest)
    const v = await plait(['validate', m], { env })
    expect(v.code, show(v)).toBe(0)
    expect(v.stdout).toContain('valid, 4 resources')
    const c = await plait(['compile', m], { env })
    expect(c.code, show(c)).toBe(0)
    expect(c.stdout).toContain("host#db1  (")
    expect(c.stdout).toContain("provider=host::etc_hosts aliases=['db', 'primary'] ip='10.0.0.5'")
  })
})
