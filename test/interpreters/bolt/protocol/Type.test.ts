// Type: Bolt's parameter type strings parse to types that check values in Puppet's words; an
// unknown or malformed type is refused with a reason; checking never throws.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Type from '../../../../src/interpreters/bolt/protocol/Type.js'

const type = (s: string): Type.Type => {
  const t = Type.parse(s)
  if (E.isLeft(t)) throw new Error(t.left)
  return t.right
}

const json = fc.jsonValue()

describe('Bolt parameter types', () => {
  it.each([
    ['String', 'x', 3],
    ['String[1]', 'x', ''],
    ['String[1, 3]', 'abc', 'abcd'],
    ['Boolean', true, 'true'],
    ['Integer', 3, 3.5],
    ['Integer[0, 10]', 10, 11],
    ['Float', 1.5, 1],
    ['Numeric', 1, '1'],
    ['Optional[String]', null, 1],
    ['Array[String]', ['a', 'b'], ['a', 1]],
    ['Array[Integer, 1]', [1], []],
    ['Array', [1, 'a', null], 'a'],
    ['Hash', { a: [1] }, [1]],
    ['Hash[String, Integer]', { a: 1 }, { a: 'x' }],
    ["Enum['a', 'b']", 'b', 'c'],
    ['Enum[a, b]', 'a', 'A'],
    ['Variant[String, Integer]', 1, true],
    ['Optional[Array[Enum["x"]]]', ['x'], ['y']],
    ['Undef', null, 0],
  ])('%s accepts %j and refuses %j', (text, good, bad) => {
    const t = type(text)
    expect(Type.check(t, good)).toBeUndefined()
    expect(Type.check(t, bad)).toMatch(/^expects /)
  })

  it('says what it expected and what it got, as Puppet does', () => {
    expect(Type.check(type('String'), 3)).toBe('expects a String value, got Integer')
    expect(Type.check(type('Integer'), 'x')).toBe('expects an Integer value, got String')
    expect(Type.check(type("Enum['a', 'b']"), 'c')).toBe("expects a match for Enum['a', 'b'], got String")
    expect(Type.check(type('Array[String]'), null)).toBe('expects an Array[String] value, got Undef')
    expect(Type.check(type('Hash'), [])).toBe('expects a Hash value, got Array')
  })

  it('takes Data and Any for any JSON value, and a missing value only where undef is accepted', () => {
    for (const t of ['Data', 'Any', 'Optional[String]', 'Variant[Undef, String]', 'Undef']) expect(Type.acceptsUndef(type(t))).toBe(true)
    for (const t of ['String', 'Boolean', 'Array', 'Hash', 'Enum[a]', 'Variant[String, Integer]']) expect(Type.acceptsUndef(type(t))).toBe(false)
  })

  it.each([
    ['Strin', /Strin is not a type plait knows/],
    ['String[', /not closed/],
    ['Optional', /exactly one type/],
    ['Optional[String, Integer]', /exactly one type/],
    ['Boolean[1]', /Boolean takes no parameters/],
    ['String[x]', /x is not an integer bound/],
    ['Enum[]', /at least one value/],
    ['String]', /unexpected \]/],
    ['', /ends too early/],
    ['Sensitive[String]', /not a type plait knows/],
  ])('refuses the type %j', (text, why) => {
    const t = Type.parse(text)
    expect(E.isLeft(t) && t.left).toMatch(why)
  })

  /** Type strings as metadata writes them, nested. */
  const written: fc.Arbitrary<string> = fc.letrec<{ t: string }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('String', 'String[1]', 'Integer[-3, 5]', 'Boolean', 'Data', 'Any', "Enum['a', 'b c', \"d\"]", 'Undef'),
      tie('t').map((x) => `Optional[${x}]`),
      tie('t').map((x) => `Array[${x}, 1, 3]`),
      tie('t').map((x) => `Hash[String, ${x}]`),
      fc.tuple(tie('t'), tie('t')).map(([x, y]) => `Variant[${x}, ${y}]`),
    ),
  })).t

  test.prop([written])('reads every nested type it shows, to the same type (law: round trip)', (text) => {
    const t = type(text)
    expect(type(Type.show(t))).toEqual(t)
  })

  it('reads a type nested as deep as its length allows (each level was read again, as a longer text)', () => {
    const deep = `${'Optional['.repeat(400)}String${']'.repeat(400)}`
    expect(deep.length).toBeLessThanOrEqual(Type.maxLength)
    let t = type(deep)
    for (let k = 0; k < 400; k++) t = t._tag === 'Optional' ? t.of : t
    expect(t).toEqual({ _tag: 'String', min: 0, max: Infinity })
    expect(Type.parse(`Array[${'Array['.repeat(300)}Integer${']'.repeat(300)}, 1, x]`)).toEqual(E.left('x is not an integer bound'))
  })

  it('refuses a type string longer than its limit', () => {
    expect(Type.parse(`Optional[${'x'.repeat(Type.maxLength)}]`)).toEqual(E.left(`the type is longer than ${Type.maxLength} characters`))
  })

  test.prop([fc.constantFrom('String', 'Integer[1,5]', 'Optional[Array[Hash[String, Data]]]', "Enum['a']", 'Variant[Boolean, Float]', 'Numeric', 'Any'), json])('shows a type as a string that parses to the same type (law: round trip)', (text) => {
    const t = type(text)
    expect(type(Type.show(t))).toEqual(t)
  })

  test.prop([fc.string({ maxLength: 60 }), fc.anything()])('never throws, whatever the type string and the value (law: totality)', (text, v) => {
    const t = Type.parse(text)
    if (E.isRight(t)) expect(['string', 'undefined']).toContain(typeof Type.check(t.right, v))
  })

  test.prop([json])('Any and Data accept every JSON value (law)', (v) => {
    expect(Type.check(type('Any'), v)).toBeUndefined()
    expect(Type.check(type('Data'), v)).toBeUndefined()
  })
})
