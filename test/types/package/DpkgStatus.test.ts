// DpkgStatus: the batched dpkg-query status query and its parser, run with the real dpkg-query
// on this machine's database and on temporary roots whose database holds every state.
import * as E from 'fp-ts/lib/Either.js'
import { rmSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as DpkgStatus from '../../../src/types/package/DpkgStatus.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Root from '../../../src/types/package/Root.js'
import { dpkgRoot, run } from './run.js'

const roots: string[] = []
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})
const rootOf = (dir: string): Root.Root => {
  roots.push(dir)
  const r = Root.make(dir)
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const statuses = (names: [string, ...string[]], root?: Root.Root) => {
  const exit = run(DpkgStatus.query(names, root, 10000))
  const parsed = DpkgStatus.parse(names, exit)
  if (E.isLeft(parsed)) throw new Error(Invalid.message(parsed.left))
  return Object.fromEntries(parsed.right)
}
const refusal = (names: string[], exit: Partial<Exit>): string => {
  const r = DpkgStatus.parse(names, { exitCode: 0, signal: undefined, stdout: '', stderr: '', durationMs: 1, ...exit })
  return E.isLeft(r) ? Invalid.message(r.left) : 'accepted'
}

describe('DpkgStatus.query', () => {
  it('is one dpkg-query for every name, after --, in the C locale, below the root when given', () => {
    const root = Root.make('/tmp/r')
    if (E.isLeft(root)) throw new Error('root')
    expect(DpkgStatus.query(['zsh', 'vim'], undefined, 5000)).toEqual({
      argv: ['dpkg-query', '-W', '-f=${Package}\\t${Version}\\t${Architecture}\\t${db:Status-Status}\\n', '--', 'zsh', 'vim'],
      environment: ['LC_ALL=C'],
      timeoutMs: 5000,
    })
    expect(DpkgStatus.query(['zsh'], root.right, 5000).argv.slice(0, 2)).toEqual(['dpkg-query', '--root=/tmp/r'])
  })
})

describe('DpkgStatus.parse, on the real dpkg-query', () => {
  it("reads this machine's installed packages and unknown names in one query", () => {
    const dpkgVersion = run({ argv: ['dpkg-query', '-W', '-f=${Version}', 'dpkg'], environment: ['LC_ALL=C'], timeoutMs: 10000 }).stdout
    const got = statuses(['dpkg', 'plait-no-such-package', 'coreutils', 'plait-nor-this-one'])
    expect(got['dpkg']).toEqual({ _tag: 'Installed', version: dpkgVersion, architecture: expect.stringMatching(/^[a-z0-9-]+$/) })
    expect(got['coreutils']?._tag).toBe('Installed')
    expect(got['plait-no-such-package']).toEqual({ _tag: 'Absent', state: undefined, version: '' })
    expect(got['plait-nor-this-one']).toEqual({ _tag: 'Absent', state: undefined, version: '' })
  })

  it('reads every dpkg state from a database below a root, and only "installed" is present', () => {
    const stanzas = [
      { name: 'p-installed', status: 'install ok installed', version: '1.1-1' },
      { name: 'p-config-files', status: 'deinstall ok config-files', version: '1:1.2-1' },
      { name: 'p-half-installed', status: 'install reinstreq half-installed', version: '1.3-1' },
      { name: 'p-half-configured', status: 'install ok half-configured', version: '1.4-1' },
      { name: 'p-unpacked', status: 'install ok unpacked', version: '1.5-1' },
      { name: 'p-triggers-awaited', status: 'install ok triggers-awaited', version: '1.6-1', extra: 'Triggers-Awaited: p-installed\n' },
      { name: 'p-triggers-pending', status: 'install ok triggers-pending', version: '1.7-1', extra: 'Triggers-Pending: plait-test\n' },
      { name: 'p-not-installed', status: 'purge ok not-installed' },
    ]
    const root = rootOf(dpkgRoot(stanzas))
    const names = stanzas.map((s) => s.name)
    const got = statuses(['p-gone', ...names], root)
    expect(got['p-installed']).toEqual({ _tag: 'Installed', version: '1.1-1', architecture: 'amd64' })
    expect(got['p-config-files']).toEqual({ _tag: 'Absent', state: 'config-files', version: '1:1.2-1' })
    expect(got['p-not-installed']).toEqual({ _tag: 'Absent', state: 'not-installed', version: '' })
    expect(got['p-gone']).toEqual({ _tag: 'Absent', state: undefined, version: '' })
    for (const s of ['half-installed', 'half-configured', 'unpacked', 'triggers-awaited', 'triggers-pending'] as const) {
      expect(got[`p-${s}`]).toEqual({ _tag: 'Absent', state: s, version: expect.any(String) })
    }
    expect(Object.values(got).filter(DpkgStatus.isPresent)).toHaveLength(1)
  })

  it('answers a name qualified with its architecture, and refuses one installed at two versions', () => {
    const root = rootOf(
      dpkgRoot([
        { name: 'libx', status: 'install ok installed', version: '2.0-1', arch: 'amd64', extra: 'Multi-Arch: same\n' },
        { name: 'libx', status: 'install ok installed', version: '2.0-2', arch: 'i386', extra: 'Multi-Arch: same\n' },
      ]),
    )
    expect(statuses(['libx:i386'], root)).toEqual({ 'libx:i386': { _tag: 'Installed', version: '2.0-2', architecture: 'i386' } })
    const exit = run(DpkgStatus.query(['libx'], root, 10000))
    expect(Invalid.message((DpkgStatus.parse(['libx'], exit) as E.Left<Invalid.Invalid>).left)).toBe(
      'package "libx": is installed at several versions (2.0-1 amd64, 2.0-2 i386): name one architecture, as libx:amd64',
    )
  })

  it("treats a root without a dpkg database as knowing no package (dpkg-query's own answer)", () => {
    const root = rootOf(dpkgRoot([]))
    rmSync(`${root.path}/var/lib/dpkg`, { recursive: true })
    expect(statuses(['dpkg'], root)).toEqual({ dpkg: { _tag: 'Absent', state: undefined, version: '' } })
  })

  it('refuses the answer when dpkg-query cannot read its database', () => {
    const root = rootOf(dpkgRoot([]))
    writeFileSync(`${root.path}/var/lib/dpkg/status`, 'garbage\n')
    const damaged = run(DpkgStatus.query(['dpkg'], root, 10000))
    expect(damaged.exitCode).toBe(2)
    expect(Invalid.message((DpkgStatus.parse(['dpkg'], damaged) as E.Left<Invalid.Invalid>).left)).toMatch(
      /^dpkg-query "dpkg-query: error: parsing file '.*…": failed with exit status 2$/,
    )
  })
})

describe('DpkgStatus.parse, on fixed samples of what cannot be produced here', () => {
  it('refuses a line that is not four fields, an unknown state, a malformed version or name', () => {
    expect(refusal(['a1'], { stdout: 'a1\t1.0\tamd64\n' })).toBe('dpkg-query output "a1\\t1.0\\tamd64": has 3 tab-separated fields, not 4')
    expect(refusal(['a1'], { stdout: 'a1\t1.0\tamd64\tinstalled\textra\n' })).toBe('dpkg-query output "a1\\t1.0\\tamd64\\tinstalled\\textra": has 5 tab-separated fields, not 4')
    expect(refusal(['a1'], { stdout: 'a1\t1.0\tamd64\tpwned\n' })).toBe('dpkg-query output "a1\\t1.0\\tamd64\\tpwned": has an unknown status "pwned"')
    expect(refusal(['a1'], { stdout: 'a1\t1.0;x\tamd64\tinstalled\n' })).toBe('dpkg-query output "a1\\t1.0;x\\tamd64\\tinstalled": has a missing or malformed version')
    expect(refusal(['a1'], { stdout: 'a1\t\tamd64\tinstalled\n' })).toBe('dpkg-query output "a1\\t\\tamd64\\tinstalled": has a missing or malformed version')
    expect(refusal(['a1'], { stdout: '-a\t1.0\tamd64\tinstalled\n' })).toBe('dpkg-query output "-a\\t1.0\\tamd64\\tinstalled": names a package that is not a valid name')
    expect(refusal(['a1'], { stdout: 'a1\t1.0\tAMD;64\tinstalled\n' })).toBe('dpkg-query output "a1\\t1.0\\tAMD;64\\tinstalled": has a malformed architecture')
  })

  it('refuses a package not asked for, and a name dpkg neither printed nor said it did not find', () => {
    expect(refusal(['a1'], { stdout: 'a1\t1.0\tamd64\tinstalled\nb1\t1.0\tamd64\tinstalled\n' })).toBe('dpkg-query output "b1": is a package that was not asked for')
    expect(refusal(['a1', 'b1'], { stdout: 'a1\t1.0\tamd64\tinstalled\n' })).toBe('dpkg-query output "b1": has no line for this package, and dpkg-query did not say it found none')
    expect(refusal(['a1'], { exitCode: 1, stdout: 'a1\t1.0\tamd64\tinstalled\n', stderr: 'dpkg-query: no packages found matching a1\n' })).toBe(
      'dpkg-query output "a1": has a line for this package, and dpkg-query also said it found none',
    )
  })

  it('refuses error output it does not know, and exit statuses that contradict the output', () => {
    expect(refusal(['a1'], { exitCode: 1, stderr: 'dpkg-query: Paket a1 nicht gefunden\n' })).toBe('dpkg-query error output "dpkg-query: Paket a1 nicht gefunden": is not a message plait knows')
    expect(refusal(['a1'], { exitCode: 0, stderr: 'dpkg-query: no packages found matching a1\n' })).toBe('dpkg-query "a1": said it found no such package, yet exited 0')
    expect(refusal(['a1'], { exitCode: 1, stdout: 'a1\t1.0\tamd64\tinstalled\n' })).toBe('dpkg-query "": exited 1 without saying which package it did not find')
    expect(refusal(['a1'], { exitCode: undefined, signal: 'SIGKILL' })).toBe('dpkg-query "": ended by signal SIGKILL')
    expect(refusal(['a1'], { exitCode: 2, stderr: '\ndpkg-query: error: \u001b[2J\n' })).toBe('dpkg-query "dpkg-query: error: \\x1b[2J": failed with exit status 2')
  })

  it('tolerates warnings, and keeps the version a non-installed state still records', () => {
    const r = DpkgStatus.parse(['a1'], { exitCode: 0, signal: undefined, stdout: 'a1\t2:1.0-1\tall\tconfig-files\n', stderr: 'dpkg-query: warning: something odd\n', durationMs: 1 })
    expect(r).toEqual(E.right(new Map([['a1', { _tag: 'Absent', state: 'config-files', version: '2:1.0-1' }]])))
  })
})
