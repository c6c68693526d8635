// UnifiedDiff: two headers without a trailing tab, then the hunks exactly as the diff library
// draws them, so that the diff still applies; a line whose text looks like a header ("-- x",
// "++ y", a trailing tab) is a hunk line, drawn as it is. The least diff is searched for up to an
// edit limit; beyond it the diff is the coarse one, which applies as well.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import { applyPatch, createTwoFilesPatch, formatPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import * as UnifiedDiff from '../../src/core/UnifiedDiff.js'

const line = fc.constantFrom('a', 'b', 'c', '-- x', '++ y', '--- z\t', '+++ w', '@@ v', 'Index: u', '====', '\\ t', '', 'd\r')
const textOf = (ls: ReadonlyArray<string>): string => ls.map((l) => l + '\n').join('')
/** A text of such lines whose last line may lack its line break. */
const text = fc.tuple(fc.array(line, { maxLength: 12 }), fc.boolean()).map(([ls, cut]) => (cut ? textOf(ls).replace(/\n$/, '') : textOf(ls)))
/** The changed lines of a diff: what the search counts as edits. */
const edits = (ls: ReadonlyArray<string>): number => ls.slice(2).filter((l) => l.startsWith('-') || l.startsWith('+')).length
/** The library's least diff, searched for without a limit, as `lines` draws it. */
const least = (before: string, after: string): ReadonlyArray<string> => UnifiedDiff.lines('/f', '/f', before, after, Infinity)

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

  fcTest.prop([text, text, fc.nat({ max: 8 })])('under any edit limit, the diff applies to the old text to give the new', (before, after, limit) => {
    fc.pre(before !== after)
    const drawn = UnifiedDiff.text('/f', '/f', before, after, limit)
    expect(drawn.startsWith('--- /f\n+++ /f\n@@ ')).toBe(true)
    expect(applyPatch(before, drawn)).toBe(after)
  })

  fcTest.prop([text, text, fc.nat({ max: 30 })])('is the least diff when it needs at most the limit of edits, else the coarse one', (before, after, limit) => {
    fc.pre(before !== after)
    const exact = least(before, after)
    const coarse = [...formatPatch(UnifiedDiff.coarse('/f', '/f', before, after)).split('\n').slice(2)].map((l, i) => (i < 2 ? l.replace(/\t$/, '') : l))
    expect(UnifiedDiff.lines('/f', '/f', before, after, limit)).toEqual(edits(exact) <= limit ? exact : coarse)
  })

  fcTest.prop([fc.array(fc.constantFrom('a', 'b', 'c\r'), { maxLength: 10 }), fc.array(fc.constantFrom('x', 'y', 'z\r'), { maxLength: 10 }), fc.boolean()])(
    'is the least diff, coarse or not, when the texts share no line',
    (a, b, cut) => {
      const before = textOf(a)
      const after = cut ? textOf(b).replace(/\n$/, '') : textOf(b)
      fc.pre(before !== after)
      expect(UnifiedDiff.lines('/f', '/f', before, after, 0)).toEqual(least(before, after))
    },
  )

  it('keeps the shared first and last lines as context and replaces everything between', () => {
    const before = textOf(['1', '2', '3', '4', 'a', 'b', 'c', '5', '6', '7', '8'])
    const after = textOf(['1', '2', '3', '4', 'b', 'x', '5', '6', '7', '8'])
    expect(UnifiedDiff.lines('/f', '/f', before, after, 0)).toEqual(['--- /f', '+++ /f', '@@ -2,9 +2,8 @@', ' 2', ' 3', ' 4', '-a', '-b', '-c', '+b', '+x', ' 5', ' 6', ' 7', ''])
    // the least diff keeps "b"
    expect(UnifiedDiff.lines('/f', '/f', before, after)).toEqual(['--- /f', '+++ /f', '@@ -2,9 +2,8 @@', ' 2', ' 3', ' 4', '-a', ' b', '-c', '+x', ' 5', ' 6', ' 7', ''])
  })

  it('draws a new file and an emptied one with the empty side at line 0', () => {
    expect(UnifiedDiff.lines('/dev/null', '/f', '', 'a\nb', 0)).toEqual(['--- /dev/null', '+++ /f', '@@ -0,0 +1,2 @@', '+a', '+b', '\\ No newline at end of file', ''])
    expect(UnifiedDiff.lines('/f', '/f', 'a\n', '', 0)).toEqual(['--- /f', '+++ /f', '@@ -1,1 +0,0 @@', '-a', ''])
  })

  it('does not search for the least diff of two rewritten files of 9,000 lines (which took minutes): one hunk of every line', () => {
    const rewritten = (tag: string): string => Array.from({ length: 9000 }, (_, i) => `${tag} line ${i}\n`).join('')
    const ls = UnifiedDiff.lines('/f', '/f', rewritten('old'), rewritten('new'))
    expect(ls.slice(0, 3)).toEqual(['--- /f', '+++ /f', '@@ -1,9000 +1,9000 @@'])
    expect(edits(ls)).toBe(18000)
    expect(ls).toHaveLength(18004)
  })

  it("is applied by GNU patch, the tool a reader would apply it with, under the limit or beyond it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'plait-udiff-'))
    try {
      const before = textOf(['keep 1', 'keep 2', 'keep 3', 'keep 4', 'old a', 'same', 'old b', 'keep 5', 'keep 6']) + 'no break'
      const after = textOf(['keep 1', 'keep 2', 'keep 3', 'keep 4', 'new a', 'same', 'new b', 'keep 5', 'keep 6', 'no break'])
      for (const limit of [0, UnifiedDiff.editLimit]) {
        writeFileSync(join(dir, 'f'), before)
        writeFileSync(join(dir, 'f.diff'), UnifiedDiff.text('f', 'f', before, after, limit))
        execFileSync('patch', ['--quiet', '--batch', '--no-backup-if-mismatch', '-d', dir, '-p0', '-i', join(dir, 'f.diff')])
        expect(readFileSync(join(dir, 'f'), 'utf8')).toBe(after)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('searches for the least diff as the library draws it, limit aside', () => {
    const before = textOf(['a', 'b', 'c'])
    const after = textOf(['a', 'c', 'd'])
    const library = createTwoFilesPatch('/f', '/f', before, after, '', '', { context: 3 }).split('\n')
    expect(UnifiedDiff.lines('/f', '/f', before, after)).toEqual([...library.slice(2, 4).map((l) => l.replace(/\t$/, '')), ...library.slice(4)])
  })
})
