// AptPolicy: `apt-cache policy` for many packages, run with the real apt-cache on this machine and
// on a temporary root with a local `file:` repository (its lists fetched by the real apt-get).
import * as E from 'fp-ts/lib/Either.js'
import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as AptPolicy from '../../../src/types/package/AptPolicy.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import { aptRoot, run } from './run.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const exitOf = (stdout: string, more: Partial<Exit> = {}): Exit => ({ exitCode: 0, signal: undefined, stdout, stderr: '', durationMs: 1, ...more })
const policies = (exit: Exit) => {
  const r = AptPolicy.parse(exit)
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const refusal = (exit: Exit): string => {
  const r = AptPolicy.parse(exit)
  return E.isLeft(r) ? Invalid.message(r.left) : 'accepted'
}

describe('AptPolicy.query', () => {
  it('is one apt-cache policy for every name, after --, in the C locale', () => {
    expect(AptPolicy.query(['zsh', 'vim'], undefined, 5000)).toEqual({ argv: ['apt-cache', 'policy', '--', 'zsh', 'vim'], environment: ['LC_ALL=C'], timeoutMs: 5000 })
  })
})

describe('AptPolicy.parse, on the real apt-cache', () => {
  it("reads this machine's policy for an installed package and skips names apt does not know", () => {
    const installed = run({ argv: ['dpkg-query', '-W', '-f=${Version}', 'dpkg'], environment: ['LC_ALL=C'], timeoutMs: 10000 }).stdout
    const exit = run(AptPolicy.query(['dpkg', 'plait-no-such-package'], undefined, 30000))
    const got = policies(exit)
    expect([...got.keys()]).toEqual(['dpkg'])
    expect(AptPolicy.lookup(got, 'dpkg', undefined)).toEqual({ installed, candidate: expect.any(String) })
    expect(AptPolicy.lookup(got, 'plait-no-such-package', undefined)).toBeUndefined()
  })

  it('reads installed and candidate versions below a root with a local repository, and never answers a name with a regex match', () => {
    const { target, home } = aptRoot(
      [
        { name: 'plait-a', status: 'install ok installed', version: '1.0-1', arch: 'all' },
        { name: 'plait-gone', status: 'deinstall ok config-files', version: '0.5', arch: 'all' },
      ],
      [
        { name: 'plait-a', version: '1.0-1' },
        { name: 'plait-a', version: '1.1-1' },
        { name: 'plait-b', version: '2:0.1~rc1' },
      ],
    )
    dirs.push(target.root.path, home)
    const names: [string, ...string[]] = ['plait-a', 'plait-b', 'plait-gone', 'plait-nothing', 'plait-.']
    const got = policies(run(AptPolicy.query(names, target, 30000)))
    expect(AptPolicy.lookup(got, 'plait-a', undefined)).toEqual({ installed: '1.0-1', candidate: '1.1-1' })
    expect(AptPolicy.lookup(got, 'plait-b', undefined)).toEqual({ installed: undefined, candidate: '2:0.1~rc1' })
    expect(AptPolicy.lookup(got, 'plait-gone', undefined)).toEqual({ installed: undefined, candidate: undefined })
    expect(AptPolicy.lookup(got, 'plait-nothing', undefined)).toBeUndefined()
    // apt-cache answered "plait-." with the packages that regular expression matches: not an answer for it
    expect(AptPolicy.lookup(got, 'plait-.', undefined)).toBeUndefined()
  }, 60000)
})

describe('AptPolicy.parse, on fixed samples', () => {
  // the spec's example, verbatim
  const zsh = 'zsh:\n  Installed: 5.9-8+b18\n  Candidate: 5.9-8+b18\n  Version table:\n *** 5.9-8+b18 500\n        500 http://deb.debian.org/debian trixie/main amd64 Packages\n        100 /var/lib/dpkg/status\n'

  it("reads the spec's example", () => {
    expect(policies(exitOf(zsh))).toEqual(new Map([['zsh', { installed: '5.9-8+b18', candidate: '5.9-8+b18' }]]))
  })

  it('reads a foreign architecture and a pin line, and answers pkg:ARCH of the native architecture from pkg', () => {
    const text = 'libc6:i386:\n  Installed: (none)\n  Candidate: 2.36-9\n  Package pin: 2.36-9\n  Version table:\n     2.36-9 500\nlibc6:\n  Installed: 2.36-9\n  Candidate: 2.36-9\n  Version table:\n'
    const got = policies(exitOf(text))
    expect(AptPolicy.lookup(got, 'libc6:i386', 'amd64')).toEqual({ installed: undefined, candidate: '2.36-9' })
    expect(AptPolicy.lookup(got, 'libc6:amd64', 'amd64')).toEqual({ installed: '2.36-9', candidate: '2.36-9' })
    expect(AptPolicy.lookup(got, 'libc6:amd64', undefined)).toBeUndefined()
    expect(AptPolicy.lookup(got, 'libc6:arm64', 'amd64')).toBeUndefined()
  })

  it('refuses output it does not recognise', () => {
    expect(refusal(exitOf('zsh:\n  Installed: 5.9\n'))).toBe('apt-cache policy output "zsh": has a section without an Installed: and a Candidate: line')
    expect(refusal(exitOf('zsh:\n  Installed: 5.9\n  Candidate: 5.9;id\n'))).toBe('apt-cache policy output "  Candidate: 5.9;id": has a malformed candidate version')
    expect(refusal(exitOf('zsh:\n  Installed: 5.9\n  Installed: 6\n  Candidate: 5.9\n'))).toBe('apt-cache policy output "  Installed: 6": repeats Installed:')
    expect(refusal(exitOf('  Installed: 5.9\n'))).toBe('apt-cache policy output "  Installed: 5.9": comes before any "package:" header')
    expect(refusal(exitOf('zsh\n'))).toBe('apt-cache policy output "zsh": is not a "package:" header')
    expect(refusal(exitOf('-x:\n'))).toBe('apt-cache policy output "-x:": is not a "package:" header')
    expect(refusal(exitOf('zsh:\n  Installiert: 5.9\n'))).toBe('apt-cache policy output "  Installiert: 5.9": is not a line of a policy section')
    expect(refusal(exitOf(zsh + zsh.replaceAll('5.9-8+b18', '5.9-9')))).toBe('apt-cache policy output "zsh": is a package shown twice with different versions')
    expect(policies(exitOf(zsh + zsh)).size).toBe(1)
  })

  it('refuses a failed apt-cache with its error line', () => {
    expect(refusal(exitOf('', { exitCode: 100, stderr: 'W: something\nE: Could not open lock file\n' }))).toBe('apt-cache policy "E: Could not open lock file": failed with exit status 100')
    expect(refusal(exitOf('', { exitCode: undefined, signal: 'SIGTERM' }))).toBe('apt-cache policy "": ended by signal SIGTERM')
  })
})
