// package resources through the built binary, with the real apt-get, apt-cache, dpkg-query and
// dpkg, below a temporary root: the tests build two versions (then a third) of a tiny package of
// their own with dpkg-deb and serve them from a `file:` repository (no network). dpkg installs
// only as root, so those tests run where the tests run as root (CI); the host's dpkg database and
// log are checked to be untouched. Names and providers are refused at their position without root.
// The dnf provider's tests are in package-dnf.test.ts.
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeSystemctl } from '../support/systemctl.js'
import { aptRoot, buildDeb, run } from '../types/package/run.js'
import { cleanup, ensureBuilt, plait, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
const made: string[] = []
afterAll(async () => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
  await cleanup()
})

const state = ['--state-dir', '/var/lib/plait']
const name = 'plait-e2e-hello'
const fingerprint = (p: string): string => (fs.existsSync(p) ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'absent')

/** A root with apt's directories and a `file:` repository offering these versions of the package. */
const setup = (versions: ReadonlyArray<string>) => {
  const { target, home } = aptRoot([], [], (repo) => versions.map((v) => buildDeb(repo, name, v)))
  made.push(target.root.path, home)
  const root = target.root.path
  /** Offers these versions instead, as `apt-get update` then sees them. */
  const publish = (vs: ReadonlyArray<string>) => {
    fs.writeFileSync(path.join(home, 'repo/Packages'), vs.map((v) => buildDeb(path.join(home, 'repo'), name, v)).join('\n'))
    const u = run({ argv: ['apt-get', '-q', 'update'], environment: ['LC_ALL=C', `APT_CONFIG=${target.configFile}`], timeoutMs: 60000 })
    if (u.exitCode !== 0) throw new Error(u.stderr)
  }
  const manifest = (ensure: string) => {
    const f = path.join(home, 'manifest.yaml')
    fs.writeFileSync(f, `ccm:\n  resources:\n    - package:\n        - ${name}:\n            ensure: "${ensure}"\n`)
    return f
  }
  const version = () => {
    const f = path.join(root, 'usr/share', name, 'version')
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : undefined
  }
  return { root, home, publish, manifest, version }
}

describe('package', () => {
  // dpkg installs only as root
  it.skipIf(process.getuid?.() !== 0)('installs, converges, upgrades to latest, downgrades to a pinned version and removes, below the root only', async () => {
    const host = { status: fingerprint('/var/lib/dpkg/status'), log: fingerprint('/var/log/dpkg.log') }
    const t = setup(['1.0-1'])
    const latest = t.manifest('latest')
    const p = await plait(['plan', latest, '--root', t.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain(`+ package#${name}\n    was: not installed, 1.0-1 available\n    install ${name} 1.0-1: not installed, ensure is latest; the newest available is 1.0-1`)
    expect(t.version()).toBeUndefined()

    const n = await plait(['apply', latest, '--root', t.root, '--noop', ...state])
    expect(n.code, show(n)).toBe(0)
    expect(n.stdout).toMatch(new RegExp(`package#${name}: Would have installed latest`))
    expect(t.version()).toBeUndefined()

    const a = await plait(['apply', latest, '--root', t.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toContain(`Ran and cannot be undone:\n  package#${name}: install ${name} 1.0-1`)
    expect(t.version()).toBe('1.0-1')

    const again = await plait(['plan', latest, '--root', t.root])
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 1 unchanged.')

    // a newer version is published: ensure latest upgrades to it
    t.publish(['1.0-1', '1.1-1'])
    const up = await plait(['plan', latest, '--root', t.root])
    expect(up.stdout, show(up)).toContain(`~ package#${name}\n    was: installed at 1.0-1, 1.1-1 available\n    upgrade ${name} 1.0-1 → 1.1-1: installed at 1.0-1, the newest available is 1.1-1`)
    const ua = await plait(['apply', latest, '--root', t.root, ...state])
    expect(ua.code, show(ua)).toBe(0)
    expect(t.version()).toBe('1.1-1')
    expect((await plait(['plan', latest, '--root', t.root])).stdout).toContain('0 to change')

    // pinned to the older version: a downgrade
    const pinned = t.manifest('1.0-1')
    const down = await plait(['plan', pinned, '--root', t.root])
    expect(down.stdout, show(down)).toContain(`downgrade ${name} 1.1-1 → 1.0-1: installed at 1.1-1, newer than 1.0-1`)
    const da = await plait(['apply', pinned, '--root', t.root, ...state])
    expect(da.code, show(da)).toBe(0)
    expect(da.stdout).toContain(`package#${name}: downgrade ${name} 1.1-1 → 1.0-1`)
    expect(t.version()).toBe('1.0-1')

    // absent: removed
    const absent = t.manifest('absent')
    const rm = await plait(['plan', absent, '--root', t.root])
    expect(rm.stdout, show(rm)).toContain(`- package#${name}\n    was: installed at 1.0-1, 1.1-1 available\n    remove ${name} 1.0-1: installed at 1.0-1, ensure is absent`)
    const ra = await plait(['apply', absent, '--root', t.root, ...state])
    expect(ra.code, show(ra)).toBe(0)
    expect(t.version()).toBeUndefined()
    expect((await plait(['plan', absent, '--root', t.root])).stdout).toContain('0 to delete, 1 unchanged')

    // everything happened below the root: its dpkg log says so, the host's database and log are as they were
    expect(fs.readFileSync(path.join(t.root, 'var/log/dpkg.log'), 'utf8')).toContain(`remove ${name}:all 1.0-1`)
    expect({ status: fingerprint('/var/lib/dpkg/status'), log: fingerprint('/var/log/dpkg.log') }).toEqual(host)
    expect(fs.existsSync(path.join('/usr/share', name))).toBe(false)
  }, 300000)

  it.skipIf(process.getuid?.() !== 0)('refuses a saved plan whose candidate changed since it was made, and changes nothing', async () => {
    const t = setup(['1.0-1'])
    const planFile = path.join(t.home, 'plan.json')
    const p = await plait(['plan', t.manifest('latest'), '--root', t.root, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    t.publish(['1.0-1', '1.1-1'])
    const a = await plait(['apply', planFile, '--root', t.root, ...state])
    expect(a.code, show(a)).not.toBe(0)
    expect(a.stderr).toContain(`package#${name}: was not installed, 1.0-1 available, now not installed, 1.1-1 available`)
    expect(a.stderr).toContain('refusing a stale plan: 1 resource changed since it was made')
    expect(t.version()).toBeUndefined()

    // a version no repository offers: the step fails with apt's words, and nothing is installed
    const missing = await plait(['apply', t.manifest('9.9-9'), '--root', t.root, ...state])
    expect(missing.code, show(missing)).not.toBe(0)
    expect(missing.stdout + missing.stderr).toContain(`apt-get install exited 100: E: Version '9.9-9' for '${name}' was not found`)
    expect(t.version()).toBeUndefined()
  }, 120000)

  // CCM's README example (package + file + service subscribed to the file), with a package of the
  // tests' own in place of httpd and a stand-in systemctl (systemd cannot run here)
  it.skipIf(process.getuid?.() !== 0)("applies CCM's httpd example under the root with the tests' own package, and converges", async () => {
    const t = setup(['1.0-1'])
    const fake = fakeSystemctl(tempDir('plait-systemctl-'))
    fake.unit('hello-web', { active: 'inactive', unitFile: 'disabled' })
    const env = { PATH: fake.path }
    const m = path.join(t.home, 'httpd.yaml')
    fs.writeFileSync(
      m,
      `data:\n  package_name: ${name}\n  service_name: hello-web\n\nccm:\n  resources:\n    - package:\n        - "\${ Data.package_name }":\n            ensure: present\n` +
        `    - file:\n        - "/etc/hello-web.conf":\n            ensure: present\n            owner: root\n            group: root\n            mode: "0644"\n            content: |\n                Listen 8080\n` +
        `    - service:\n        - "\${ Data.service_name }":\n            ensure: running\n            enable: true\n            subscribe:\n              - file#/etc/hello-web.conf\n`,
    )
    const p = await plait(['plan', m, '--root', t.root], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain(`install ${name} (1.0-1 at plan time): not installed; the newest available is 1.0-1`)
    const a = await plait(['apply', m, '--root', t.root, ...state], { env })
    expect(a.code, show(a)).toBe(0)
    expect(t.version()).toBe('1.0-1')
    expect(fs.readFileSync(path.join(t.root, 'etc/hello-web.conf'), 'utf8')).toBe('Listen 8080\n')
    expect(fake.units()['hello-web']).toMatchObject({ active: 'active', unitFile: 'enabled' })
    const again = await plait(['plan', m, '--root', t.root], { env })
    expect(again.stdout, show(again)).toContain('Plan: 0 to create, 0 to change, 0 to delete, 3 unchanged.')
  }, 120000)

  it.skipIf(process.getuid?.() !== 0)('plans 300 packages with one dpkg-query and one apt-cache', async () => {
    const t = setup(['1.0-1'])
    // wrappers first on PATH count the package manager processes, then run the real tools
    const bin = tempDir('plait-count-')
    const log = path.join(bin, 'log')
    for (const tool of ['dpkg-query', 'apt-cache', 'apt-get', 'dpkg']) {
      fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho ${tool} >> ${log}\nexec /usr/bin/${tool} "$@"\n`, { mode: 0o755 })
    }
    const names = [name, ...Array.from({ length: 299 }, (_, i) => `plait-e2e-many-${i}`)]
    const m = path.join(t.home, 'many.yaml')
    fs.writeFileSync(m, `ccm:\n  resources:\n    - package:\n${names.map((n) => `        - ${n}:\n            ensure: absent\n`).join('')}`)
    const p = await plait(['plan', m, '--root', t.root], { env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}` } })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 300 unchanged.')
    const processes = fs.readFileSync(log, 'utf8').trim().split('\n')
    console.log(`planning 300 packages ran ${processes.length} package manager processes: ${processes.join(', ')}`)
    expect(processes).toEqual(['dpkg-query', 'apt-cache'])
  }, 120000)

  it('refuses a name apt would read as an option, a pattern or a removal, and an unknown provider, at their positions', async () => {
    const dir = fs.mkdtempSync(path.join(process.env['TMPDIR'] ?? '/tmp', 'plait-pkg-'))
    made.push(dir)
    const m = path.join(dir, 'manifest.yaml')
    fs.writeFileSync(m, 'ccm:\n  resources:\n    - package:\n        - "-oAPT::x": {}\n        - "zs.*": {}\n        - "dpkg-": {}\n        - nginx:\n            provider: yum\n        - vim:\n            ensure: "1.0;rm"\n')
    const r = await plait(['plan', m, '--root', dir])
    expect(r.code, show(r)).not.toBe(0)
    expect(r.stderr).toContain(`${m}:4:11: package#-oAPT::x: package name "-oAPT::x": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)`)
    expect(r.stderr).toContain(`${m}:5:11: package#zs.*: package name "zs.*": contains "*", which is not allowed`)
    expect(r.stderr).toMatch(new RegExp(`${m}:6:11.*apt package name "dpkg-": ends with "-"`))
    expect(r.stderr).toMatch(new RegExp(`${m}:8:23.*unknown package provider "yum"`))
    expect(r.stderr).toMatch(new RegExp(`${m}:10:21.*ensure is not present, absent, latest or a valid version: package version "1.0;rm": contains ";"`))
  })
})
