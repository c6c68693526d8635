// The libral type's plan function: desired × found → the resource's plan record (pure).
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Changes from '../../../src/interpreters/libral/protocol/Changes.js'
import * as Resource from '../../../src/interpreters/libral/protocol/Resource.js'
import * as UpdateStep from '../../../src/interpreters/libral/protocol/UpdateStep.js'
import type { LibralSpec } from '../../../src/interpreters/libral/type/Spec.js'
import * as LibralPlan from '../../../src/interpreters/libral/type/plan.js'
import * as Registry from '../../../src/types/registry.js'
import { hostMeta } from '../../libral/support.js'

const spec = (attrs: Resource.Attrs, name = 'db1'): LibralSpec => ({
  _tag: 'libral',
  id: `host#${name}`,
  type: 'host',
  name,
  at: { file: 'm.yaml', line: 3, col: 7 },
  provider: { meta: hostMeta, path: '/p/test.prov', suitable: E.right(true), digest: 'd' },
  attrs,
})
const present = (attrs: Resource.Attrs, name = 'db1'): Resource.Found => Resource.present(Resource.make(name, attrs))

describe('libral plan', () => {
  it('creates an absent resource with every desired attribute, ensure first', () => {
    const p = LibralPlan.plan(spec({ ip: '10.0.0.5', aliases: ['db'] }), Resource.absent('db1'))
    expect(p).toMatchObject({ id: 'host#db1', type: 'host', provider: 'host::test', at: 'm.yaml:3:7', action: 'create', desired: { aliases: ['db'], ip: '10.0.0.5' } })
    expect(p.steps[0]!.changes).toEqual([{ attr: 'ensure', was: 'absent', is: 'present' }, { attr: 'ip', is: '10.0.0.5' }, { attr: 'aliases', is: ['db'] }])
    expect(p.steps[0]!.noop).toBe("Would have created host::test 'db1'")
  })

  it('updates only what differs, and a boolean never equals its string', () => {
    const p = LibralPlan.plan(spec({ ip: '10.0.0.5', enabled: true }), present({ ensure: 'present', ip: '10.0.0.5', enabled: false }))
    expect(p.action).toBe('update')
    expect(p.steps[0]!.changes).toEqual([{ attr: 'enabled', was: false, is: true }])
    expect(LibralPlan.plan(spec({ ip: '10.0.0.5' }), present({ ip: '10.0.0.5', target: '/etc/hosts' })).steps).toEqual([])
  })

  it('deletes with the one change ensure -> absent, and does nothing for an absent one', () => {
    const p = LibralPlan.plan(spec({ ensure: 'absent', ip: 'x' }), present({ ensure: 'present', ip: '1' }))
    expect(p.action).toBe('delete')
    expect(p.steps[0]!.changes).toEqual([{ attr: 'ensure', was: 'present', is: 'absent' }])
    expect(LibralPlan.plan(spec({ ensure: 'absent' }), Resource.absent('db1')).action).toBe('none')
  })

  it('records what was found: a summary for people and the digest staleness compares', () => {
    const found = present({ ip: '1', target: '/etc/hosts' })
    const p = LibralPlan.plan(spec({ ip: '1' }), found)
    expect(p.observed).toEqual({ summary: "ip => '1', target => '/etc/hosts'", digest: Resource.digest(found) })
  })

  it('is a valid plan record, and its step decodes as a plan step', () => {
    const p = LibralPlan.plan(spec({ ip: '10.0.0.5', aliases: ['a', 'b'] }), Resource.absent('db1'))
    expect(E.isRight(Registry.resourcePlan().decode(JSON.parse(JSON.stringify(p))))).toBe(true)
    expect(p.kind).toBe('libral')
  })

  it('verify names each attribute that is still wrong', () => {
    expect(LibralPlan.verify(hostMeta, { ip: '10.0.0.5' }, present({ ip: '10.0.0.6' }))).toEqual(["ip is '10.0.0.6', not '10.0.0.5'"])
    expect(LibralPlan.verify(hostMeta, { ip: '10.0.0.5' }, present({ ip: '10.0.0.5' }))).toEqual([])
  })
})

const attrsArb: fc.Arbitrary<Resource.Attrs> = fc.record(
  { ensure: fc.constantFrom('present', 'absent'), ip: fc.constantFrom('1', '2'), aliases: fc.constantFrom(['a'], ['a', 'b'], []), enabled: fc.boolean() },
  { requiredKeys: [] },
)
const foundArb: fc.Arbitrary<Resource.Found> = fc.option(attrsArb, { nil: undefined }).map((a) => (a === undefined ? Resource.absent('db1') : present(a)))

describe('libral plan: laws', () => {
  fcTest.prop([attrsArb, foundArb])('after its update the resource plans to nothing, and the action says what the step does', (desired, found) => {
    const p = LibralPlan.plan(spec(desired), found)
    expect(p.action === 'none').toBe(p.steps.length === 0)
    if (p.steps.length === 0) return
    const sent = UpdateStep.changesOf(p.steps[0]!)
    const after = Changes.after(found, sent, sent)
    expect(LibralPlan.plan(spec(desired), after).steps).toEqual([])
    expect(p.action === 'delete').toBe(sent.some((c) => c.attr === 'ensure' && c.is === 'absent'))
  })
})
