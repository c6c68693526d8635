// security: the plan decoder, fuzzed. Any text, any JSON, and real plans with any field changed
// (and their hash recomputed, as a forger would) give a plan or a clear PlanFile diagnostic: never
// a thrown error.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'

const plans = join(import.meta.dirname, '..', '..', 'plans')
const corpus: ReadonlyArray<Record<string, unknown>> = readdirSync(plans)
  .filter((d) => existsSync(join(plans, d, 'expected.json')))
  .map((d) => JSON.parse(readFileSync(join(plans, d, 'expected.json'), 'utf8')) as Record<string, unknown>)

const paths = (v: unknown, at: string[] = []): string[][] => {
  const here = [at]
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => paths(x, [...at, String(i)]))]
  if (v !== null && typeof v === 'object') return [...here, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))]
  return here
}

const setAt = (v: unknown, at: string[], by: unknown): unknown => {
  if (at.length === 0) return by
  const [k, ...rest] = at
  if (Array.isArray(v)) return v.map((x, i) => (String(i) === k ? setAt(x, rest, by) : x))
  return { ...(v as Record<string, unknown>), [k!]: setAt((v as Record<string, unknown>)[k!], rest, by) }
}

const anyValue = fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 2 ** 32, 1e308, '9999', '..', '/a/../b', 'a\0b', '', null, [], {}))

const mutated: fc.Arbitrary<string> = fc
  .constantFrom(...corpus)
  .chain((p) => {
    const all = paths(p).filter((x) => x[0] !== 'hash')
    return fc.tuple(fc.constantFrom(...all), anyValue, fc.boolean()).map(([at, v, rehash]) => {
      const edited = setAt(p, at, v) as Record<string, unknown>
      if (!rehash || edited === null || typeof edited !== 'object') return JSON.stringify(edited)
      const { hash: _, ...body } = edited
      try {
        return JSON.stringify({ ...body, hash: PlanFile.hashOf(body as unknown as Plan.Body) })
      } catch {
        return JSON.stringify(edited)
      }
    })
  })

const anyText = fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), mutated)

describe('the plan decoder under any input', () => {
  test.prop([anyText], { numRuns: 400 })('a plan or a PlanFile diagnostic, never a throw', (text) => {
    const r = PlanFile.parse('plan.json', text)
    if (E.isLeft(r)) {
      expect(r.left.code).toBe('PlanFile')
      expect(r.left.message.length).toBeGreaterThan(0)
    } else {
      // what is accepted is exactly what serializes back
      expect(E.isRight(PlanFile.parse('plan.json', PlanFile.serialize(r.right)))).toBe(true)
    }
  })
})
