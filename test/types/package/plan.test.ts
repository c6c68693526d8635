// The package type's plan, its steps and verification (pure), with the memory package manager as
// the machine: the laws (a plan's step reaches the desired state, verification agrees and the next
// plan is empty; every planned step survives the plan file and its checks; the staleness digest
// reads the candidate only for ensure latest), and the spec's decision table as examples.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Packages from '../../../src/interpreters/packages/memory.js'
import * as PackageSteps from '../../../src/interpreters/packages/steps.js'
import * as Observed from '../../../src/types/package/Observed.js'
import * as PackagePlan from '../../../src/types/package/plan.js'
import type { PackageSpec } from '../../../src/types/package/Spec.js'
import * as Step from '../../../src/types/package/Step.js'
import { debianVersion } from './arbitraries.js'

const spec = (ensure: string): PackageSpec => ({ _tag: 'package', id: 'package#hello', name: 'hello', at: { file: 'm.yaml', line: 4, col: 11 }, ensure, provider: 'apt' })
const planned = (ensure: string, o: Observed.Observed) => {
  const r = PackagePlan.plan(spec(ensure), o)
  if (E.isLeft(r)) throw new Error(r.left)
  return r.right
}

/** A machine: the versions offered (at least one) and what is installed (maybe one of them, maybe another). */
const machine = fc
  .record({ available: fc.uniqueArray(debianVersion, { minLength: 1, maxLength: 4 }), other: debianVersion, which: fc.nat(5) })
  .map(({ available, other, which }) => ({ available, installed: which === 4 ? undefined : which === 5 ? other : available[which % available.length] }))

const ensureFor = (available: ReadonlyArray<string>) => fc.oneof(fc.constantFrom('present', 'absent', 'latest'), fc.constantFrom(...available))

describe('package plans', () => {
  fcTest.prop([machine.chain((m) => fc.tuple(fc.constant(m), ensureFor(m.available)))])('reach the desired state with their one step, verify, and plan nothing after', async ([m, ensure]) => {
    const packages = Packages.make({ hello: m.installed === undefined ? { available: m.available } : { installed: m.installed, available: m.available } })
    const observe = async () => {
      const s = await packages.status(['hello'])
      if (E.isLeft(s)) throw new Error('status')
      return s.right[0]!
    }
    const r = planned(ensure, await observe())
    expect(r.steps.length).toBeLessThanOrEqual(1)
    const steps = PackageSteps.family(() => packages)
    for (const s of r.steps) expect(await steps.run(s, { id: r.id, now: undefined, output: [] })).toEqual(E.right(undefined))
    expect(PackagePlan.verify('hello', r.desired, await observe(), r.steps[0]?.to)).toEqual([])
    expect(planned(ensure, await observe()).steps).toEqual([])
  })

  fcTest.prop([machine.chain((m) => fc.tuple(fc.constant(m), ensureFor(m.available)))])('make steps the plan file keeps and its checks accept', ([m, ensure]) => {
    const candidate = m.available[m.available.length - 1]
    const r = planned(ensure, Observed.of(m.installed, candidate))
    for (const s of r.steps) {
      expect(E.isRight(Step.PackageStep.decode(JSON.parse(JSON.stringify(s))))).toBe(true)
      expect(Step.problem(s)).toBeUndefined()
    }
  })

  fcTest.prop([fc.option(debianVersion, { nil: undefined }), debianVersion, debianVersion, fc.constantFrom('present', 'absent', '1.0-1')])(
    'are stale on a moved candidate only for ensure latest',
    (installed, a, b, ensure) => {
      expect(Observed.digest(Observed.of(installed, a), ensure)).toBe(Observed.digest(Observed.of(installed, b), ensure))
      expect(Observed.digest(Observed.of(installed, a), 'latest') === Observed.digest(Observed.of(installed, b), 'latest')).toBe(a === b)
    },
  )

  it('name the versions, as the spec\'s table decides', () => {
    const line = (ensure: string, o: Observed.Observed) => planned(ensure, o).steps.map((s) => `${Step.describe(s)}: ${s.reason} [${s.noop}]`)
    expect(line('present', Observed.of(undefined, '2.10-3'))).toEqual(['install hello (2.10-3 at plan time): not installed; the newest available is 2.10-3 [Would have installed latest]'])
    expect(line('present', Observed.of('2.10-2', '2.10-3'))).toEqual([])
    expect(line('latest', Observed.of(undefined, '2.10-3'))).toEqual(['install hello 2.10-3: not installed, ensure is latest; the newest available is 2.10-3 [Would have installed latest]'])
    expect(line('latest', Observed.of('1.0-1', '1.0-2'))).toEqual(['upgrade hello 1.0-1 → 1.0-2: installed at 1.0-1, the newest available is 1.0-2 [Would have upgraded to latest]'])
    expect(line('latest', Observed.of('1.0-2', '1.0-2'))).toEqual([])
    expect(line('latest', Observed.of('1.0-2', undefined))).toEqual([])
    expect(line('1.0-1', Observed.of('1.0-2', '1.0-2'))).toEqual(['downgrade hello 1.0-2 → 1.0-1: installed at 1.0-2, newer than 1.0-1 [Would have downgraded to 1.0-1]'])
    expect(line('1.0-3', Observed.of('1.0-2', '1.0-2'))).toEqual(['upgrade hello 1.0-2 → 1.0-3: installed at 1.0-2, older than 1.0-3 [Would have upgraded to 1.0-3]'])
    expect(line('1.0-3', Observed.of(undefined, '1.0-2'))).toEqual(['install hello 1.0-3: not installed, ensure is 1.0-3 [Would have installed version 1.0-3]'])
    expect(line('absent', Observed.of('1.0-2', '1.0-2'))).toEqual(['remove hello 1.0-2: installed at 1.0-2, ensure is absent [Would have uninstalled]'])
    expect(line('absent', Observed.of(undefined, '1.0-2'))).toEqual([])
    expect(planned('absent', Observed.of('1.0-2', undefined)).action).toBe('delete')
    expect(planned('latest', Observed.of(undefined, '1')).action).toBe('create')
  })

  it('summarise what was observed, dpkg states other than installed included', () => {
    expect(Observed.summary(Observed.of('1.0-1', '1.1-1'))).toBe('installed at 1.0-1, 1.1-1 available')
    expect(Observed.summary(Observed.ofApt({ _tag: 'Absent', state: 'config-files', version: '1.0-1' }, { installed: undefined, candidate: undefined }))).toBe('not installed (config-files), no version available')
    expect(Observed.summary(Observed.ofApt({ _tag: 'Absent', state: undefined, version: '' }, undefined))).toBe('not installed, no version available')
  })

  it('refuse a step no manifest could make', () => {
    const base = { name: 'hello', reason: 'r', noop: 'n' }
    expect(Step.problem({ _tag: 'package.install', ...base, name: 'Hello' })).toMatch(/^apt package name "Hello"/)
    expect(Step.problem({ _tag: 'package.upgrade', ...base, from: '1.0', to: '$(id)' })).toMatch(/^package version "\$\(id\)": contains "\$"/)
    expect(Step.problem({ _tag: 'package.downgrade', ...base, from: '2', to: '1' })).toBe('a downgrade must name the exact version it goes to')
    expect(Step.problem({ _tag: 'package.install', ...base, to: 'abc' })).toBe('Debian version "abc": has an upstream version that does not start with a digit')
    // a dnf step is held to rpm's rules: rpm names and versions, none of apt's
    expect(Step.problem({ _tag: 'package.install', ...base, name: 'NetworkManager', to: 'abc-1', provider: 'dnf' })).toBeUndefined()
    expect(Step.problem({ _tag: 'package.install', ...base, name: 'libc6:amd64', provider: 'dnf' })).toMatch(/^rpm package name "libc6:amd64": has ":"/)
    expect(Step.problem({ _tag: 'package.install', ...base, to: '1.0-', provider: 'dnf' })).toMatch(/^rpm version "1.0-"/)
  })
})

describe('package plans over dnf', () => {
  const dnf = (ensure: string, o: Observed.Observed) => {
    const r = PackagePlan.plan({ ...spec(ensure), provider: 'dnf' }, o)
    if (E.isLeft(r)) throw new Error(r.left)
    return r.right
  }

  it("compare in rpm's order, name the versions, and carry the provider that answered in the step", () => {
    // rpm's order: 1.10 > 1.9 (numbers), and an alpha tag as rpm sorts it, not as Debian does
    expect(dnf('latest', Observed.of('1.9-1', '1.10-1', 'dnf')).steps).toEqual([
      { _tag: 'package.upgrade', name: 'hello', from: '1.9-1', to: '1.10-1', reason: 'installed at 1.9-1, the newest available is 1.10-1', noop: 'Would have upgraded to latest', provider: 'dnf' },
    ])
    expect(dnf('latest', Observed.of('1:1.0-1', '2.0-1', 'dnf')).steps).toEqual([])
    expect(dnf('1.0-1', Observed.of('2.0-1', '2.0-1', 'dnf')).steps.map(Step.describe)).toEqual(['downgrade hello 2.0-1 → 1.0-1'])
    expect(Step.operation(dnf('1.0-1', Observed.of('2.0-1', '2.0-1', 'dnf')).steps[0]!)).toEqual({ _tag: 'Install', name: 'hello', target: { _tag: 'Exact', version: '1.0-1' }, from: '2.0-1', provider: 'dnf' })
  })

  it('meet a version without a release with any release of it, as dnf does', () => {
    expect(dnf('5.8', Observed.of('5.8-9.el9', '5.8-9.el9', 'dnf')).steps).toEqual([])
    expect(PackagePlan.verify('hello', { ensure: '5.8', provider: 'dnf' }, Observed.of('5.8-9.el9', undefined, 'dnf'), undefined)).toEqual([])
    expect(dnf('5.9', Observed.of('5.8-9.el9', undefined, 'dnf')).steps.map(Step.describe)).toEqual(['upgrade hello 5.8-9.el9 → 5.9'])
  })

  it('refuse a name the provider that answered would not take', () => {
    const r = PackagePlan.plan({ ...spec('present'), name: 'libc6:amd64', provider: 'apt' }, Observed.of(undefined, '1.0-1', 'dnf'))
    expect(E.isLeft(r) && r.left).toMatch(/^rpm package name "libc6:amd64": has ":".* \(the dnf provider answered\)$/)
    expect(E.isRight(PackagePlan.plan({ ...spec('present'), provider: 'auto' }, Observed.of(undefined, '1.0-1', 'dnf')))).toBe(true)
  })
})
