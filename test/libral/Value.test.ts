import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Value from '../../src/interpreters/libral/protocol/Value.js'

const right = <A>(e: E.Either<string, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left)
  return e.right
}

describe('Value.parseType', () => {
  it.each([
    ['string', 'string'],
    ['boolean', 'boolean'],
    ['array[string]', 'array[string]'],
    ['array [ string ] ', 'array[string]'],
    ['enum[present, absent]', 'enum[present, absent]'],
    ['enum[ running,stopped ]', 'enum[running, stopped]'],
  ])('reads %s', (text, formatted) => {
    expect(Value.formatType(right(Value.parseType(text)))).toBe(formatted)
  })

  it.each([
    ['integer', 'unknown type'],
    ['array[integer]', 'unknown type'],
    ['enum[]', 'lists no options'],
    ['enum[a, , b]', 'must be letters'],
    ['enum[a b]', 'must be letters'],
    ['enum[a, a]', 'listed twice'],
  ])('refuses %s', (text, why) => {
    const r = Value.parseType(text)
    expect(E.isLeft(r) && r.left).toContain(why)
  })
})

describe('Value.readText', () => {
  it('reads booleans in any case and nothing else', () => {
    expect(Value.readText(Value.boolean, 'TRUE')).toEqual(E.right(true))
    expect(Value.readText(Value.boolean, 'false')).toEqual(E.right(false))
    expect(E.isLeft(Value.readText(Value.boolean, 'yes'))).toBe(true)
  })

  it('reads arrays comma-separated, the empty text as the empty list, and refuses blank entries', () => {
    expect(Value.readText(Value.arrayString, 'a, b,c')).toEqual(E.right(['a', 'b', 'c']))
    expect(Value.readText(Value.arrayString, '')).toEqual(E.right([]))
    expect(E.isLeft(Value.readText(Value.arrayString, 'a,,b'))).toBe(true)
  })

  it('refuses an enum value that is not an option', () => {
    const t = Value.enumOf(['present', 'absent'])
    expect(Value.readText(t, 'absent')).toEqual(E.right('absent'))
    const r = Value.readText(t, 'Absent')
    expect(E.isLeft(r) && r.left).toContain('not one of present, absent')
  })

  const item = fc.stringMatching(/^[A-Za-z0-9_.\-/]([A-Za-z0-9_.\-/ ]{0,8}[A-Za-z0-9_.\-/])?$/)
  fcTest.prop([fc.oneof(fc.string(), fc.boolean(), fc.array(item, { maxLength: 5 }))])('writeText then readText gives the value back', (v) => {
    const t: Value.DataType = typeof v === 'boolean' ? Value.boolean : Array.isArray(v) ? Value.arrayString : Value.string
    expect(Value.equals(right(Value.readText(t, right(Value.writeText(v)))), v)).toBe(true)
  })

  it('refuses to write an array entry that text can not carry back', () => {
    expect(E.isLeft(Value.writeText(['a,b']))).toBe(true)
    expect(E.isLeft(Value.writeText([' a']))).toBe(true)
    expect(E.isLeft(Value.writeText(['']))).toBe(true)
  })
})

describe('Value.decode (manifest values)', () => {
  it('a boolean is not a string, and a string is not a boolean', () => {
    const s = Value.decode(Value.string, true)
    expect(E.isLeft(s) && s.left).toContain('quote it')
    expect(E.isLeft(Value.decode(Value.boolean, 'true'))).toBe(true)
    expect(Value.decode(Value.boolean, false)).toEqual(E.right(false))
  })

  it('takes numbers as their text for strings and enums, and one string as a one-item list', () => {
    expect(Value.decode(Value.string, 1500)).toEqual(E.right('1500'))
    expect(Value.decode(Value.enumOf(['1', '2']), 2)).toEqual(E.right('2'))
    expect(Value.decode(Value.arrayString, 'a')).toEqual(E.right(['a']))
    const r = Value.decode(Value.arrayString, ['a', true])
    expect(E.isLeft(r) && r.left).toContain('item 2')
  })
})

describe('Value.equals', () => {
  it('is type-exact', () => {
    expect(Value.equals('true', true)).toBe(false)
    expect(Value.equals(['a'], 'a')).toBe(false)
    expect(Value.equals(['a', 'b'], ['a', 'b'])).toBe(true)
    expect(Value.equals(undefined, '')).toBe(false)
  })
})

describe('Value.render', () => {
  it("quotes as ralsh did and escapes what would break the line", () => {
    expect(Value.render("it's")).toBe("'it\\'s'")
    expect(Value.render('a\nb')).toBe("'a\\nb'")
    expect(Value.render(true)).toBe("'true'")
    expect(Value.render(['a', 'b'])).toBe("['a', 'b']")
  })
})
