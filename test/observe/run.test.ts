// run: programs run side by side give what each gives alone; a merging family is asked each key
// once per round, a non-merging one every request in the order asked; families in first-asked order.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { Families, Family, Observation } from '../../src/core/Observation.js'
import * as Obs from '../../src/core/Observation.js'
import * as Run from '../../src/observe/run.js'

/** Families that answer `family:body` and record each batch they were given. */
const recording = (): { readonly families: Families; readonly batches: Array<{ readonly family: string; readonly bodies: ReadonlyArray<unknown> }> } => {
  const batches: Array<{ readonly family: string; readonly bodies: ReadonlyArray<unknown> }> = []
  const family = (name: string, merge: boolean): Family => ({
    merge,
    answer: async (bodies) => {
      batches.push({ family: name, bodies })
      return bodies.map((b) => `${name}:${String(b)}`)
    },
  })
  const table: Record<string, Family> = { m: family('m', true), n: family('n', false) }
  return { families: (name) => table[name], batches }
}

/** A program of up to three questions in a row, each to family m (merged) or n (not), keyed by its body. */
const question = fc.record({ family: fc.constantFrom('m', 'n'), body: fc.constantFrom('x', 'y', 'z') })
const programOf = (qs: ReadonlyArray<{ readonly family: string; readonly body: string }>): Observation<ReadonlyArray<unknown>> =>
  qs.reduceRight<(got: ReadonlyArray<unknown>) => Observation<ReadonlyArray<unknown>>>(
    (rest, q) => (got) => Obs.askThen(q.family, q.body, q.body, (a: unknown) => rest([...got, a])),
    (got) => Obs.done(got),
  )([])

describe('run', () => {
  fcTest.prop([fc.array(fc.array(question, { maxLength: 3 }), { maxLength: 12 })])('runs programs side by side to what each gives alone', async (specs) => {
    const together = await Run.runAll(specs.map(programOf), recording().families)
    const alone = await Promise.all(specs.map((s) => Run.run(programOf(s), recording().families)))
    expect(together).toEqual(alone)
    expect(together).toEqual(specs.map((s) => s.map((q) => `${q.family}:${q.body}`)))
  })

  fcTest.prop([fc.array(fc.array(fc.array(question, { maxLength: 3 }), { maxLength: 3 }), { maxLength: 8 })])('runs programs that are themselves run side by side (all within all) to what each gives alone', async (groups) => {
    const nested = (g: ReadonlyArray<ReadonlyArray<{ readonly family: string; readonly body: string }>>) => Obs.all(g.map(programOf))
    const together = await Run.runAll(groups.map(nested), recording().families)
    expect(together).toEqual(groups.map((g) => g.map((s) => s.map((q) => `${q.family}:${q.body}`))))
  })

  fcTest.prop([fc.array(question, { minLength: 1, maxLength: 20 })])('asks a merging family each key once per round, and a non-merging one every request in order', async (qs) => {
    const { families, batches } = recording()
    await Run.runAll(qs.map((q) => programOf([q])), families)
    const asked = (name: string) => qs.filter((q) => q.family === name).map((q) => q.body)
    const m = batches.find((b) => b.family === 'm')?.bodies ?? []
    const n = batches.find((b) => b.family === 'n')?.bodies ?? []
    expect(m).toEqual([...new Set(asked('m'))])
    expect(n).toEqual(asked('n'))
    // one batch per family, in the order of their first requests
    expect(batches.map((b) => b.family)).toEqual([...new Set(qs.map((q) => q.family))])
  })

  it('fails on a family the run was not given (a bug in the caller)', async () => {
    await expect(Run.runAll([Obs.ask('nowhere', 'k', 1)], recording().families)).rejects.toThrow('invariant: no interpreter of nowhere requests in this run')
  })

  it('runs programs that ask nothing', async () => {
    const { families, batches } = recording()
    expect(await Run.runAll([Obs.done(1), Obs.done(2)], families)).toEqual([1, 2])
    expect(await Run.runAll([], families)).toEqual([])
    expect(batches).toEqual([])
  })
})
