// Outcome and DiffPaths: what apply and diff say on fd 3, and what the spec forbids there.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as DiffPaths from '../../../../src/interpreters/holo/protocol/DiffPaths.js'
import * as Outcome from '../../../../src/interpreters/holo/protocol/Outcome.js'

describe('apply outcomes on fd 3', () => {
  it('reads each message, a repeated one and one without its newline', () => {
    expect(Outcome.parse('')).toEqual(E.right(Outcome.changed))
    expect(Outcome.parse('not changed\n')).toEqual(E.right(Outcome.notChanged))
    expect(Outcome.parse('not changed')).toEqual(E.right(Outcome.notChanged))
    expect(Outcome.parse('requires --force to overwrite\nrequires --force to overwrite\n')).toEqual(E.right(Outcome.overwrite))
    expect(Outcome.parse('requires --force to restore\n')).toEqual(E.right(Outcome.restore))
  })

  it('refuses what the spec does not allow, saying what came', () => {
    expect(Outcome.parse('changed\n')).toEqual(E.left('wrote "changed" on fd 3 (line 1), which is not one of "not changed", "requires --force to overwrite", "requires --force to restore"'))
    expect(Outcome.parse('not changed\n\n')).toEqual(E.left('wrote "" on fd 3 (line 2), which is not one of "not changed", "requires --force to overwrite", "requires --force to restore"'))
    expect(Outcome.parse('not changed\nrequires --force to restore\n')).toEqual(E.left('wrote contradicting messages on fd 3: "not changed" and "requires --force to restore"'))
    expect(Outcome.parse('x'.repeat(Outcome.maxMessages + 1))).toEqual(E.left(`wrote more than ${Outcome.maxMessages} bytes on fd 3`))
  })

  it("words a failed process in Go's words", () => {
    expect(Outcome.failed({ code: 1 })).toEqual({ _tag: 'Failed', message: 'exit status 1' })
    expect(Outcome.failed({ signal: 'SIGKILL' })).toEqual({ _tag: 'Failed', message: 'signal: killed' })
    expect(Outcome.failed({ signal: 'SIGUSR1' })).toEqual({ _tag: 'Failed', message: 'signal: SIGUSR1' })
  })

  test.prop([fc.constantFrom(Outcome.changed, Outcome.notChanged, Outcome.overwrite, Outcome.restore)])('reads back what a plugin writes for each outcome', (o) => {
    expect(Outcome.parse(Outcome.print(o))).toEqual(E.right(o))
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 200 })])('never throws on anything on fd 3', (s) => {
    const r = Outcome.parse(s)
    if (E.isLeft(r)) expect(r.left).toMatch(/fd 3/)
  })
})

describe('diff paths on fd 3', () => {
  it('reads nothing as no diff, and two NUL-terminated paths', () => {
    expect(DiffPaths.parse('')).toEqual(E.right(DiffPaths.none))
    expect(DiffPaths.parse('/var/lib/holo/x\0/etc/x\0')).toEqual(E.right(DiffPaths.paths('/var/lib/holo/x', '/etc/x')))
    expect(DiffPaths.parse('/dev/null\0target/etc/x\0')).toEqual(E.right(DiffPaths.paths('/dev/null', 'target/etc/x')))
  })

  it('refuses one path, three, a missing terminator, an empty path or a newline', () => {
    expect(DiffPaths.parse('/a\0')).toEqual(E.left('wrote "/a\\u0000" on fd 3, which is not two NUL-terminated paths'))
    expect(DiffPaths.parse('/a\0/b')).toEqual(E.left('wrote "/a\\u0000/b" on fd 3, which is not two NUL-terminated paths'))
    expect(DiffPaths.parse('/a\0/b\0/c\0')).toEqual(E.left('wrote "/a\\u0000/b\\u0000/c\\u0000" on fd 3, which is not two NUL-terminated paths'))
    expect(DiffPaths.parse('\0/b\0')).toEqual(E.left('wrote an empty first path on fd 3'))
    expect(DiffPaths.parse('/a\0/b\nc\0')).toEqual(E.left('wrote a second path with a newline on fd 3: "/b\\nc"'))
  })

  test.prop([fc.stringMatching(/^[^\0\n]{1,40}$/), fc.stringMatching(/^[^\0\n]{1,40}$/)])('reads back the paths a plugin writes', (a, b) => {
    expect(DiffPaths.parse(DiffPaths.print(DiffPaths.paths(a, b)))).toEqual(E.right(DiffPaths.paths(a, b)))
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 200 })])('never throws on anything on fd 3', (s) => {
    expect(() => DiffPaths.parse(s)).not.toThrow()
  })
})
