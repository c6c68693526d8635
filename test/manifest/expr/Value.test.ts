import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Json from '../../../src/manifest/expr/Json.js'
import * as Value from '../../../src/manifest/expr/Value.js'

describe('Value', () => {
  it('makes whole numbers ints and others floats from plain data', () => {
    expect(Value.fromJS({ a: 1, b: 1.5, c: [2], d: null })).toEqual(Value.map([['a', 1n], ['b', 1.5], ['c', [2n]], ['d', null]]))
    expect(Value.fromJS(2 ** 60)).toBe(2 ** 60)
  })

  it('keeps maps free of prototype keys', () => {
    const m = Value.fromJS(JSON.parse('{"__proto__": 1}')) as Value.ValueMap
    expect(Value.get(m, '__proto__')).toBe(1n)
    expect(Value.get(m, 'toString')).toBeUndefined()
  })

  it.each([
    [1, '1'],
    [0.5, '0.5'],
    [123456, '123456'],
    [1e6, '1e+06'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-10, '-2.5e-10'],
    [Infinity, '+Inf'],
  ])('formats the float %d as Go does: %s', (f, want) => {
    expect(Value.formatFloat(f)).toBe(want)
  })

  it('reads calendar fields without a Date', () => {
    const t = Value.time('2000-02-29T23:59:58.25+01:00')!
    expect(Value.isoTime(t)).toBe('2000-02-29T22:59:58.25Z')
    expect(Value.calendar(Value.time('1969-12-31T00:00:00Z')!)).toEqual(
      expect.objectContaining({ year: 1969, month: 12, day: 31, weekday: 3, yearDay: 365 }),
    )
    expect(Value.time('2024-13-01T00:00:00Z')).toBeUndefined()
  })

  fcTest.prop([fc.integer({ min: -62135596800000, max: 253402300799999 })])('an RFC 3339 time reads back as the same instant', (ms) => {
    const t = new Value.Time(ms)
    expect(Value.time(Value.isoTime(t))).toEqual(t)
  })
})

describe('Json', () => {
  it('encodes as Go does: sorted keys, two-space indentation, HTML-safe', () => {
    const v = Value.fromJS({ b: [1, 'x<y>&'], a: { c: null }, e: [], f: {} })
    expect(Json.encode(v)).toEqual(E.right('{\n  "a": {\n    "c": null\n  },\n  "b": [\n    1,\n    "x\\u003cy\\u003e\\u0026"\n  ],\n  "e": [],\n  "f": {}\n}'))
    expect(Json.encode(1e21)).toEqual(E.right('1e+21'))
    expect(Json.encode(1e-7)).toEqual(E.right('1e-7'))
    expect(Json.encode(NaN)).toEqual(E.left('json: unsupported value: NaN'))
  })

  it('decodes numbers as floats and words errors as Go does', () => {
    expect(Json.decode('[1, {"a": 2}]')).toEqual(E.right([1, Value.map([['a', 2]])]))
    expect(Json.decode('')).toEqual(E.left('unexpected end of JSON input'))
    expect(Json.decode('[1,]')).toEqual(E.left("invalid character ']' looking for beginning of value"))
  })
})

describe('Value.compareStrings', () => {
  fcTest.prop([fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })])('orders as Go orders UTF-8 bytes', (a, b) => {
    const ea = Value.utf8.encode(a)
    const eb = Value.utf8.encode(b)
    let bytes = ea.length - eb.length
    for (let i = 0; i < Math.min(ea.length, eb.length); i += 1) {
      if (ea[i] !== eb[i]) {
        bytes = ea[i]! - eb[i]!
        break
      }
    }
    expect(Math.sign(Value.compareStrings(a, b))).toBe(Math.sign(bytes))
  })
})

describe('Json limits', () => {
  it('refuses absurdly deep JSON with an error', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000)
    expect(E.isLeft(Json.decode(deep))).toBe(true)
  })
})
