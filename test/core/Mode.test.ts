import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Mode from '../../src/core/Mode.js'

describe('Mode', () => {
  it.each([
    ['0644', 0o644],
    ['644', 0o644],
    ['0o755', 0o755],
    ['0O700', 0o700],
    ['0777', 0o777],
    ['0', 0],
  ])('accepts %s', (text, value) => {
    expect(Mode.parse(text)).toEqual(E.right(value))
  })

  it.each([
    ['0888', 'not an octal number'],
    ['1777', 'exceeds 0777'],
    ['rw-r--r--', 'not an octal number'],
    ['', 'empty'],
    ['0o', 'empty'],
    ['-644', 'not an octal number'],
  ])('refuses %s', (text, why) => {
    const r = Mode.parse(text)
    expect(E.isLeft(r) && r.left.includes(why)).toBe(true)
  })

  fcTest.prop([fc.integer({ min: 0, max: 0o777 })])('format then parse gives the mode back', (m) => {
    const text = Mode.format(m)
    expect(text).toMatch(/^0[0-7]{3}$/)
    expect(Mode.parse(text)).toEqual(E.right(m))
  })
})
