// The libral session contract: what every host of libral providers (the real one, which runs
// provider programs, and the memory one, which keeps resources in maps) must do: list, find and
// observe what a provider holds, apply an update's changes (or not, under noop) and report them,
// and refuse what may not be sent. It runs against the `store` fixture provider's metadata (the
// json calling convention; see test/libral/fixtures/providers/store.prov).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Target } from '../../src/interpreters/libral/invoke.js'
import type { Session } from '../../src/interpreters/libral/Session.js'
import * as Changes from '../../src/interpreters/libral/protocol/Changes.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'

/** Whether a finding says the resource is absent: a host may say so with Absent or with `ensure => absent`. */
const absent = (f: Resource.Found): boolean => Resource.ensureOf(f) === 'absent'

const right = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a value, got ${JSON.stringify(r.left)}`)
  return r.right
}

/** Runs the contract against a fresh, empty host of the `store` provider. */
export const libralContract = (label: string, make: () => Promise<{ session: Session; target: Target }>): void => {
  describe(`the libral session contract: ${label}`, () => {
    const desire = async (s: Session, t: Target, name: string, desired: Resource.Attrs, noop = false) => {
      const found = right(await s.find(t, name))
      const changes = Changes.plan(t.meta, desired, found)
      return right(await s.update(t, found, changes, { noop }))
    }

    it('lists nothing and finds nothing in an empty provider', async () => {
      const { session: s, target: t } = await make()
      expect(right(await s.list(t))).toEqual([])
      expect(absent(right(await s.find(t, 'a')))).toBe(true)
    })

    it('creates, changes and removes a resource, reporting each change and what it left', async () => {
      const { session: s, target: t } = await make()
      const created = await desire(s, t, 'a', { ensure: 'present', value: 'x', flags: ['p', 'q'], on: true })
      expect(created).toEqual({
        _tag: 'Updated',
        changes: [Resource.change('ensure', 'absent', 'present'), Resource.change('value', undefined, 'x'), Resource.change('flags', undefined, ['p', 'q']), Resource.change('on', undefined, true)],
        after: Resource.present(Resource.make('a', { ensure: 'present', value: 'x', flags: ['p', 'q'], on: true })),
      })
      expect(right(await s.find(t, 'a'))).toEqual(Resource.present(Resource.make('a', { ensure: 'present', value: 'x', flags: ['p', 'q'], on: true })))
      const runs = s.invocations().length
      const changed = await desire(s, t, 'a', { value: 'y' })
      expect(s.invocations().slice(runs).map((i) => i.action)).toEqual(['get', 'set'])
      expect(changed._tag === 'Updated' && changed.changes).toEqual([Resource.change('value', 'x', 'y')])
      expect(right(await s.list(t)).map((r) => [r.name, r.attrs['value']])).toEqual([['a', 'y']])
      const removed = await desire(s, t, 'a', { ensure: 'absent' })
      expect(removed._tag === 'Updated' && removed.changes).toEqual([Resource.change('ensure', 'present', 'absent')])
      expect(absent(right(await s.find(t, 'a')))).toBe(true)
    })

    it('observes several names with one list, kept until the provider updates, in the order asked, absent ones included', async () => {
      const { session: s, target: t } = await make()
      await desire(s, t, 'b', { ensure: 'present', value: '2' })
      await desire(s, t, 'a', { ensure: 'present', value: '1' })
      const before = s.invocations().length
      const seen = right(await s.observe(t, ['b', 'zz', 'a']))
      expect(right(await s.list(t)).map((r) => r.name)).toEqual(['a', 'b'])
      expect(s.invocations().slice(before).map((i) => i.action)).toEqual(['get'])
      expect([...seen].map(([n, f]) => [n, absent(f)])).toEqual([
        ['b', false],
        ['zz', true],
        ['a', false],
      ])
    })

    it('changes nothing under noop, and still reports what it would change', async () => {
      const { session: s, target: t } = await make()
      const r = await desire(s, t, 'a', { ensure: 'present', value: 'x' }, true)
      expect(r._tag === 'Updated' && r.changes.map((c) => c.attr)).toEqual(['ensure', 'value'])
      expect(absent(right(await s.find(t, 'a')))).toBe(true)
    })

    it('refuses to send a read-only or unknown attribute, and runs nothing for no changes', async () => {
      const { session: s, target: t } = await make()
      const found = right(await s.find(t, 'a'))
      const before = s.invocations().length
      const r = await s.update(t, found, [Resource.change('colour', undefined, 'red')], { noop: false })
      expect(E.isLeft(r) && r.left.description).toBe('refusing to send "colour": not a writable attribute')
      expect(right(await s.update(t, found, [], { noop: false }))).toEqual({ _tag: 'Updated', changes: [], after: found })
      expect(s.invocations().length).toBe(before)
    })
  })
}
