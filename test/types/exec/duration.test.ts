// Durations as CCM's parser (fisk.ParseDuration) reads them: Go's units plus days, weeks, months and years.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Spec from '../../../src/types/exec/Spec.js'

const day = 86_400_000
const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: day, D: day, w: 7 * day, W: 7 * day, M: 30 * day, y: 365 * day, Y: 365 * day }
const segment = fc.tuple(fc.integer({ min: 0, max: 500 }), fc.constantFrom(...Object.keys(unitMs)))

describe('parseDuration', () => {
  it.each([
    ['1d', day],
    ['1D', day],
    ['1w', 7 * day],
    ['2W', 14 * day],
    ['1M', 30 * day],
    ['1y', 365 * day],
    ['1Y', 365 * day],
    ['1w2d3h', 9 * day + 3 * 3_600_000],
    ['1.5w', 10.5 * day],
    ['.5d', day / 2],
    ['1m', 60_000],
  ])('reads %s as CCM does', (text, ms) => {
    expect(Spec.parseDuration(text)).toBe(ms)
  })
  it.each(['1', '1x', 'd', '1d ', '-1d', '0d', '1dd', '293y', '1e3s', ''])('refuses %j', (text) => {
    expect(Spec.parseDuration(text)).toBeUndefined()
  })
  fcTest.prop([fc.array(segment, { minLength: 1, maxLength: 5 })])('a duration is the sum of its segments', (segments) => {
    const total = segments.reduce((sum, [n, unit]) => sum + n * unitMs[unit]!, 0)
    expect(Spec.parseDuration(segments.map(([n, unit]) => `${n}${unit}`).join(''))).toBe(total > 0 && total <= Spec.maxDurationMs ? total : undefined)
  })
  fcTest.prop([fc.integer({ min: 1, max: 10_000 })])('a day is 24 hours and a week 7 days', (n) => {
    expect(Spec.parseDuration(`${n}d`)).toBe(Spec.parseDuration(`${24 * n}h`))
    expect(Spec.parseDuration(`${n}w`)).toBe(Spec.parseDuration(`${7 * n}d`))
  })
})
