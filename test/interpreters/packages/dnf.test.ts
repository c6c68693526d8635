// The dnf package Manager over the scripted process runner (the real rpm and dnf run in
// test/e2e/package-dnf.test.ts): its exact commands and environment, one rpm and one dnf for a
// batch, the command each operation is, the root it refuses before running anything, and the
// faults it makes of a missing tool, an unreadable answer and a refusal.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Dnf from '../../../src/interpreters/packages/dnf.js'
import { dnfNotSuitable } from '../../../src/interpreters/packages/Manager.js'
import * as Processes from '../../../src/interpreters/process.js'
import type * as DnfRoot from '../../../src/types/package/DnfRoot.js'
import * as Observed from '../../../src/types/package/Observed.js'
import * as Root from '../../../src/types/package/Root.js'
import * as RpmQuery from '../../../src/types/package/RpmQuery.js'
import type { Operation } from '../../../src/types/package/Step.js'

const made: string[] = []
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
})
const temp = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(d)
  return d
}

/** A PATH directory holding executables of these names (never run: the scripted runner answers). */
const bin = (...names: ReadonlyArray<string>) => {
  const d = temp('plait-bin-')
  for (const n of names) fs.writeFileSync(path.join(d, n), '#!/bin/sh\nexit 99\n', { mode: 0o755 })
  return d
}
const tools = bin('dnf', 'rpm')

/** A scripted rpm and dnf: rpm says `installed` (lines of the query format), dnf offers `available` (repoquery lines). */
const script = (installed: string, notInstalled: ReadonlyArray<string>, available: string) =>
  Processes.memory((p) => {
    if (p.file === 'rpm') return { exit: notInstalled.length, stdout: installed + notInstalled.map((n) => `package ${n} is not installed\n`).join('') }
    if (p.file === 'dnf' && p.args.includes('repoquery')) return { exit: 0, stdout: available, stderr: "Unable to detect release version (use '--releasever' to specify release version)\n" }
    return { exit: 0 }
  })

describe('the dnf package manager', () => {
  it('answers a batch with one rpm -q and one dnf repoquery, below the root, with a complete environment', async () => {
    const processes = script('zsh\t0\t5.8\t9.el9\tx86_64\nkernel\t0\t5.14\t70\tx86_64\nkernel\t0\t5.14\t162\tx86_64\n', ['vim'], 'zsh 1 5.9 1.el9 x86_64\nvim 0 9.0 1 x86_64\nkernel 0 5.14 162 x86_64\n')
    const m = Dnf.make({ root: '/srv/r', processes, path: tools })
    expect(await m.status(['zsh', 'vim', 'kernel'])).toEqual(E.right([Observed.of('5.8-9.el9', '1:5.9-1.el9', 'dnf'), Observed.of(undefined, '9.0-1', 'dnf'), Observed.of('5.14-162', '5.14-162', 'dnf')]))
    const runs = processes.runs()
    expect(runs.map((p) => p.file)).toEqual(['rpm', 'dnf'])
    const config = runs[1]!.args.find((a) => a.startsWith('--config='))!.slice('--config='.length)
    expect(runs.map((p) => [p.file, ...p.args])).toEqual([
      ['rpm', '--root=/srv/r', '-q', '--queryformat', RpmQuery.format, '--', 'zsh', 'vim', 'kernel'],
      ['dnf', '-q', '--installroot=/srv/r', '--setopt=reposdir=/srv/r/etc/yum.repos.d', `--config=${config}`, '--noplugins', 'repoquery', '--available', '--latest-limit', '1', '--qf', RpmQuery.availableFormat, '--', 'zsh', 'vim', 'kernel'],
    ])
    // the root has no dnf.conf: dnf reads an empty one of plait's, never the host's
    expect(config.startsWith('/srv/r')).toBe(false)
    expect(fs.readFileSync(config, 'utf8')).toBe('[main]\n')
    expect(runs[0]!.env).toEqual({ PATH: `${tools}:/usr/local/sbin:/usr/sbin:/sbin`, LC_ALL: 'C', HOME: process.env['HOME'] ?? os.userInfo().homedir, SHLVL: '1' })
    expect(await m.status([])).toEqual(E.right([]))
    expect(processes.runs()).toHaveLength(2)
  })

  it("reads the root's own dnf.conf when it has one, and nothing below a root on the host", async () => {
    const root = temp('plait-dnfconf-')
    fs.mkdirSync(path.join(root, 'etc/dnf'), { recursive: true })
    fs.writeFileSync(path.join(root, 'etc/dnf/dnf.conf'), '[main]\ngpgcheck=1\n')
    const processes = script('', ['zsh'], '')
    expect(E.isRight(await Dnf.make({ root, processes, path: tools }).status(['zsh']))).toBe(true)
    expect(processes.runs()[1]!.args).toContain(`--config=${root}/etc/dnf/dnf.conf`)
    const host = script('', ['zsh'], '')
    expect(E.isRight(await Dnf.make({ root: '/', processes: host, path: tools }).status(['zsh']))).toBe(true)
    expect(host.runs().map((p) => [p.file, ...p.args.slice(0, 2)])).toEqual([
      ['rpm', '-q', '--queryformat'],
      ['dnf', '-q', 'repoquery'],
    ])
  })

  it.each<[string, Operation, ReadonlyArray<string>]>([
    ['installs the newest', { _tag: 'Install', name: 'zsh', target: { _tag: 'Newest' } }, ['install', '-y', '--', 'zsh']],
    ['upgrades an installed package to the newest', { _tag: 'Install', name: 'zsh', target: { _tag: 'Newest' }, from: '5.8-9' }, ['upgrade', '-y', '--', 'zsh']],
    ['installs the candidate seen at plan time', { _tag: 'Install', name: 'zsh', target: { _tag: 'Latest', version: '1:5.9-1' }, from: '5.8-9' }, ['install', '-y', '--', 'zsh-1:5.9-1']],
    ['installs an exact version above the one installed', { _tag: 'Install', name: 'zsh', target: { _tag: 'Exact', version: '5.9' }, from: '5.8-9' }, ['install', '-y', '--', 'zsh-0:5.9']],
    ['downgrades to an exact version below the one installed', { _tag: 'Install', name: 'zsh', target: { _tag: 'Exact', version: '5.7-1' }, from: '5.8-9' }, ['downgrade', '-y', '--', 'zsh-0:5.7-1']],
    ['removes', { _tag: 'Remove', name: 'zsh' }, ['remove', '-y', '--', 'zsh']],
  ])('%s', async (_, op, argv) => {
    const processes = script('', [], '')
    expect(await Dnf.make({ root: '/', processes, path: tools }).act(op)).toEqual(E.right(undefined))
    expect(processes.runs().map((p) => [p.file, ...p.args])).toEqual([['dnf', ...argv]])
  })

  it("fails with dnf's words, its error lines first", async () => {
    const processes = Processes.memory(() => ({ exit: 1, stdout: 'Last metadata expiration check: 0:00:01 ago\nNo match for argument: zsh-0:9-9\n', stderr: 'Error: Unable to find a match: zsh-0:9-9\n' }))
    const r = await Dnf.make({ root: '/', processes, path: tools }).act({ _tag: 'Install', name: 'zsh', target: { _tag: 'Exact', version: '9-9' } })
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['Failed', 'dnf install exited 1: Error: Unable to find a match: zsh-0:9-9 / No match for argument: zsh-0:9-9'])
  })

  it('refuses an answer it cannot read, naming the tool and the line', async () => {
    const rpm = Processes.memory(() => ({ exit: 0, stdout: 'zsh 0 5.8 9 x86_64\n' }))
    const r = await Dnf.make({ root: '/', processes: rpm, path: tools }).status(['zsh'])
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['ProtocolViolation', 'rpm -q output "zsh 0 5.8 9 x86_64": has 1 tab-separated fields, not 5'])
    const dnf = script('', ['zsh'], 'bash 0 5.1 1 x86_64\n')
    const d = await Dnf.make({ root: '/', processes: dnf, path: tools }).status(['zsh'])
    expect(E.isLeft(d) && d.left.description).toBe('dnf repoquery output "bash": is a package that was not asked for')
    const failed = Processes.memory((p) => (p.file === 'rpm' ? { exit: 1, stdout: 'package zsh is not installed\n' } : { exit: 1, stderr: 'Error: Failed to download metadata for repo\n' }))
    const f = await Dnf.make({ root: '/', processes: failed, path: tools }).status(['zsh'])
    expect(E.isLeft(f) && f.left.description).toBe('dnf repoquery "Error: Failed to download metadata for repo": failed with exit status 1')
  })

  it.each([
    ['/tmp/a,/etc', 'root directory "/tmp/a,/etc": contains ",", which dnf\'s options cannot hold safely'],
    ['/tmp/a b', 'root directory "/tmp/a b": contains " ", which dnf\'s options cannot hold safely'],
    ['/tmp/$releasever', 'root directory "/tmp/$releasever": contains "$", which dnf\'s options cannot hold safely'],
    ['tmp/r', 'root directory "tmp/r": is not an absolute path'],
  ])('refuses the root %s before running anything', async (root, says) => {
    const processes = script('', [], '')
    const m = Dnf.make({ root, processes, path: tools })
    const r = await m.status(['zsh'])
    expect(E.isLeft(r) && r.left.description).toBe(says)
    const a = await m.act({ _tag: 'Remove', name: 'zsh' })
    expect(E.isLeft(a) && a.left.description).toBe(says)
    expect(processes.runs()).toEqual([])
  })

  it('refuses a name dnf would not take literally, and fails everything where dnf or rpm is missing, before running anything', async () => {
    const processes = script('', [], '')
    const r = await Dnf.make({ root: '/', processes, path: tools }).status(['zsh', 'libc6:amd64'])
    expect(E.isLeft(r) && r.left.description).toBe('rpm package name "libc6:amd64": has ":", which rpm package names do not: only letters, digits and . _ + - are allowed: dnf cannot be asked of it')
    for (const dir of [bin('dnf'), bin('rpm')]) {
      const m = Dnf.make({ root: '/', processes, path: dir })
      const s = await m.status(['zsh'])
      expect(E.isLeft(s) && [s.left._tag, s.left.description]).toEqual(['NotFound', dnfNotSuitable])
      const a = await m.act({ _tag: 'Remove', name: 'zsh' })
      expect(E.isLeft(a) && a.left.description).toBe(dnfNotSuitable)
    }
    expect(processes.runs()).toEqual([])
  })

  it('runs one command at a time (the package lock)', async () => {
    let active = 0
    let most = 0
    const processes: Processes.Processes = {
      run: async () => {
        active += 1
        most = Math.max(most, active)
        await new Promise((r) => setTimeout(r, 5))
        active -= 1
        return E.right({ exitCode: 0, signal: undefined, stdout: '', stderr: '', durationMs: 5 })
      },
    }
    const m = Dnf.make({ root: '/', processes, path: tools })
    await Promise.all(['a1', 'b1', 'c1'].map((name) => m.act({ _tag: 'Remove', name })))
    expect(most).toBe(1)
  })
})

describe('Dnf.command', () => {
  it('confines every command to the root it is given', () => {
    const root: DnfRoot.DnfRoot = { root: E.getOrElseW(() => { throw new Error('root') })(Root.make('/srv/r')), configFile: '/srv/r/etc/dnf/dnf.conf' }
    const c = Dnf.command({ _tag: 'Remove', name: 'zsh' }, root, 1)
    expect(E.isRight(c) && c.right.argv).toEqual(['dnf', 'remove', '-y', '--installroot=/srv/r', '--setopt=reposdir=/srv/r/etc/yum.repos.d', '--config=/srv/r/etc/dnf/dnf.conf', '--noplugins', '--', 'zsh'])
  })
})
