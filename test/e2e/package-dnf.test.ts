// package resources with `provider: dnf` through the built binary, with the real rpm, dnf,
// rpmbuild and createrepo_c (Debian's packages), below a temporary install root: the tests build
// two versions (then a third) of a tiny noarch rpm of their own with rpmbuild and serve them from a
// `file:` repository indexed by createrepo_c (no network), named by a .repo file in the root. dnf
// installs only as root, so those tests run where the tests run as root (CI); the host's rpm
// database is checked to be untouched.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dnfRoot } from '../types/package/run.js'
import { cleanup, ensureBuilt, plait, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
const made: string[] = []
afterAll(async () => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
  await cleanup()
})

const state = ['--state-dir', '/var/lib/plait']
const name = 'plait-e2e-rpm'
const v1 = { version: '1.0', release: '1' }
const v2 = { version: '2.0', release: '1' }

/** What the host's own rpm database says of the package (it must never be installed there). */
const onHost = (): string => spawnSync('rpm', ['-q', name], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } }).stdout.trim()

/** An install root with the tests' repository offering these versions, and manifests for it. */
const setup = (versions: ReadonlyArray<typeof v1>) => {
  const t = dnfRoot()
  made.push(t.root, t.home)
  t.publish(name, versions)
  const manifest = (ensure: string, provider = '\n            provider: dnf') => {
    const f = path.join(t.home, 'manifest.yaml')
    fs.writeFileSync(f, `ccm:\n  resources:\n    - package:\n        - ${name}:\n            ensure: "${ensure}"${provider}\n`)
    return f
  }
  const version = () => {
    const f = path.join(t.root, 'usr/share', name, 'version')
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : undefined
  }
  return { ...t, manifest, version }
}

const root = process.getuid?.() === 0

describe('package with the dnf provider', () => {
  it.skipIf(!root)('installs, converges, upgrades to latest, downgrades to a pinned version and removes, below the install root only', async () => {
    const host = onHost()
    const t = setup([v1])
    const latest = t.manifest('latest')
    const p = await plait(['plan', latest, '--root', t.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain(`+ package#${name}\n    was: not installed, 1.0-1 available\n    install ${name} 1.0-1: not installed, ensure is latest; the newest available is 1.0-1`)

    const n = await plait(['apply', latest, '--root', t.root, '--noop', ...state])
    expect(n.code, show(n)).toBe(0)
    expect(n.stdout).toContain(`package#${name}: Would have installed latest`)
    expect(t.version()).toBeUndefined()

    const a = await plait(['apply', latest, '--root', t.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toContain(`Ran and cannot be undone:\n  package#${name}: install ${name} 1.0-1`)
    expect(t.version()).toBe('1.0-1')
    // converged: ensure latest plans nothing
    expect((await plait(['plan', latest, '--root', t.root])).stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 1 unchanged.')

    // a newer version is published: ensure latest upgrades to it, then plans nothing
    t.publish(name, [v1, v2])
    const up = await plait(['plan', latest, '--root', t.root])
    expect(up.stdout, show(up)).toContain(`~ package#${name}\n    was: installed at 1.0-1, 2.0-1 available\n    upgrade ${name} 1.0-1 → 2.0-1: installed at 1.0-1, the newest available is 2.0-1`)
    const ua = await plait(['apply', latest, '--root', t.root, ...state])
    expect(ua.code, show(ua)).toBe(0)
    expect(t.version()).toBe('2.0-1')
    expect((await plait(['plan', latest, '--root', t.root])).stdout).toContain('0 to change')

    // pinned to the older version: a downgrade (dnf downgrade); a version without its release is met by any release
    const pinned = t.manifest('1.0-1')
    const down = await plait(['plan', pinned, '--root', t.root])
    expect(down.stdout, show(down)).toContain(`downgrade ${name} 2.0-1 → 1.0-1: installed at 2.0-1, newer than 1.0-1`)
    const da = await plait(['apply', pinned, '--root', t.root, ...state])
    expect(da.code, show(da)).toBe(0)
    expect(da.stdout).toContain(`package#${name}: downgrade ${name} 2.0-1 → 1.0-1`)
    expect(t.version()).toBe('1.0-1')
    expect((await plait(['plan', t.manifest('1.0'), '--root', t.root])).stdout).toContain('0 to change')

    // absent: removed, then nothing to do
    const absent = t.manifest('absent')
    const rm = await plait(['plan', absent, '--root', t.root])
    expect(rm.stdout, show(rm)).toContain(`- package#${name}\n    was: installed at 1.0-1, 2.0-1 available\n    remove ${name} 1.0-1: installed at 1.0-1, ensure is absent`)
    const ra = await plait(['apply', absent, '--root', t.root, ...state])
    expect(ra.code, show(ra)).toBe(0)
    expect(t.version()).toBeUndefined()
    expect((await plait(['plan', absent, '--root', t.root])).stdout).toContain('0 to delete, 1 unchanged')

    // everything happened below the root: dnf's log is there, the host's rpm database never had the package
    expect(fs.readFileSync(path.join(t.root, 'var/log/dnf.rpm.log'), 'utf8')).toContain(`Erase: ${name}-1.0-1.noarch`)
    expect(onHost()).toBe(host)
    expect(fs.existsSync(path.join('/usr/share', name))).toBe(false)
  }, 120000)

  it.skipIf(!root)("refuses a saved plan whose newest version changed since it was made, and fails with dnf's words", async () => {
    const t = setup([v1])
    const planFile = path.join(t.home, 'plan.json')
    const p = await plait(['plan', t.manifest('latest'), '--root', t.root, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    t.publish(name, [v1, v2])
    const a = await plait(['apply', planFile, '--root', t.root, ...state])
    expect(a.code, show(a)).not.toBe(0)
    expect(a.stderr, show(a)).toContain(`package#${name}: was not installed, 1.0-1 available, now not installed, 2.0-1 available`)
    expect(a.stderr).toContain('refusing a stale plan: 1 resource changed since it was made')
    expect(t.version()).toBeUndefined()

    const missing = await plait(['apply', t.manifest('9.9-9'), '--root', t.root, ...state])
    expect(missing.code, show(missing)).not.toBe(0)
    expect(missing.stdout + missing.stderr).toContain(`install ${name} 9.9-9 failed: dnf install exited 1: Error: Unable to find a match: ${name}-0:9.9-9 / No match for argument: ${name}-0:9.9-9`)
    expect(t.version()).toBeUndefined()
  }, 60000)

  it.skipIf(!root)('plans 300 packages with one rpm and one dnf', async () => {
    const t = setup([v1])
    // wrappers first on PATH count the package manager processes, then run the real tools
    const bin = tempDir('plait-count-')
    const log = path.join(bin, 'log')
    for (const tool of ['rpm', 'dnf']) fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho ${tool} >> ${log}\nexec /usr/bin/${tool} "$@"\n`, { mode: 0o755 })
    const names = [name, ...Array.from({ length: 299 }, (_, i) => `plait-e2e-many-${i}`)]
    const m = path.join(t.home, 'many.yaml')
    fs.writeFileSync(m, `ccm:\n  resources:\n    - package:\n${names.map((n) => `        - ${n}:\n            ensure: absent\n            provider: dnf\n`).join('')}`)
    const p = await plait(['plan', m, '--root', t.root], { env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}` } })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 300 unchanged.')
    const processes = fs.readFileSync(log, 'utf8').trim().split('\n')
    console.log(`planning 300 dnf packages ran ${processes.length} package manager processes: ${processes.join(', ')}`)
    expect(processes).toEqual(['rpm', 'dnf'])
  }, 60000)

  it('refuses a root whose path dnf could read as several directories, before running dnf', async () => {
    const dir = tempDir('plait-dnf,x-')
    const m = path.join(dir, 'manifest.yaml')
    fs.writeFileSync(m, `ccm:\n  resources:\n    - package:\n        - ${name}:\n            provider: dnf\n`)
    const r = await plait(['plan', m, '--root', dir])
    expect(r.code, show(r)).not.toBe(0)
    expect(r.stderr).toContain(`root directory ${JSON.stringify(dir)}: contains ",", which dnf's options cannot hold safely`)
  })
})
