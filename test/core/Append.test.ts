// Append: adds items one by one, as push(...items) would, however many there are.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Append from '../../src/core/Append.js'

describe('Append.append', () => {
  test.prop([fc.array(fc.anything()), fc.array(fc.anything())])('gives the target followed by the items, in order, and returns the target', (xs, ys) => {
    const target = [...xs]
    expect(Append.append(target, ys)).toBe(target)
    expect(target).toEqual([...xs, ...ys])
  })

  it('adds 1,000,000 items, where push(...items) throws RangeError', () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i)
    expect(() => [].push(...(items as never[]))).toThrow(RangeError)
    expect(Append.append([-1], items)).toHaveLength(1_000_001)
  })
})
