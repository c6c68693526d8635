import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'

export const samplePlan = (content = 'hello\n'): Plan.Plan =>
  PlanFile.seal({
    format: 'plait.plan/1',
    plait: '0.1.0',
    root: '/',
    inputs: { manifest: { path: 'm.yaml', sha256: 'ab'.repeat(32) }, sources: [], reads: [] },
    failOnError: false,
    resources: [
      {
        id: 'file#/etc/motd',
        type: 'file',
        name: '/etc/motd',
        at: 'm.yaml:4:11',
        action: 'create',
        desired: { ensure: 'present', force: false, mode: '0644', owner: { name: 'root', id: 0 }, group: { name: 'root', id: 0 } },
        observed: { summary: 'absent', digest: 'sha256:00' },
        steps: [
          {
            _tag: 'file.write',
            path: '/etc/motd',
            reason: 'file does not exist',
            noop: 'Would have created the file',
            content: { encoding: 'utf8', data: content, sha256: 'x', size: content.length },
            owner: { name: 'root', id: 0 },
            group: { name: 'root', id: 0 },
            mode: '0644',
          },
        ],
      },
    ],
    summary: { create: 1, update: 0, delete: 0, unchanged: 0 },
  })

describe('PlanFile', () => {
  it('round-trips a plan byte for byte', () => {
    const text = PlanFile.serialize(samplePlan())
    const back = PlanFile.parse('plan.json', text)
    expect(E.isRight(back)).toBe(true)
    if (E.isRight(back)) expect(PlanFile.serialize(back.right)).toBe(text)
    expect(text.endsWith('\n')).toBe(true)
  })

  fcTest.prop([fc.string()])('any content round-trips and serializes deterministically', (content) => {
    const a = PlanFile.serialize(samplePlan(content))
    const b = PlanFile.serialize(samplePlan(content))
    expect(a).toBe(b)
    const back = PlanFile.parse('plan.json', a)
    expect(E.isRight(back) && PlanFile.serialize(back.right)).toBe(a)
  })

  fcTest.prop([fc.string({ minLength: 1 })])('a plan whose content was changed is refused as tampered', (extra) => {
    const plan = samplePlan()
    const raw = JSON.parse(PlanFile.serialize(plan)) as { resources: { steps: { content: { data: string } }[] }[] }
    raw.resources[0]!.steps[0]!.content.data += extra
    const r = PlanFile.parse('plan.json', JSON.stringify(raw))
    expect(E.isLeft(r) && r.left.message).toMatch(/plan has been modified since it was made/)
  })

  it.each([
    ['not json', /invalid JSON/],
    ['[1]', /expected a JSON object/],
    ['{}', /no "format" field/],
    ['{"format": "plait.plan/99"}', /unknown plan format "plait.plan\/99"/],
    ['{"format": "plait.plan/1"}', /malformed plan/],
  ])('refuses %s', (text, why) => {
    const r = PlanFile.parse('plan.json', text)
    expect(E.isLeft(r) && r.left.message).toMatch(why)
    expect(E.isLeft(r) && r.left.code).toBe('PlanFile')
  })
})
