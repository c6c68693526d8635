import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { memo, once, recent } from '../../src/core/Memo.js'

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

describe('recent', () => {
  fcTest.prop([fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 40 }), fc.integer({ min: 1, max: 4 })])(
    'gives make’s answer, and makes it again only for a key it forgot: the first asked of more than `most` kept',
    (keys, most) => {
      const kept = recent<string | undefined>(most)
      const model: string[] = [] // the keys held, first asked first
      for (const k of keys) {
        let made = false
        const answer = kept(k, () => {
          made = true
          return k === 'e' ? undefined : k.toUpperCase()
        })
        expect(answer).toBe(k === 'e' ? undefined : k.toUpperCase())
        expect(made).toBe(!model.includes(k))
        if (!model.includes(k)) {
          if (model.length >= most) model.shift()
          model.push(k)
        }
      }
    },
  )
})

describe('once', () => {
  fcTest.prop([fc.nat(5), fc.constantFrom(undefined, 0, 'x')])('makes its value on the first call only, an undefined one too, and gives it every time', (calls, value) => {
    let made = 0
    const get = once(() => {
      made++
      return value
    })
    expect(made).toBe(0)
    for (let i = 0; i < calls; i++) expect(get()).toBe(value)
    expect(made).toBe(calls === 0 ? 0 : 1)
  })
})
