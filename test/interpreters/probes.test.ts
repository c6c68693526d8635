// The `path` request family: each distinct probe of a batch (same path, same options) reaches the
// machine once, and every probe asked gets the answer the machine gives its path and options.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { ProbeOptions } from '../../src/core/Probe.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Probes from '../../src/interpreters/probes.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const options: ReadonlyArray<ProbeOptions | undefined> = [undefined, {}, { contentLimit: 0 }, { contentUnless: 'a'.repeat(64), contentLimit: 10 }, { contentUnless: 'a'.repeat(64) }, { contentUnless: '-' }]
const probe = fc.record({ path: fc.constantFrom('/a', '/b', '/a/x', '/missing'), options: fc.constantFrom(...options) }).map((p) => (p.options === undefined ? { path: p.path } : p))
const sameQuestion = (a: Probes.PathProbe, b: Probes.PathProbe): boolean =>
  a.path === b.path && a.options?.contentUnless === b.options?.contentUnless && a.options?.contentLimit === b.options?.contentLimit

/** A memory machine whose probeAll batches are recorded. */
const recorded = (): { readonly machine: Machine; readonly batches: Array<ReadonlyArray<Probes.PathProbe>> } => {
  const s = Snapshot.make({ '/a': Snapshot.directory(), '/a/x': Snapshot.file('hello\n'), '/b': Snapshot.file('b') })
  if (E.isLeft(s)) throw new Error(s.left)
  const inner = Memory.make(s.right)
  const batches: Array<ReadonlyArray<Probes.PathProbe>> = []
  const machine: Machine = { ...inner, probeAll: (requests) => { batches.push(requests); return inner.probeAll(requests) } }
  return { machine, batches }
}

describe('distinct probes', () => {
  fcTest.prop([fc.array(probe, { maxLength: 40 })])('lists each question once, in first-asked order, and points every probe at its own', (probes) => {
    const { unique, slots } = Probes.distinct(probes)
    expect(slots).toHaveLength(probes.length)
    probes.forEach((p, i) => expect(sameQuestion(unique[slots[i]!]!, p)).toBe(true))
    unique.forEach((u, j) => unique.slice(j + 1).forEach((v) => expect(sameQuestion(u, v)).toBe(false)))
    // first-asked order: the distinct ones are the probes that first ask their question
    expect(unique).toEqual(probes.filter((p, i) => probes.findIndex((q) => sameQuestion(p, q)) === i))
  })

  it('tells one path asked with other options apart (a file and the parent probe of it)', () => {
    const r = Probes.distinct([{ path: '/a' }, { path: '/a', options: { contentLimit: 0 } }, { path: '/a', options: {} }, { path: '/a', options: { contentLimit: 0 } }])
    expect(r.unique).toEqual([{ path: '/a' }, { path: '/a', options: { contentLimit: 0 } }])
    expect(r.slots).toEqual([0, 1, 0, 1])
  })
})

describe('the path family', () => {
  fcTest.prop([fc.array(probe, { minLength: 1, maxLength: 30 })])('answers every probe as the machine answers it alone, asking each distinct one once', async (probes) => {
    const { machine, batches } = recorded()
    const got = await Probes.paths(machine).answer(probes)
    const alone = await Promise.all(probes.map(async (p) => (await machine.probeAll([p])())[0]))
    expect(got).toEqual(alone)
    expect(batches[0]).toEqual(Probes.distinct(probes).unique)
  })
})
