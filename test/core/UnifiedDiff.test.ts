// UnifiedDiff: two headers without a trailing tab, then the hunks exactly as the diff library
// draws them, so that the diff still applies; a line whose text looks like a header ("-- x",
// "++ y", a trailing tab) is a hunk line, drawn as it is.
import { fc, test as fcTest } from '@fast-check/vitest'
import { applyPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import * as UnifiedDiff from '../../src/core/UnifiedDiff.js'

const line = fc.constantFrom('a', 'b', 'c', '-- x', '++ y', '--- z\t', '+++ w', '@@ v', 'Index: u', '====', '\\ t', '')
const textOf = (ls: ReadonlyArray<string>): string => ls.map((l) => l + '\n').join('')

describe('UnifiedDiff', () => {
  fcTest.prop([fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 12 })])('draws two headers, then hunks that apply to the old text to give the new', (a, b) => {
    const before = textOf(a)
    const after = textOf(b)
    fc.pre(before !== after)
    const ls = UnifiedDiff.lines('/f', '/f', before, after)
    expect(ls.slice(0, 3).map((l) => l.slice(0, 3))).toEqual(['---', '+++', '@@ '])
    expect(ls.slice(0, 2)).toEqual(['--- /f', '+++ /f'])
    expect(ls.at(-1)).toBe('')
    for (const l of ls.slice(2, -1)) expect(['@@', ' ', '-', '+', '\\'].some((p) => l.startsWith(p))).toBe(true)
    expect(applyPatch(before, UnifiedDiff.text('/f', '/f', before, after))).toBe(after)
  })

  it('keeps a removed line that reads like a header as it is, trailing tab and all', () => {
    const ls = UnifiedDiff.lines('/dev/null', '/f', 'a\n-- x\t\n', 'a\n')
    expect(ls).toEqual(['--- /dev/null', '+++ /f', '@@ -1,2 +1,1 @@', ' a', '--- x\t', ''])
  })
})
