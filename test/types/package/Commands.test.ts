// Commands: the exact argv and environment of each provider operation, and, for apt, the proof
// that they act below a root and never on the host: the real apt-get installs, upgrades, downgrades
// and removes a package of the test's own (built with dpkg-deb, served from a `file:` repository)
// in a temporary root. dnf's commands are checked as values here; the dnf provider runs them for
// real in test/e2e/package-dnf.test.ts.
import * as E from 'fp-ts/lib/Either.js'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import * as AptRoot from '../../../src/types/package/AptRoot.js'
import * as Commands from '../../../src/types/package/Commands.js'
import * as D from '../../../src/types/package/Decision.js'
import * as DebianVersion from '../../../src/types/package/DebianVersion.js'
import type * as DnfRoot from '../../../src/types/package/DnfRoot.js'
import * as DpkgStatus from '../../../src/types/package/DpkgStatus.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Root from '../../../src/types/package/Root.js'
import { aptRoot, buildDeb, run } from './run.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const right = <A>(r: E.Either<Invalid.Invalid, A>): A => {
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const root = right(Root.make('/srv/r'))
const aptTarget: AptRoot.AptRoot = { root, configFile: '/var/lib/plait/apt.conf' }
const env = ['DEBIAN_FRONTEND=noninteractive', 'APT_LISTBUGS_FRONTEND=none', 'APT_LISTCHANGES_FRONTEND=none']
const action = (ensure: D.Ensure, now: D.Installed, candidate: D.Candidate, compare: D.Compare = DebianVersion.compareText) => right(D.decide(ensure, now, candidate, compare))

describe('Commands for apt', () => {
  it("installs with the spec's flags and environment, the name after --", () => {
    expect(Commands.aptInstall('zsh', { _tag: 'Newest' }, undefined, 600000)).toEqual({
      argv: ['apt-get', 'install', '-y', '-q', '-o', 'DPkg::Options::=--force-confold', '--', 'zsh'],
      environment: env,
      timeoutMs: 600000,
    })
    expect(Commands.aptInstall('zsh', { _tag: 'Latest', version: '5.9-8+b18' }, undefined, 1).argv).toEqual(['apt-get', 'install', '-y', '-q', '-o', 'DPkg::Options::=--force-confold', '--', 'zsh=5.9-8+b18'])
    expect(Commands.aptInstall('zsh', { _tag: 'Exact', version: '5.9-8' }, undefined, 1).argv).toEqual(['apt-get', 'install', '-y', '-q', '-o', 'DPkg::Options::=--force-confold', '--allow-downgrades', '--', 'zsh=5.9-8'])
  })

  it('removes without purging', () => {
    expect(Commands.aptRemove('telnet', undefined, 1)).toEqual({ argv: ['apt-get', '-q', '-y', 'remove', '--', 'telnet'], environment: env, timeoutMs: 1 })
  })

  it("points apt, and the dpkg it runs, at the root: apt's configuration, Dir, dpkg's root and log", () => {
    expect(Commands.aptRemove('telnet', aptTarget, 1)).toEqual({
      argv: ['apt-get', '-q', '-y', 'remove', '-o', 'Dir=/srv/r/', '-o', 'DPkg::Options::=--root=/srv/r', '-o', 'DPkg::Options::=--log=/srv/r/var/log/dpkg.log', '--', 'telnet'],
      environment: [...env, 'APT_CONFIG=/var/lib/plait/apt.conf'],
      timeoutMs: 1,
    })
    expect(AptRoot.configText(root)).toBe('Dir "/srv/r/";\n')
  })

  it("maps each decision to the spec's operation: latest never downgrades, a named version may", () => {
    const argv = (ensure: D.Ensure, a: D.Action) => Commands.forApt('hello', ensure, a, undefined, 1)?.argv.slice(6)
    expect(argv(D.present, action(D.present, D.notInstalled, { _tag: 'Unobserved' }))).toEqual(['--', 'hello'])
    expect(argv(D.latest, action(D.latest, D.notInstalled, { _tag: 'Candidate', version: '2.10-3' }))).toEqual(['--', 'hello=2.10-3'])
    expect(argv(D.latest, action(D.latest, D.installed('2.10-2'), { _tag: 'Candidate', version: '2.10-3' }))).toEqual(['--', 'hello=2.10-3'])
    expect(argv(D.latest, action(D.latest, D.installed('2.10-2'), { _tag: 'Unobserved' }))).toEqual(['--', 'hello'])
    const v = { _tag: 'Version', version: '2.10-1' } as const
    expect(argv(v, action(v, D.installed('2.10-2'), { _tag: 'Unobserved' }))).toEqual(['--allow-downgrades', '--', 'hello=2.10-1'])
    expect(argv(v, action(v, D.notInstalled, { _tag: 'Unobserved' }))).toEqual(['--allow-downgrades', '--', 'hello=2.10-1'])
    expect(Commands.forApt('hello', D.absent, action(D.absent, D.installed('1'), { _tag: 'Unobserved' }), undefined, 1)?.argv).toEqual(['apt-get', '-q', '-y', 'remove', '--', 'hello'])
    expect(Commands.forApt('hello', D.absent, action(D.absent, D.notInstalled, { _tag: 'Unobserved' }), undefined, 1)).toBeUndefined()
  })

  // dpkg installs only as root (as the agreement suite, this runs where the tests run as root)
  it.skipIf(process.getuid?.() !== 0)('installs, upgrades, downgrades and removes a package below a root with the real apt-get, and touches nothing on the host', () => {
    const name = 'plait-commands-test'
    const { target, home } = aptRoot([], [], (repo) => [buildDeb(repo, name, '1.0-1'), buildDeb(repo, name, '1.1-1')])
    dirs.push(target.root.path, home)
    const hostLog = existsSync('/var/log/dpkg.log') ? statSync('/var/log/dpkg.log').size : 0
    const status = () => {
      const s = right(DpkgStatus.parse([name], run(DpkgStatus.query([name], target.root, 30000))))
      const p = s.get(name)
      return p?._tag === 'Installed' ? D.installed(p.version) : D.notInstalled
    }
    const step = (ensure: D.Ensure, candidate: D.Candidate, expected: D.Action['_tag']) => {
      const a = action(ensure, status(), candidate)
      expect(a._tag).toBe(expected)
      const c = Commands.forApt(name, ensure, a, target, 120000)
      if (c === undefined) return
      const out = run(c)
      expect(out.exitCode, out.stderr + out.stdout).toBe(0)
      // planning again finds nothing to do
      expect(action(ensure, status(), candidate)._tag).toBe('Nothing')
    }
    const v10 = { _tag: 'Version', version: '1.0-1' } as const
    step(v10, { _tag: 'Unobserved' }, 'Install')
    expect(status()).toEqual(D.installed('1.0-1'))
    expect(readFileSync(`${target.root.path}/usr/share/${name}/version`, 'utf8')).toBe('1.0-1\n')
    step(D.latest, { _tag: 'Candidate', version: '1.1-1' }, 'Upgrade')
    expect(status()).toEqual(D.installed('1.1-1'))
    step(v10, { _tag: 'Unobserved' }, 'Downgrade')
    expect(readFileSync(`${target.root.path}/usr/share/${name}/version`, 'utf8')).toBe('1.0-1\n')
    step(D.absent, { _tag: 'Unobserved' }, 'Remove')
    expect(existsSync(`${target.root.path}/usr/share/${name}/version`)).toBe(false)
    // the host: no such package, nothing under /usr/share, nothing in dpkg's log
    expect(right(DpkgStatus.parse([name], run(DpkgStatus.query([name], undefined, 30000)))).get(name)).toEqual({ _tag: 'Absent', state: undefined, version: '' })
    expect(existsSync(`/usr/share/${name}`)).toBe(false)
    expect(existsSync('/var/log/dpkg.log') ? statSync('/var/log/dpkg.log').size : 0).toBe(hostLog)
    expect(readFileSync(`${target.root.path}/var/log/dpkg.log`, 'utf8')).toContain(`remove ${name}:all 1.0-1`)
  }, 120000)
})

describe('Commands for dnf (values; the dnf provider runs them for real in test/e2e/package-dnf.test.ts)', () => {
  const argv = (a: D.Action, r?: DnfRoot.DnfRoot) => right(Commands.forDnf('nginx', a, r, 1))?.argv
  const rpm = (ensure: D.Ensure, now: D.Installed, candidate: D.Candidate) => action(ensure, now, candidate, (i, w) => E.right(i === w ? 0 : i < w ? -1 : 1))

  it("installs, downgrades and removes as the spec says, the version spelled with its epoch so it cannot join the name", () => {
    expect(argv(rpm(D.present, D.notInstalled, { _tag: 'Unobserved' }))).toEqual(['dnf', 'install', '-y', '--', 'nginx'])
    expect(argv(rpm({ _tag: 'Version', version: '1.24.0-1.el9' }, D.notInstalled, { _tag: 'Unobserved' }))).toEqual(['dnf', 'install', '-y', '--', 'nginx-0:1.24.0-1.el9'])
    expect(argv(rpm({ _tag: 'Version', version: '1:1.24.0' }, D.installed('1:1.22.0-1'), { _tag: 'Unobserved' }))).toEqual(['dnf', 'install', '-y', '--', 'nginx-1:1.24.0'])
    expect(argv(rpm({ _tag: 'Version', version: '1.20.0-1' }, D.installed('1.22.0-1'), { _tag: 'Unobserved' }))).toEqual(['dnf', 'downgrade', '-y', '--', 'nginx-0:1.20.0-1'])
    expect(argv(rpm(D.absent, D.installed('1.22.0-1'), { _tag: 'Unobserved' }))).toEqual(['dnf', 'remove', '-y', '--', 'nginx'])
    expect(right(Commands.forDnf('nginx', rpm(D.absent, D.notInstalled, { _tag: 'Unobserved' }), undefined, 1))).toBeUndefined()
  })

  it('upgrades to the candidate seen at plan time, or with dnf upgrade when none was seen', () => {
    expect(argv(rpm(D.latest, D.installed('1.22.0-1'), { _tag: 'Candidate', version: '1.24.0-1' }))).toEqual(['dnf', 'install', '-y', '--', 'nginx-0:1.24.0-1'])
    expect(argv(rpm(D.latest, D.installed('1.22.0-1'), { _tag: 'Unobserved' }))).toEqual(['dnf', 'upgrade', '-y', '--', 'nginx'])
  })

  it('installs into the root with --installroot, its own repositories and configuration, and no plugins', () => {
    expect(argv(rpm(D.present, D.notInstalled, { _tag: 'Unobserved' }), { root, configFile: '/tmp/x/dnf.conf' })).toEqual([
      'dnf',
      'install',
      '-y',
      '--installroot=/srv/r',
      '--setopt=reposdir=/srv/r/etc/yum.repos.d',
      '--config=/tmp/x/dnf.conf',
      '--noplugins',
      '--',
      'nginx',
    ])
  })

  it('refuses a version dnf could not take literally', () => {
    const r = Commands.dnfSpec('nginx', '1.0-')
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe('rpm version "1.0-": has an empty release after the last "-"')
  })
})

describe('Root.make', () => {
  it.each([
    ['relative', 'root directory "relative": is not an absolute path'],
    ['/', 'root directory "/": is the host itself: run without a root'],
    ['/a/../etc', 'root directory "/a/../etc": has a "." or ".." component'],
    ['/a\nb', 'root directory "/a\\nb": contains a control character'],
  ])('refuses %j', (dir, message) => {
    const r = Root.make(dir)
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe(message)
  })

  it('normalises slashes', () => {
    expect(Root.make('/srv//r/')).toEqual(E.right({ _tag: 'Root', path: '/srv/r' }))
  })
})
