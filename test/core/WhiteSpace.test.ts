// WhiteSpace: trimming by index gives what the regular expressions it replaced gave (kept here as
// the models), for every code unit and every mix of white space, and stays linear where they were not.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as WhiteSpace from '../../src/core/WhiteSpace.js'

// the models: the regular expressions Validators.ts (no flag), Scan.ts (`u`) and Tree.ts used
const goClass = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const goTrimModel = (s: string): string => s.replace(new RegExp(`^${goClass}+|${goClass}+$`, 'g'), '')
const goTrimModelU = (s: string): string => s.replace(new RegExp(`^${goClass}+|${goClass}+$`, 'gu'), '')
const blankTrimModel = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/gu, '')
const blankTrimEndModel = (s: string): string => s.replace(/[ \t]+$/u, '')

/** Strings that mix every kind of white space (Go's, JavaScript's only, neither), colons, newlines, surrogates and letters, often in runs. */
const mixed = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u0085', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u202f', '\u3000', '\ufeff', '\u180e'),
      fc.constantFrom(':', ': ', 'a', 'x:y', '\ud83d\ude00', '\ud800', '\udc00', '(', ')', '\\', '-'),
      fc.tuple(fc.constantFrom(' ', '\t', '\n', '\u3000'), fc.integer({ min: 2, max: 12 })).map(([c, n]) => c.repeat(n)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''))

describe('the character sets', () => {
  it('Go holds exactly the characters of the class strings.TrimSpace was written as, for every UTF-16 code unit', () => {
    const rx = new RegExp(`^${goClass}$`)
    const wrong: number[] = []
    for (let u = 0; u <= 0xffff; u++) if (WhiteSpace.go(u) !== rx.test(String.fromCharCode(u))) wrong.push(u)
    expect(wrong).toEqual([])
  })

  it('goRegexp is Go regexp `\\s` ([\\t\\n\\f\\r ], no \\v) and blank is space and tab, for every UTF-16 code unit', () => {
    const wrong: number[] = []
    for (let u = 0; u <= 0xffff; u++) {
      const c = String.fromCharCode(u)
      if (WhiteSpace.goRegexp(u) !== /^[\t\n\f\r ]$/.test(c) || WhiteSpace.blank(u) !== /^[ \t]$/.test(c)) wrong.push(u)
    }
    expect(wrong).toEqual([])
  })
})

describe('trimming', () => {
  test.prop([mixed])('trimGo gives what the regex of Go white space gave, with and without the u flag', (s) => {
    expect(WhiteSpace.trimGo(s)).toBe(goTrimModel(s))
    expect(WhiteSpace.trimGo(s)).toBe(goTrimModelU(s))
  })

  test.prop([mixed])('trim and trimEnd by blanks give what `^[ \\t]+|[ \\t]+$` and `[ \\t]+$` gave', (s) => {
    expect(WhiteSpace.trim(s, WhiteSpace.blank)).toBe(blankTrimModel(s))
    expect(WhiteSpace.trimEnd(s, WhiteSpace.blank)).toBe(blankTrimEndModel(s))
  })

  it('trims a string of white space only to the empty string', () => {
    expect(WhiteSpace.trimGo(' \t\n\u3000\u0085')).toBe('')
    expect(WhiteSpace.trim(' \t \t', WhiteSpace.blank)).toBe('')
    expect(WhiteSpace.trimEnd('\t \t', WhiteSpace.blank)).toBe('')
  })

  it('keeps 200,000 white-space characters inside the string and trims those around it', () => {
    const inner = `1${' '.repeat(200_000)}x`
    expect(WhiteSpace.trimGo(`\u3000 ${inner}\n\u00a0`)).toBe(inner)
    expect(WhiteSpace.trim(`\t${inner} `, WhiteSpace.blank)).toBe(inner)
    expect(WhiteSpace.trimEnd(`${inner}${'\t'.repeat(200_000)}`, WhiteSpace.blank)).toBe(inner)
    const lines = `a${'\n'.repeat(200_000)}b`
    expect(WhiteSpace.trimGo(`\n${lines}\n`)).toBe(lines)
  })
})
