import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Changes from '../../src/interpreters/libral/protocol/Changes.js'
import * as Metadata from '../../src/interpreters/libral/protocol/Metadata.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import type * as Value from '../../src/interpreters/libral/protocol/Value.js'
import { hostMeta } from './support.js'

const m = hostMeta
const present = (attrs: Resource.Attrs): Resource.Found => Resource.present(Resource.make('db1', attrs))
const absent = Resource.absent('db1')

describe('Changes.plan', () => {
  it('creates an absent resource with every desired writable attribute, in metadata order', () => {
    expect(Changes.plan(m, { aliases: ['db'], ip: '10.0.0.5', ensure: 'present' }, absent)).toEqual([
      Resource.change('ensure', 'absent', 'present'),
      Resource.change('ip', undefined, '10.0.0.5'),
      Resource.change('aliases', undefined, ['db']),
    ])
  })

  it('changes only the attributes that differ', () => {
    expect(Changes.plan(m, { ip: '10.0.0.6', aliases: ['db'] }, present({ ensure: 'present', ip: '10.0.0.5', aliases: ['db'] }))).toEqual([Resource.change('ip', '10.0.0.5', '10.0.0.6')])
  })

  it('a boolean is not a string', () => {
    const found = present({ enabled: 'true' as unknown as Value.Value })
    expect(Changes.plan(m, { enabled: true }, found)).toEqual([Resource.change('enabled', 'true', true)])
    expect(Changes.plan(m, { enabled: true }, present({ enabled: true }))).toEqual([])
  })

  it('removes with the one change ensure -> absent, and leaves an absent resource alone', () => {
    expect(Changes.plan(m, { ensure: 'absent', ip: '1.1.1.1' }, present({ ensure: 'present', ip: '2.2.2.2' }))).toEqual([Resource.change('ensure', 'present', 'absent')])
    expect(Changes.plan(m, { ensure: 'absent' }, absent)).toEqual([])
    expect(Changes.plan(m, { ensure: 'absent' }, present({ ensure: 'absent' }))).toEqual([])
  })

  it('treats a found resource with ensure: absent as absent, and asks for ensure: present when the desired state does not say', () => {
    expect(Changes.plan(m, { ip: '1.1.1.1' }, present({ ensure: 'absent', ip: '1.1.1.1' }))).toEqual([Resource.change('ensure', 'absent', 'present'), Resource.change('ip', '1.1.1.1', '1.1.1.1')])
    expect(Changes.plan(m, { secret: 's' }, absent)).toEqual([Resource.change('ensure', 'absent', 'present'), Resource.change('secret', undefined, 's')])
    expect(Changes.plan(m, {}, absent)).toEqual([])
  })

  it('counts a found resource without ensure as present', () => {
    expect(Changes.plan(m, { ensure: 'present', ip: '1' }, present({ ip: '1' }))).toEqual([])
  })

  it('sends write-only attributes only along with another change', () => {
    expect(Changes.plan(m, { secret: 's', ip: '1' }, present({ ip: '1' }))).toEqual([])
    expect(Changes.plan(m, { secret: 's', ip: '2' }, present({ ip: '1' }))).toEqual([Resource.change('ip', '1', '2'), Resource.change('secret', undefined, 's')])
  })
})

describe('Changes.applied', () => {
  const sent = [Resource.change('ip', '1', '2'), Resource.change('aliases', [], ['a'])]
  const found = present({ ip: '1', aliases: [] })

  it('takes what update reported, filling a missing was from the finding', () => {
    expect(Changes.applied(found, sent, { unknown: false, derive: false, changes: [Resource.change('ip', undefined, '2')] })).toEqual([Resource.change('ip', '1', '2')])
  })

  it('with ral_derive, adds each sent change not mentioned whose value differs from the finding', () => {
    expect(Changes.applied(found, sent, { unknown: false, derive: true, changes: [Resource.change('ip', '1', '2')] })).toEqual([Resource.change('ip', '1', '2'), Resource.change('aliases', [], ['a'])])
    expect(Changes.applied(present({ ip: '2', aliases: ['a'] }), sent, { unknown: false, derive: true, changes: [] })).toEqual([])
  })
})

describe('laws', () => {
  const text = fc.constantFrom('', '1', '2', 'a b', 'true')
  const list = fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 })
  const desired = fc.record({ ensure: fc.constantFrom('present', 'absent'), ip: text, aliases: list, enabled: fc.boolean(), secret: text }, { requiredKeys: [] }) as fc.Arbitrary<Resource.Attrs>
  const found = fc.oneof(
    fc.constant(absent),
    fc
      .record({ ensure: fc.constantFrom('present', 'absent'), ip: text, aliases: list, enabled: fc.boolean(), target: text }, { requiredKeys: [] })
      .map((a) => present(a as Resource.Attrs)),
  )

  fcTest.prop([desired, found])('idempotence: planning again after the planned update gives no change', (d, f) => {
    const cs = Changes.plan(m, d, f)
    expect(Changes.plan(m, d, Changes.after(f, cs, cs))).toEqual([])
  })

  fcTest.prop([desired, found])('only writable attributes change, never name, never a read-only one', (d, f) => {
    for (const c of Changes.plan(m, d, f)) {
      const a = Metadata.attribute(m, c.attr)
      expect(a !== undefined && Metadata.isWritable(a)).toBe(true)
    }
  })

  fcTest.prop([desired, found])('every change sets a desired value (or the implied ensure: present)', (d, f) => {
    for (const c of Changes.plan(m, d, f)) expect(c.is).toEqual(d[c.attr] ?? (c.attr === 'ensure' ? 'present' : 'no such value'))
  })

  fcTest.prop([desired, found])('a found resource in the desired state needs nothing', (d, f) => {
    const satisfied = Changes.after(f, Changes.plan(m, d, f), [])
    expect(Changes.verify(m, d, satisfied)).toEqual([])
  })
})
