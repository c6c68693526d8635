// RpmQuery: the batched rpm query, run with the real rpm on a temporary root holding packages the
// real rpmbuild made; dnf's repoquery on fixed samples (dnf is not installed on this machine).
import * as E from 'fp-ts/lib/Either.js'
import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Nevra from '../../../src/types/package/Nevra.js'
import * as Root from '../../../src/types/package/Root.js'
import * as RpmQuery from '../../../src/types/package/RpmQuery.js'
import { rpmRoot, run } from './run.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const exitOf = (stdout: string, more: Partial<Exit> = {}): Exit => ({ exitCode: 0, signal: undefined, stdout, stderr: '', durationMs: 1, ...more })
const right = <A>(r: E.Either<Invalid.Invalid, A>): A => {
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const refusal = <A>(r: E.Either<Invalid.Invalid, A>): string => (E.isLeft(r) ? Invalid.message(r.left) : 'accepted')
const nevra = (s: string) => right(Nevra.parse(s))

describe('RpmQuery.query', () => {
  it("is one rpm -q for every name, after --, with the spec's fields, below the root when given", () => {
    const root = { root: right(Root.make('/tmp/r')), configFile: '/tmp/c' }
    expect(RpmQuery.query(['zsh', 'vim'], undefined, 5000)).toEqual({
      argv: ['rpm', '-q', '--queryformat', '%{NAME}\\t%|EPOCH?{%{EPOCH}}:{0}|\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\n', '--', 'zsh', 'vim'],
      environment: ['LC_ALL=C'],
      timeoutMs: 5000,
    })
    expect(RpmQuery.query(['zsh'], root, 5000).argv.slice(0, 2)).toEqual(['rpm', '--root=/tmp/r'])
  })
})

describe('RpmQuery.parse, on the real rpm', () => {
  it('reads installed packages with their epochs, several instances of one, and names not installed, in one query', () => {
    const dir = rpmRoot([
      { name: 'plait-t', epoch: '4', version: '1.2', release: '3.el9' },
      { name: 'plait-k', version: '5.14.0', release: '70.el9' },
      { name: 'plait-k', version: '5.14.0', release: '162.el9' },
      { name: 'plait-u', version: '0.1~rc1', release: '1' },
    ])
    dirs.push(dir)
    const root = { root: right(Root.make(dir)), configFile: '/nonexistent' }
    const names: [string, ...string[]] = ['plait-t', 'plait-none', 'plait-k', 'plait-u', 'plait-nor']
    const exit = run(RpmQuery.query(names, root, 30000))
    expect(exit.exitCode).toBe(2)
    const got = right(RpmQuery.parse(names, exit))
    expect(got.get('plait-t')).toEqual({ _tag: 'Installed', newest: nevra('plait-t-4:1.2-3.el9.noarch'), instances: [nevra('plait-t-4:1.2-3.el9.noarch')] })
    const k = got.get('plait-k')
    expect(k?._tag === 'Installed' && Nevra.format(k.newest)).toBe('plait-k-5.14.0-162.el9.noarch')
    expect(k?._tag === 'Installed' && k.instances.map(Nevra.format).sort()).toEqual(['plait-k-5.14.0-162.el9.noarch', 'plait-k-5.14.0-70.el9.noarch'])
    expect(got.get('plait-u')).toEqual({ _tag: 'Installed', newest: nevra('plait-u-0.1~rc1-1.noarch'), instances: [nevra('plait-u-0.1~rc1-1.noarch')] })
    expect(got.get('plait-none')).toEqual({ _tag: 'Absent' })
    expect(got.get('plait-nor')).toEqual({ _tag: 'Absent' })
  }, 60000)
})

describe('RpmQuery.parse, on fixed samples', () => {
  it("reads the spec's example line", () => {
    const got = right(RpmQuery.parse(['zsh'], exitOf('zsh\t0\t5.8\t9.el9\tx86_64\n')))
    expect(got.get('zsh')).toEqual({ _tag: 'Installed', newest: nevra('zsh-5.8-9.el9.x86_64'), instances: [nevra('zsh-5.8-9.el9.x86_64')] })
  })

  it('refuses what it cannot account for', () => {
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('zsh 0 5.8 9.el9 x86_64\n')))).toBe('rpm -q output "zsh 0 5.8 9.el9 x86_64": has 1 tab-separated fields, not 5')
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('zsh\t(none)\t5.8\t9.el9\tx86_64\n')))).toBe('rpm -q output "zsh\\t(none)\\t5.8\\t9.el9\\tx86_64": has an epoch that is not a whole number')
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('zsh\t0\t5.8;x\t9\tx86_64\n')))).toMatch(/^rpm -q output "zsh\\t0\\t5.8;x\\t9\\tx86_64": rpm version/)
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('bash\t0\t5.1\t1\tx86_64\npackage zsh is not installed\n', { exitCode: 1 })))).toBe('rpm -q output "bash": is a package that was not asked for')
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('package bash is not installed\n', { exitCode: 1 })))).toBe('rpm -q output "package bash is not installed": has 1 tab-separated fields, not 5')
    expect(refusal(RpmQuery.parse(['zsh', 'vim'], exitOf('zsh\t0\t5.8\t9\tx86_64\n')))).toBe('rpm -q output "vim": has no line for this package, and rpm did not say it is not installed')
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('package zsh is not installed\n')))).toBe('rpm -q "0": is an exit status that does not fit 1 packages not installed')
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('', { exitCode: 1, stderr: 'error: cannot open Packages database in /var/lib/rpm\n' })))).toBe(
      'rpm -q "error: cannot open Packages database in /var/lib/rpm": failed with exit status 1',
    )
    expect(refusal(RpmQuery.parse(['zsh'], exitOf('', { exitCode: undefined, signal: 'SIGKILL' })))).toBe('rpm -q "": ended by signal SIGKILL')
  })
})

describe('RpmQuery.available (dnf repoquery; fixed samples, and the real dnf in test/e2e/package-dnf.test.ts)', () => {
  it('is one dnf repoquery of the newest available version of every name, below the root when given', () => {
    const root = { root: right(Root.make('/tmp/r')), configFile: '/tmp/c' }
    expect(RpmQuery.available(['zsh'], root, 5000).argv).toEqual([
      'dnf',
      '-q',
      '--installroot=/tmp/r',
      '--setopt=reposdir=/tmp/r/etc/yum.repos.d',
      '--config=/tmp/c',
      '--noplugins',
      'repoquery',
      '--available',
      '--latest-limit',
      '1',
      '--qf',
      '%{name} %{epoch} %{version} %{release} %{arch}',
      '--',
      'zsh',
    ])
  })

  it('keeps the newest version of each name across architectures, and nothing for a name with none', () => {
    const sample = 'zsh 0 5.8 9.el9 x86_64\nzsh 0 5.8 10.el9 i686\nnginx 1 1.24.0 1.el9 x86_64\n'
    const got = right(RpmQuery.parseAvailable(['zsh', 'nginx', 'nothing'], exitOf(sample)))
    expect(got.get('zsh')).toEqual(nevra('zsh-5.8-10.el9.i686'))
    expect(got.get('nginx')).toEqual(nevra('nginx-1:1.24.0-1.el9.x86_64'))
    expect(got.has('nothing')).toBe(false)
  })

  it('refuses a failed dnf, a stray package and a malformed line', () => {
    expect(refusal(RpmQuery.parseAvailable(['zsh'], exitOf('', { exitCode: 1, stderr: 'Error: Failed to download metadata for repo\n' })))).toBe(
      'dnf repoquery "Error: Failed to download metadata for repo": failed with exit status 1',
    )
    expect(refusal(RpmQuery.parseAvailable(['zsh'], exitOf('vim 0 9.0 1 x86_64\n')))).toBe('dnf repoquery output "vim": is a package that was not asked for')
    expect(refusal(RpmQuery.parseAvailable(['zsh'], exitOf('zsh 0 5.8\n')))).toBe('dnf repoquery output "zsh 0 5.8": has 3 space-separated fields, not 5')
  })
})
