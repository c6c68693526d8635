// A resource that cannot be planned (a guard that cannot start, an unknown user, a missing parent
// directory) fails alone, as CCM fails it and goes on: the rest is planned, the plan marks it
// failed with the reason, and apply fails it at its turn under the usual require and
// fail_on_error rules. A plan without one is what it always was.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Plan from '../../src/core/Plan.js'
import * as Apply from '../../src/executor/apply.js'
import * as MemoryRunner from '../../src/interpreters/commands/memory.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { observe } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import * as Render from '../../src/cli/render.js'
import * as Markdown from '../../src/cli/Markdown.js'
import * as Github from '../../src/cli/Github.js'
import { hostFiles } from '../support/run.js'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'

const schema = JSON.parse(readFileSync(new URL('../../docs/schema/plan.schema.json', import.meta.url), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)

const attrs = (owner = 'root') => `            owner: ${owner}\n            group: root\n            mode: "0644"\n`
const file = (path: string, extra = '', owner = 'root') => `    - file:\n        - ${path}:\n            content: "x"\n${attrs(owner)}${extra}`
const exec = (name: string, extra = '') => `    - exec:\n        - ${name}:\n            command: /bin/true\n${extra}`
const manifest = (body: string, failOnError = false) => `ccm:\n${failOnError ? '  fail_on_error: true\n' : ''}  resources:\n${body}`

const machine = () => {
  const s = Snapshot.make({ '/etc': Snapshot.directory() })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right)
}

/** /bin/true exits 0, /bin/false 1; anything else cannot start. */
const runner = () => MemoryRunner.make((line) => (line === '/bin/true' ? { exit: 0 } : line === '/bin/false' ? { exit: 1 } : undefined))

const planned = async (text: string, m = machine(), r = runner()) => {
  const c = compile('m.yaml', text, '/')
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const tolerant = await observe(c.right, m, hostFiles({}), undefined, r, true)
  const strictObs = await observe(c.right, m, hostFiles({}), undefined, r)
  if (E.isLeft(tolerant)) throw new Error(tolerant.left.map(Diagnostic.render).join('\n'))
  const all = Planner.planAll(c.right, tolerant.right, { version: 'test', root: m.root })
  const strict = E.isLeft(strictObs) ? strictObs : Planner.plan(c.right, strictObs.right, { version: 'test', root: m.root })
  return { all, strict, plan: PlanFile.seal(all.body), machine: m }
}

const three = manifest(
  exec('guarded', '            unless: /no/such/guard\n') + file('/etc/app/x.conf') + file('/etc/who', '', 'nosuchuser') + file('/etc/fine') + exec('after-fine', '            require: [file#/etc/fine]\n'),
)

describe('planAll', () => {
  it('plans everything else, and marks each resource that cannot be planned as failed with the reason', async () => {
    const { all } = await planned(three)
    const failed = Plan.failures(all.body).map((r) => [r.id, r.failed])
    expect(failed).toEqual([
      ['exec#guarded', expect.stringMatching(/unless guard.*could not start/)],
      ['file#/etc/app/x.conf', 'the parent directory /etc/app does not exist (add a file resource for /etc/app with ensure: directory before this one)'],
      ['file#/etc/who', expect.stringMatching(/could not look up user "nosuchuser"/)],
    ])
    expect(all.body.resources.map((r) => [r.id, r.action])).toEqual([
      ['exec#guarded', 'none'],
      ['file#/etc/app/x.conf', 'none'],
      ['file#/etc/who', 'none'],
      ['file#/etc/fine', 'create'],
      ['exec#after-fine', 'run'],
    ])
    expect(all.body.summary).toEqual({ create: 1, update: 0, delete: 0, run: 1, unchanged: 0, failed: 3 })
    expect(all.problems.map((d) => d.resource)).toEqual(['exec#guarded', 'file#/etc/app/x.conf', 'file#/etc/who'])
  })

  it('leaves plan() as it was: any such resource refuses the whole plan', async () => {
    const { strict } = await planned(three)
    expect(E.isLeft(strict) && strict.left.map((d) => d.resource)).toEqual(['exec#guarded'])
    const planOnly = await planned(manifest(file('/etc/app/x.conf') + file('/etc/fine')))
    expect(E.isLeft(planOnly.strict) && planOnly.strict.left.map((d) => d.message)).toEqual(['the parent directory /etc/app does not exist'])
  })

  it('gives the same plan, byte for byte, when nothing fails', async () => {
    const { all, strict } = await planned(manifest(file('/etc/fine') + exec('after-fine', '            require: [file#/etc/fine]\n')))
    expect(E.isRight(strict) && PlanFile.serialize(PlanFile.seal(strict.right))).toBe(PlanFile.serialize(PlanFile.seal(all.body)))
    expect(all.body.summary).not.toHaveProperty('failed')
    expect(PlanFile.serialize(PlanFile.seal(all.body))).not.toContain('"failed"')
  })

  it('writes a failed resource to the plan file and reads it back; one with steps is malformed', async () => {
    const { plan } = await planned(three)
    const text = PlanFile.serialize(plan)
    const back = PlanFile.parse('p.json', text)
    expect(E.isRight(back) && Plan.failures(back.right).map((r) => r.id)).toEqual(['exec#guarded', 'file#/etc/app/x.conf', 'file#/etc/who'])
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true)
    const forged = JSON.parse(text) as { resources: Array<{ steps: unknown[] }> }
    forged.resources[1]!.steps = [{ _tag: 'file.remove', reason: 'x', noop: 'x', path: '/etc' }]
    const bad = PlanFile.parse('p.json', JSON.stringify(forged))
    expect(E.isLeft(bad) && bad.left.message).toMatch(/resources\[1\]\.steps: expected NoSteps, found a list/)
  })

  it('keeps what waits on a failed resource waiting: a subscriber refreshes only if it changes', async () => {
    const { all } = await planned(manifest(file('/etc/app/x.conf') + exec('reload', '            refresh_only: true\n            subscribe: [file#/etc/app/x.conf]\n')))
    const reload = all.body.resources.find((r) => r.id === 'exec#reload')!
    expect(reload.steps.map((s) => s.reason)).toEqual(['refresh: file#/etc/app/x.conf changes'])
  })
})

describe('renderers', () => {
  it('show a failed resource with its reason, and count it in the summary', async () => {
    const { plan } = await planned(three)
    const text = Render.plan(plan)
    expect(text).toContain('  exec#guarded: failed: ')
    expect(text).toContain('  file#/etc/app/x.conf: failed: the parent directory /etc/app does not exist')
    expect(text).toMatch(/^Plan: 1 to create, 0 to change, 0 to delete, 1 to run, 0 unchanged, 3 failed\.$/m)
    expect(Render.failures(plan)).toMatch(/^error: m\.yaml:\d+:\d+: file#\/etc\/who: could not look up user "nosuchuser"/m)
    expect(Render.failures(plan)).toMatch(/^error: 3 resources could not be planned/m)
    expect(Markdown.plan(plan)).toContain('failed <code>file&#35;/etc/app/x.conf</code> at <code>m.yaml&#58;8</code>')
    expect(Github.plan(plan)).toMatch(/^::error file=m\.yaml,line=\d+,title=plait%3A could not be planned::file#\/etc\/app\/x\.conf: failed: the parent directory/m)
  })

  it('say a reason several resources share once on stderr, naming them all', async () => {
    const { plan } = await planned(manifest(file('/etc/app/x.conf') + file('/etc/app/y.conf')))
    expect(Render.failures(plan).split('\n')[0]).toMatch(/^error: m\.yaml:4:11: file#\/etc\/app\/x\.conf \(and file#\/etc\/app\/y\.conf\): the parent directory \/etc\/app does not exist/)
    const shared = Render.failures({ ...plan, resources: plan.resources.map((r) => ({ ...r, failed: 'no suitable provider: systemd is not running' })) })
    expect(shared).toMatch(/^error: m\.yaml:\d+:\d+: file#\/etc\/app\/x\.conf \(and file#\/etc\/app\/y\.conf\): no suitable provider: systemd is not running\nerror: 2 resources could not be planned/)
  })

  fcTest.prop([fc.array(fc.record({ id: fc.nat(60), reason: fc.constantFrom('a', 'b', 'c') }), { maxLength: 120 })])(
    'say each reason once, at its first resource, naming the next 20 that share it and counting the rest',
    (rs) => {
      const resources = rs.map((r, i) => ({ id: `file#/f${r.id}-${i}`, at: `m.yaml:${i + 1}:1`, failed: r.reason })) as unknown as Plan.ResourcePlan[]
      const text = Render.failures({ resources } as unknown as Plan.Plan)
      if (rs.length === 0) {
        expect(text).toBe('')
        return
      }
      // the model: reasons in the order they first fail, each with every resource it fails, in plan order
      const reasons = [...new Set(rs.map((r) => r.reason))]
      const expected = reasons.map((reason) => {
        const all = resources.filter((r) => (r as unknown as { failed: string }).failed === reason)
        const rest = all.slice(1).map((r) => r.id)
        const named = rest.length > Render.maxNamed ? [...rest.slice(0, Render.maxNamed), `and ${rest.length - Render.maxNamed} more`] : rest
        return `error: ${all[0]!.at}: ${all[0]!.id}${named.length > 0 ? ` (and ${named.join(', ')})` : ''}: ${reason}`
      })
      expect(text.split('\n').slice(0, -2)).toEqual(expected)
    },
  )

  it('say "No changes" only when nothing changes and nothing failed', async () => {
    const { plan } = await planned(manifest(file('/etc/app/x.conf')))
    expect(Render.plan(plan)).not.toContain('No changes')
    expect(Render.failures(plan)).toMatch(/^error: 1 resource could not be planned/m)
    expect(Render.failures((await planned(manifest(file('/etc/fine')))).plan)).toBe('')
  })
})

describe('apply of a plan with a failed resource', () => {
  const options = (noop: boolean, runnerOf = runner()): Apply.Options => ({ stateDir: '/var/lib/plait', atomic: false, noop, runner: runnerOf, sleep: async () => undefined })

  it.each([false, true])('fails it at its turn, skips what requires it, and applies the rest (noop: %s)', async (noop) => {
    const { plan, machine: m } = await planned(manifest(file('/etc/app/x.conf') + exec('needs-it', '            require: [file#/etc/app/x.conf]\n') + file('/etc/fine')))
    const r = await Apply.apply(m, plan, options(noop))
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    expect(r.right.resources.map((x) => [x.id, x.outcome, x.messages[0]])).toEqual([
      ['file#/etc/app/x.conf', 'failed', 'the parent directory /etc/app does not exist (add a file resource for /etc/app with ensure: directory before this one)'],
      ['exec#needs-it', 'skipped', 'unmet requirement: file#/etc/app/x.conf failed'],
      ['file#/etc/fine', 'changed', noop ? 'Would have created the file' : expect.any(String)],
    ])
    expect(m.snapshot().files['/etc/fine'] !== undefined).toBe(!noop)
  })

  it.each([false, true])('stops there with fail_on_error (noop: %s)', async (noop) => {
    const { plan, machine: m } = await planned(manifest(file('/etc/app/x.conf') + file('/etc/fine'), true))
    const r = await Apply.apply(m, plan, options(noop))
    expect(E.isRight(r) && r.right.resources.map((x) => [x.id, x.outcome, x.messages[0]])).toEqual([
      ['file#/etc/app/x.conf', 'failed', expect.any(String)],
      ['file#/etc/fine', 'skipped', 'not run: file#/etc/app/x.conf failed and fail_on_error is set'],
    ])
  })
})

describe('apply --noop runs health checks, as CCM does in noop mode', () => {
  const noop = (r = runner()): Apply.Options => ({ stateDir: '/var/lib/plait', atomic: false, noop: true, runner: r, sleep: async () => undefined })
  const checked = (command: string, extra = '') => file('/etc/fine', `            health_checks:\n              - name: probe\n                command: ${command}\n${extra}`)

  it('reports an OK check beside what would change, and changes nothing', async () => {
    const r0 = runner()
    const { plan, machine: m } = await planned(manifest(checked('/bin/true')))
    const r = await Apply.apply(m, plan, noop(r0))
    expect(E.isRight(r) && r.right.resources.map((x) => [x.id, x.outcome, x.messages])).toEqual([['file#/etc/fine', 'changed', ['Would have created the file', expect.stringMatching(/^health check probe: OK/)]]])
    expect(r0.calls()).toEqual(['/bin/true'])
    expect(m.snapshot().files['/etc/fine']).toBeUndefined()
  })

  it('fails the resource when a check is not OK, and skips what requires it', async () => {
    const { plan, machine: m } = await planned(manifest(checked('/bin/false') + exec('after', '            require: [file#/etc/fine]\n')))
    const r = await Apply.apply(m, plan, noop())
    expect(E.isRight(r) && r.right.resources.map((x) => [x.id, x.outcome, x.messages[0]])).toEqual([
      ['file#/etc/fine', 'failed', expect.stringMatching(/^health check probe: WARNING/)],
      ['exec#after', 'skipped', 'unmet requirement: file#/etc/fine failed'],
    ])
  })
})
