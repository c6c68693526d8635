import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { memo } from '../../src/core/Memo.js'

describe('memo', () => {
  fcTest.prop([fc.array(fc.string({ maxLength: 3 }), { maxLength: 30 })])('gives f’s answer and calls f once per key, undefined answers included', (keys) => {
    const calls = new Map<string, number>()
    const f = (k: string): number | undefined => {
      calls.set(k, (calls.get(k) ?? 0) + 1)
      return k.length % 2 === 0 ? undefined : k.length
    }
    const m = memo(f)
    for (const k of keys) expect(m(k)).toBe(k.length % 2 === 0 ? undefined : k.length)
    for (const k of new Set(keys)) expect(calls.get(k)).toBe(1)
    expect(calls.size).toBe(new Set(keys).size)
  })
})
