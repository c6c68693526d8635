// Grouping: hosts sorted into groups is a partition of the hosts, identical changes share a group.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as CatalogDiff from '../../src/review/CatalogDiff.js'
import * as Grouping from '../../src/review/Grouping.js'
import { labels, outcomes } from './arbitraries.js'

const hostsOf = (g: Grouping.Grouped): string[] => [...g.unchanged, ...g.changed.flatMap((c) => c.hosts), ...g.failed.flatMap((f) => f.hosts)]

describe('Grouping.group', () => {
  test.prop([outcomes()])('is a partition of the hosts: each host in exactly one group, none empty', (os) => {
    const g = Grouping.group(os)
    expect(hostsOf(g).sort()).toEqual(os.map((o) => o.host).sort())
    for (const c of [...g.changed, ...g.failed]) expect(c.hosts.length).toBeGreaterThan(0)
  })

  test.prop([outcomes()])('puts two hosts in one group exactly when their outcomes are the same', (os) => {
    const g = Grouping.group(os)
    const groupOf = new Map<string, number>()
    g.changed.forEach((c, i) => c.hosts.forEach((h) => groupOf.set(h, i)))
    g.failed.forEach((c, i) => c.hosts.forEach((h) => groupOf.set(h, 1000 + i)))
    g.unchanged.forEach((h) => groupOf.set(h, -1))
    const keyOf = (o: Grouping.Outcome): string => (o._tag === 'Failed' ? JSON.stringify([o.from ?? null, o.to ?? null]) : CatalogDiff.isEmpty(o.diff) && o.diff.formatting.length === 0 ? 'same' : CatalogDiff.key(o.diff))
    for (const a of os) for (const b of os) expect(groupOf.get(a.host) === groupOf.get(b.host)).toBe(keyOf(a) === keyOf(b))
  })

  test.prop([outcomes()])('orders groups largest first (those that change something before formatting only) and hosts by name', (os) => {
    const g = Grouping.group(os)
    const order = (x: Grouping.ChangeGroup): number => (Grouping.changes(x) ? 0 : 1)
    for (let i = 1; i < g.changed.length; i++) expect(order(g.changed[i - 1]!) < order(g.changed[i]!) || (order(g.changed[i - 1]!) === order(g.changed[i]!) && g.changed[i - 1]!.hosts.length >= g.changed[i]!.hosts.length)).toBe(true)
    for (let i = 1; i < g.failed.length; i++) expect(g.failed[i - 1]!.hosts.length).toBeGreaterThanOrEqual(g.failed[i]!.hosts.length)
    for (const hs of [g.unchanged, ...g.changed.map((c) => c.hosts)]) expect([...hs]).toEqual([...hs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  test.prop([outcomes().chain((os) => fc.tuple(fc.constant(os), fc.shuffledSubarray([...os], { minLength: os.length, maxLength: os.length })))])(
    'groups alike whatever order the outcomes come in (workers answer in any order)',
    ([os, shuffled]) => {
      expect(Grouping.group(shuffled)).toEqual(Grouping.group(os))
    },
  )

  it('groups twelve hosts with the same change apart from one with another', () => {
    const a = { resources: [{ id: 'package#nginx', type: 'package', at: 'm:1', props: { ensure: 'present' } }] }
    const b = { resources: [{ id: 'package#nginx', type: 'package', at: 'm:1', props: { ensure: 'absent' } }] }
    const c = { resources: [] }
    const same = CatalogDiff.compare(a, b, labels)
    const os: Grouping.Outcome[] = [...Array.from({ length: 12 }, (_, i) => ({ _tag: 'Compiled' as const, host: `web${String(i).padStart(2, '0')}`, diff: same })), { _tag: 'Compiled', host: 'db01', diff: CatalogDiff.compare(a, c, labels) }]
    const g = Grouping.group(os)
    expect(g.changed.map((x) => x.hosts.length)).toEqual([12, 1])
    expect(g.changed[1]!.hosts).toEqual(['db01'])
  })
})
