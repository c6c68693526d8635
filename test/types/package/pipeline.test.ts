// The package type through the unchanged stages, in process: compile, observe (its requests
// answered by the memory package manager: one status query for all packages), plan, the plan file
// (its codec, its JSON schema, and the step checks that refuse an edited name or version), the
// renderer, then the staleness check, the step family and verification against the same double.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Render from '../../../src/cli/render.js'
import { compile } from '../../../src/compiler/compile.js'
import * as Planner from '../../../src/compiler/plan.js'
import * as Diagnostic from '../../../src/core/Diagnostic.js'
import * as Plan from '../../../src/core/Plan.js'
import * as Families from '../../../src/interpreters/families.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import * as Packages from '../../../src/interpreters/packages/memory.js'
import * as PackageSteps from '../../../src/interpreters/packages/steps.js'
import * as Snapshot from '../../../src/interpreters/Snapshot.js'
import { observeWith } from '../../../src/observe/observe.js'
import { run } from '../../../src/observe/run.js'
import * as PlanFile from '../../../src/planfile/PlanFile.js'
import { pkg } from '../../../src/types/package/index.js'
import { PackageResourcePlan } from '../../../src/types/package/ResourcePlan.js'
import * as Registry from '../../../src/types/registry.js'
import { hostFiles } from '../../support/run.js'

const manifest = `ccm:
  resources:
    - package:
        - hello:
            ensure: latest
        - vim: {}
        - telnet:
            ensure: absent
        - curl:
            ensure: "7.88.1-10"
        - zsh:
            ensure: latest
`

const fleet = (): Packages.MemoryManager =>
  Packages.make({
    hello: { available: ['2.10-3', '2.10-2'] },
    vim: { installed: '9.0.1378-2', available: ['9.0.1378-2'] },
    telnet: { installed: '0.17-44', available: ['0.17-44'] },
    curl: { installed: '7.88.1-10+deb12u5', available: ['7.88.1-10', '7.88.1-10+deb12u5'] },
    zsh: { installed: '5.9-4', available: ['5.9-4', '5.9-8'] },
  })

const machine = () => {
  const snap = Snapshot.make({ '/etc': Snapshot.directory() })
  if (E.isLeft(snap)) throw new Error(snap.left)
  return Memory.make(snap.right)
}

const planWith = async (packages: Packages.MemoryManager, text = manifest) => {
  const m = machine()
  const catalog = compile('m.yaml', text, '/', {})
  if (E.isLeft(catalog)) throw new Error(catalog.left.map(Diagnostic.render).join('\n'))
  const accounts = await m.accounts()()
  if (E.isLeft(accounts)) throw new Error('accounts')
  const families = Families.requests({ machine: m, readHost: hostFiles({}), packages: () => packages })
  const obs = await observeWith(catalog.right, families, accounts.right, new Map())
  return { families, plan: E.chain((o: Parameters<typeof Planner.plan>[1]) => E.map(PlanFile.seal)(Planner.plan(catalog.right, o, { version: 'test', root: '/' })))(obs) }
}

/** The plan's resources as the package plans they all are (the test fails on any other). */
const packagePlans = (p: Plan.Body): ReadonlyArray<PackageResourcePlan> =>
  p.resources.map((r) => {
    if (!PackageResourcePlan.is(r)) throw new Error(`expected a package resource plan, got ${JSON.stringify(r)}`)
    return r
  })

describe('package resources in a plan', () => {
  it('are observed with one status query, planned with the versions they name, and read back from the plan file', async () => {
    const packages = fleet()
    const { plan } = await planWith(packages)
    if (E.isLeft(plan)) throw new Error(plan.left.map(Diagnostic.render).join('\n'))
    expect(packages.calls()).toEqual(['status hello vim telnet curl zsh'])
    expect(plan.right.resources.map((r) => [r.id, r.action, r.steps.map((s) => s._tag)])).toEqual([
      ['package#hello', 'create', ['package.install']],
      ['package#vim', 'none', []],
      ['package#telnet', 'delete', ['package.remove']],
      ['package#curl', 'update', ['package.downgrade']],
      ['package#zsh', 'update', ['package.upgrade']],
    ])
    const text = Render.plan(plan.right)
    expect(text).toContain('+ package#hello\n    was: not installed, 2.10-3 available\n    install hello 2.10-3: not installed, ensure is latest; the newest available is 2.10-3')
    expect(text).toContain('- package#telnet\n    was: installed at 0.17-44, 0.17-44 available\n    remove telnet 0.17-44: installed at 0.17-44, ensure is absent')
    expect(text).toContain('~ package#curl\n    was: installed at 7.88.1-10+deb12u5, 7.88.1-10+deb12u5 available\n    downgrade curl 7.88.1-10+deb12u5 → 7.88.1-10: installed at 7.88.1-10+deb12u5, newer than 7.88.1-10')
    expect(text).toContain('~ package#zsh\n    was: installed at 5.9-4, 5.9-8 available\n    upgrade zsh 5.9-4 → 5.9-8: installed at 5.9-4, the newest available is 5.9-8')
    const read = PlanFile.parse('plan.json', PlanFile.serialize(plan.right))
    expect(E.isRight(read) && read.right).toEqual(plan.right)
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(new URL('../../../docs/schema/plan.schema.json', import.meta.url), 'utf8')) as object)
    expect(validate(JSON.parse(PlanFile.serialize(plan.right))), JSON.stringify(validate.errors)).toBe(true)
  })

  it('runs its steps with the package manager, verifies each, and then plans nothing', async () => {
    const packages = fleet()
    const { families, plan } = await planWith(packages)
    if (E.isLeft(plan)) throw new Error('plan')
    const steps = PackageSteps.family(() => packages)
    for (const r of packagePlans(plan.right)) {
      expect(await run(pkg.check(r, { users: new Map(), groups: new Map() } as never, Plan.sameDigest), families)).toEqual({})
      for (const s of r.steps) {
        expect(await steps.prepare(s, '')).toMatchObject({ right: { _tag: 'Irreversible' } })
        expect(await steps.run(s, { id: r.id, now: undefined, output: [] })).toEqual(E.right(undefined))
      }
      expect(await run(pkg.verify(r), families), r.id).toEqual([])
    }
    expect(packages.calls().filter((c) => !c.startsWith('status'))).toEqual(['install hello=2.10-3', 'remove telnet', 'install curl=7.88.1-10', 'install zsh=5.9-8'])
    expect(packages.packages()).toMatchObject({ hello: { installed: '2.10-3' }, telnet: { available: ['0.17-44'] }, curl: { installed: '7.88.1-10' }, zsh: { installed: '5.9-8' } })
    expect(packages.packages()['telnet']?.installed).toBeUndefined()
    const again = await planWith(packages)
    expect(E.isRight(again.plan) && Registry.isEmpty(again.plan.right)).toBe(true)
  })

  it('finds a plan stale when the candidate of ensure latest or the installed version moved, and not when only an unused candidate did', async () => {
    const packages = fleet()
    const { plan } = await planWith(packages)
    if (E.isLeft(plan)) throw new Error('plan')
    const later = Packages.make({ ...packages.packages(), zsh: { installed: '5.9-4', available: ['5.9-4', '5.9-8', '5.9-9'] }, vim: { installed: '9.0.1378-2', available: ['9.0.1378-2', '9.1-1'] }, telnet: { available: ['0.17-44'] } })
    const families = Families.requests({ machine: machine(), packages: () => later })
    const drift = await Promise.all(packagePlans(plan.right).map(async (r) => [r.id, (await run(pkg.check(r, undefined as never, Plan.sameDigest), families)).drift]))
    expect(drift).toEqual([
      ['package#hello', undefined],
      ['package#vim', undefined],
      ['package#telnet', 'was installed at 0.17-44, 0.17-44 available, now not installed, 0.17-44 available'],
      ['package#curl', undefined],
      ['package#zsh', 'was installed at 5.9-4, 5.9-8 available, now installed at 5.9-4, 5.9-9 available'],
    ])
  })

  it('fails verification when the package manager did not reach the desired state', async () => {
    const packages = fleet()
    const { families, plan } = await planWith(packages)
    if (E.isLeft(plan)) throw new Error('plan')
    const byId = (id: string) => packagePlans(plan.right).find((r) => r.id === id)!
    expect(await run(pkg.verify(byId('package#hello')), families)).toEqual(['package hello is not installed, not installed'])
    expect(await run(pkg.verify(byId('package#telnet')), families)).toEqual(['package telnet is installed at 0.17-44, not absent'])
    expect(await run(pkg.verify(byId('package#curl')), families)).toEqual(['package curl is installed at 7.88.1-10+deb12u5, not at 7.88.1-10'])
    await PackageSteps.family(() => packages).run({ ...byId('package#zsh').steps[0]!, to: '5.9-4' } as Plan.Step, { id: 'package#zsh', now: undefined, output: [] })
    expect(await run(pkg.verify(byId('package#zsh')), families)).toEqual(['package zsh is installed at 5.9-4, older than 5.9-8, the newest available at plan time'])
  })

  it('refuses a plan file whose package step names a package or version no manifest could', async () => {
    const { plan } = await planWith(fleet())
    if (E.isLeft(plan)) throw new Error('plan')
    const { hash: _hash, ...body } = plan.right
    const edit = (id: string, change: Record<string, string>) => {
      const edited = { ...body, resources: plan.right.resources.map((r) => (r.id === id ? { ...r, steps: r.steps.map((s) => ({ ...s, ...change })) } : r)) }
      const read = PlanFile.parse('plan.json', PlanFile.serialize(PlanFile.seal(edited)))
      return E.isLeft(read) ? Diagnostic.render(read.left) : 'accepted'
    }
    expect(edit('package#hello', { name: '-ohello' })).toMatch(/package name "-ohello": starts with "-"/)
    expect(edit('package#hello', { name: 'hello world' })).toMatch(/package name "hello world": contains U\+0020/)
    expect(edit('package#zsh', { to: '5.9;reboot' })).toMatch(/package version "5\.9;reboot": contains ";"/)
    expect(edit('package#curl', { to: '1.0-' })).toMatch(/1\.0-/)
  })

  it('fails every package with one diagnostic when no package manager is suitable', async () => {
    const { plan } = await planWith(Packages.make({}, { suitable: false }))
    expect(E.isLeft(plan) && plan.left.map((d) => [d.resource, d.message])).toEqual([
      ['package#hello', 'no suitable package provider: apt needs apt-get, apt-cache and dpkg-query, dnf needs dnf and rpm, and neither was found'],
    ])
  })
})
