// History.numbers: generation numbers as people read them, consecutive runs as ranges; read back,
// the text names exactly the numbers it was given (law), in order, each once.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as History from '../../src/generations/History.js'

/** The numbers a text of `numbers` names. */
const readBack = (text: string): ReadonlyArray<number> =>
  text.split(', ').flatMap((part) => {
    const [from, to] = part.split('–').map(Number)
    return to === undefined ? [from!] : Array.from({ length: to - from! + 1 }, (_, k) => from! + k)
  })

describe('History.numbers', () => {
  test.prop([fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 60 })])('names exactly the numbers given, ascending (law)', (ns) => {
    expect(readBack(History.numbers(ns))).toEqual([...ns].sort((a, b) => a - b))
  })

  it('draws runs of three or more as ranges, two as two numbers', () => {
    expect(History.numbers([2, 1])).toBe('1, 2')
    expect(History.numbers([7, 1, 2, 3, 4, 9, 10, 12])).toBe('1–4, 7, 9, 10, 12')
    expect(History.numbers(Array.from({ length: 10000 }, (_, i) => i + 1))).toBe('1–10000')
  })
})
