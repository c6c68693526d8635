// The service type through the unchanged stages, in process: compile, observe (its requests
// answered by the memory service manager: one status query for all services), plan, the plan
// file (its codec, its JSON schema, and the step checks that refuse an edited unit name) and the
// renderer.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Render from '../../../src/cli/render.js'
import { compile } from '../../../src/compiler/compile.js'
import * as Planner from '../../../src/compiler/plan.js'
import * as Diagnostic from '../../../src/core/Diagnostic.js'
import * as Families from '../../../src/interpreters/families.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../../src/interpreters/Snapshot.js'
import * as Services from '../../../src/interpreters/services/memory.js'
import { observeWith } from '../../../src/observe/observe.js'
import * as PlanFile from '../../../src/planfile/PlanFile.js'
import * as Registry from '../../../src/types/registry.js'
import { hostFiles } from '../../support/run.js'

const manifest = `ccm:
  resources:
    - file:
        - /etc/web.conf:
            ensure: present
            content: "listen 80"
            owner: root
            group: root
            mode: "0644"
    - service:
        - web:
            enable: true
            subscribe: [file#/etc/web.conf]
        - db:
            ensure: stopped
        - "cron":
            subscribe: [file#/etc/web.conf]
`

const planWith = async (services: Services.MemoryManager) => {
  const snap = Snapshot.make({ '/etc': Snapshot.directory() })
  if (E.isLeft(snap)) throw new Error(snap.left)
  const machine = Memory.make(snap.right)
  const catalog = compile('m.yaml', manifest, '/', {})
  if (E.isLeft(catalog)) throw new Error(catalog.left.map(Diagnostic.render).join('\n'))
  const accounts = await machine.accounts()()
  if (E.isLeft(accounts)) throw new Error('accounts')
  const families = Families.requests({ machine, readHost: hostFiles({}), services: () => services })
  const obs = await observeWith(catalog.right, families, accounts.right, new Map())
  return E.chain((o: Parameters<typeof Planner.plan>[1]) => E.map(PlanFile.seal)(Planner.plan(catalog.right, o, { version: 'test', root: '/' })))(obs)
}

describe('service resources in a plan', () => {
  it('are observed with one status query, planned with their subscriptions, and read back from the plan file', async () => {
    const services = Services.make({ web: { active: 'active', unitFile: 'disabled' }, db: { active: 'active', unitFile: 'enabled' }, cron: { active: 'inactive', unitFile: 'static' } })
    const plan = await planWith(services)
    if (E.isLeft(plan)) throw new Error(plan.left.map(Diagnostic.render).join('\n'))
    expect(services.calls()).toEqual(['show web db cron'])
    expect(plan.right.resources.map((r) => [r.id, r.action, r.steps.map((s) => s._tag)])).toEqual([
      ['file#/etc/web.conf', 'create', ['file.write']],
      ['service#web', 'update', ['service.restart', 'service.enable']],
      ['service#db', 'update', ['service.stop']],
      ['service#cron', 'update', ['service.start']],
    ])
    const text = Render.plan(plan.right)
    expect(text).toContain('~ service#web\n    was: running (active), disabled at boot (disabled)\n    service.restart: refresh: file#/etc/web.conf changes (runs only if file#/etc/web.conf changes)\n    service.enable: it is disabled at boot (disabled)')
    const read = PlanFile.parse('plan.json', PlanFile.serialize(plan.right))
    expect(E.isRight(read) && read.right).toEqual(plan.right)
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(new URL('../../../docs/schema/plan.schema.json', import.meta.url), 'utf8')) as object)
    expect(validate(JSON.parse(PlanFile.serialize(plan.right))), JSON.stringify(validate.errors)).toBe(true)
    expect(Registry.isEmpty(plan.right)).toBe(false)
  })

  it('refuses a plan file whose service step names a unit no manifest could', async () => {
    const plan = await planWith(Services.make({ web: { active: 'inactive', unitFile: 'disabled' }, db: { active: 'inactive', unitFile: 'enabled' }, cron: { active: 'active', unitFile: 'static' } }))
    if (E.isLeft(plan)) throw new Error('plan')
    const { hash: _hash, ...body } = plan.right
    const edited = {
      ...body,
      resources: plan.right.resources.map((r) => (r.id === 'service#web' ? { ...r, steps: r.steps.map((s) => ({ ...s, name: 'web; reboot' })) } : r)),
    }
    const read = PlanFile.parse('plan.json', PlanFile.serialize(PlanFile.seal(edited)))
    expect(E.isLeft(read) && Diagnostic.render(read.left)).toMatch(/service name contains dangerous characters: "web; reboot"/)
  })

  it('fails every service with one diagnostic when systemd is not running', async () => {
    const plan = await planWith(Services.make({}, { running: false }))
    expect(E.isLeft(plan) && plan.left.map((d) => [d.resource, d.message])).toEqual([['service#web', 'no suitable provider: systemd is not running']])
  })
})
