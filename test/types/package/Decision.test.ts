// Decision: the spec's decision table and noop messages, for apt's and dnf's version orders, and
// the law that the state an action leaves plans nothing next time.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as DebianVersion from '../../../src/types/package/DebianVersion.js'
import * as D from '../../../src/types/package/Decision.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as RpmVersion from '../../../src/types/package/RpmVersion.js'
import { debianVersion, rpmEvr } from './arbitraries.js'

const deb: D.Compare = DebianVersion.compareText
const rpm: D.Compare = RpmVersion.compareWantedText
const seen = (version: string): D.Candidate => ({ _tag: 'Candidate', version })
const none: D.Candidate = { _tag: 'NoCandidate' }
const unobserved: D.Candidate = { _tag: 'Unobserved' }
const version = (v: string): D.Ensure => ({ _tag: 'Version', version: v })
const decide = (ensure: D.Ensure, now: D.Installed, candidate: D.Candidate, compare: D.Compare = deb): D.Action => {
  const r = D.decide(ensure, now, candidate, compare)
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}

describe('Decision.decide: the spec decision table', () => {
  it.each<[string, D.Ensure, D.Installed, D.Candidate, Partial<D.Action>]>([
    ['present, installed: nothing', D.present, D.installed('1.0-1'), unobserved, { _tag: 'Nothing', reason: 'installed at 1.0-1' }],
    ['present, absent: install', D.present, D.notInstalled, unobserved, { _tag: 'Install', to: undefined, seen: undefined, reason: 'not installed', noop: 'Would have installed latest' }],
    ['absent, absent: nothing', D.absent, D.notInstalled, unobserved, { _tag: 'Nothing', reason: 'not installed' }],
    ['absent, installed: uninstall', D.absent, D.installed('1.0-1'), unobserved, { _tag: 'Remove', from: '1.0-1', reason: 'installed at 1.0-1, ensure is absent', noop: 'Would have uninstalled' }],
    ['latest, absent: install latest', D.latest, D.notInstalled, seen('1.1-1'), { _tag: 'Install', to: '1.1-1', seen: '1.1-1', reason: 'not installed, ensure is latest; the newest available is 1.1-1', noop: 'Would have installed latest' }],
    ['latest, older installed: upgrade', D.latest, D.installed('1.0-1'), seen('1.1-1'), { _tag: 'Upgrade', from: '1.0-1', to: '1.1-1', reason: 'installed at 1.0-1, the newest available is 1.1-1', noop: 'Would have upgraded to latest' }],
    ['latest, candidate installed: nothing', D.latest, D.installed('1.1-1'), seen('1.1-1'), { _tag: 'Nothing', reason: 'installed at 1.1-1, the newest available is 1.1-1' }],
    ['latest, newer than the candidate installed: nothing', D.latest, D.installed('1.2-1'), seen('1.1-1'), { _tag: 'Nothing' }],
    ['latest, installed, no candidate seen: upgrade always runs', D.latest, D.installed('1.0-1'), unobserved, { _tag: 'Upgrade', from: '1.0-1', to: undefined, reason: 'installed at 1.0-1; the newest available version could not be observed, so the package manager decides', noop: 'Would have upgraded to latest' }],
    ['latest, installed, nothing available: nothing', D.latest, D.installed('1.0-1'), none, { _tag: 'Nothing', reason: 'installed at 1.0-1; no version is available to upgrade to' }],
    ['latest, absent, nothing available: install, and say it will fail', D.latest, D.notInstalled, none, { _tag: 'Install', to: undefined, reason: 'not installed, ensure is latest; no version is available, so installing will fail' }],
    ['version, same: nothing', version('1.0-1'), D.installed('1.0-1'), unobserved, { _tag: 'Nothing', reason: 'installed at 1.0-1' }],
    ['version, equivalent spelling: nothing', version('0:1.00-1'), D.installed('1.0-1'), unobserved, { _tag: 'Nothing' }],
    ['version, older installed: upgrade', version('1.0-2'), D.installed('1.0-1'), unobserved, { _tag: 'Upgrade', from: '1.0-1', to: '1.0-2', reason: 'installed at 1.0-1, older than 1.0-2', noop: 'Would have upgraded to 1.0-2' }],
    ['version, newer installed: downgrade', version('1.0~rc1-1'), D.installed('1.0-1'), unobserved, { _tag: 'Downgrade', from: '1.0-1', to: '1.0~rc1-1', reason: 'installed at 1.0-1, newer than 1.0~rc1-1', noop: 'Would have downgraded to 1.0~rc1-1' }],
    ['version, absent: install', version('2.10-3'), D.notInstalled, seen('2.11-1'), { _tag: 'Install', to: '2.10-3', reason: 'not installed, ensure is 2.10-3', noop: 'Would have installed version 2.10-3' }],
  ])('%s', (_, ensure, now, candidate, expected) => {
    expect(decide(ensure, now, candidate)).toMatchObject(expected)
  })

  it("compares with the provider's order: dnf meets a version without a release by any release of it", () => {
    expect(decide(version('5.8'), D.installed('5.8-9.el9'), unobserved, rpm)._tag).toBe('Nothing')
    expect(decide(version('5.8-10.el9'), D.installed('5.8-9.el9'), unobserved, rpm)._tag).toBe('Upgrade')
    expect(decide(version('1.01'), D.installed('1.1-1'), unobserved, rpm)._tag).toBe('Nothing')
    // apt's order asks for exactly that version: 5.8 is older than 5.8-9
    expect(decide(version('5.8'), D.installed('5.8-9'), unobserved, deb)._tag).toBe('Downgrade')
  })

  it('refuses a malformed installed or candidate version instead of guessing', () => {
    const r = D.decide(D.latest, D.installed('1.0-1'), seen('x;y'), deb)
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe('Debian version "x;y": has an upstream version that does not start with a digit')
    expect(E.isLeft(D.decide(version('1.0'), D.installed('garbage'), unobserved, deb))).toBe(true)
  })
})

describe('Decision.ensureOf', () => {
  it('reads the three words and a version the provider accepts', () => {
    expect(D.ensureOf('present', DebianVersion.parse)).toEqual(E.right(D.present))
    expect(D.ensureOf('absent', DebianVersion.parse)).toEqual(E.right(D.absent))
    expect(D.ensureOf('latest', DebianVersion.parse)).toEqual(E.right(D.latest))
    expect(D.ensureOf('1.24.0-1.el9', RpmVersion.parse)).toEqual(E.right(version('1.24.0-1.el9')))
  })

  it.each([
    ['1.0;reboot', DebianVersion.parse, 'package version "1.0;reboot": contains ";", which is not allowed: only letters, digits and . _ + : ~ ^ - are'],
    ['-1', DebianVersion.parse, 'package version "-1": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)'],
    ['Latest', DebianVersion.parse, 'Debian version "Latest": has an upstream version that does not start with a digit'],
    ['1.0_1', DebianVersion.parse, 'Debian version "1.0_1": has "_" in its upstream version, which allows only letters, digits and . + ~ -'],
    ['1.0-', RpmVersion.parse, 'rpm version "1.0-": has an empty release after the last "-"'],
  ])('refuses %j with a clear message', (text, parse, message) => {
    const r = D.ensureOf(text, parse)
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe(message)
  })
})

describe('Decision.isDesired and summary', () => {
  it("checks the spec's desired state", () => {
    expect(D.isDesired(D.present, D.installed('1'), deb)).toEqual(E.right(true))
    expect(D.isDesired(D.latest, D.notInstalled, deb)).toEqual(E.right(false))
    expect(D.isDesired(D.absent, D.installed('1'), deb)).toEqual(E.right(false))
    expect(D.isDesired(version('1.0'), D.installed('1.00'), deb)).toEqual(E.right(true))
    expect(D.isDesired(version('1.0'), D.installed('1.1'), deb)).toEqual(E.right(false))
  })

  it('names the versions in the plan', () => {
    expect(D.summary('hello', decide(version('2.10-3'), D.notInstalled, unobserved))).toBe('install hello 2.10-3')
    expect(D.summary('hello', decide(D.present, D.notInstalled, seen('2.10-3')))).toBe('install hello (2.10-3 at plan time)')
    expect(D.summary('hello', decide(D.present, D.notInstalled, unobserved))).toBe('install hello')
    expect(D.summary('hello', decide(D.latest, D.installed('1.0-1'), seen('1.0-2')))).toBe('upgrade hello 1.0-1 → 1.0-2')
    expect(D.summary('hello', decide(D.latest, D.installed('1.0-1'), unobserved))).toBe('upgrade hello 1.0-1 → latest')
    expect(D.summary('hello', decide(version('1.0-1'), D.installed('1.0-2'), unobserved))).toBe('downgrade hello 1.0-2 → 1.0-1')
    expect(D.summary('hello', decide(D.absent, D.installed('1.0-1'), unobserved))).toBe('remove hello 1.0-1')
    expect(D.summary('hello', decide(D.absent, D.notInstalled, unobserved))).toBe('nothing to do for hello')
  })
})

/** The state an action leaves, as the package manager would: it installs `to`, or its candidate. */
const effect = (a: D.Action, now: D.Installed, candidate: D.Candidate, release: (v: string) => string, fallback: string): D.Installed => {
  switch (a._tag) {
    case 'Nothing':
      return now
    case 'Remove':
      return D.notInstalled
    case 'Install':
    case 'Upgrade':
      return D.installed(a.to !== undefined ? release(a.to) : candidate._tag === 'Candidate' ? candidate.version : fallback)
    case 'Downgrade':
      return D.installed(release(a.to))
  }
}

describe('Decision: the law of idempotence', () => {
  const providers = [
    // apt installs exactly the version asked for
    { name: 'apt', compare: deb, version: debianVersion, release: (v: string) => v },
    // dnf installs some release of a version asked for without one
    { name: 'dnf', compare: rpm, version: rpmEvr, release: (v: string) => (v.includes('-') ? v : `${v}-7.el9`) },
  ]
  for (const p of providers) {
    it(`the state the chosen action leaves plans nothing next time (${p.name})`, () => {
      const ensure = fc.oneof(fc.constant(D.present), fc.constant(D.absent), fc.constant(D.latest), p.version.map(version))
      const now = fc.oneof(fc.constant(D.notInstalled), p.version.map(D.installed))
      const candidate = fc.oneof(fc.constant(none), fc.constant(unobserved), p.version.map(seen))
      let changed = 0
      fc.assert(
        fc.property(ensure, now, candidate, p.version, (e, n, c, fallback) => {
          // the spec's exceptions: with no candidate seen, latest always upgrades; with none available, installing fails
          fc.pre(!(e._tag === 'Latest' && c._tag === 'Unobserved'))
          const a = decide(e, n, c, p.compare)
          fc.pre(!(a._tag === 'Install' && a.to === undefined && c._tag === 'NoCandidate'))
          if (a._tag !== 'Nothing') changed += 1
          const after = effect(a, n, c, p.release, fallback)
          expect(decide(e, after, c, p.compare)._tag).toBe('Nothing')
          expect(D.isDesired(e, after, p.compare)).toEqual(E.right(true))
        }),
        { numRuns: 500 },
      )
      // the law was exercised: most runs chose an action
      expect(changed).toBeGreaterThan(150)
    })
  }
})
