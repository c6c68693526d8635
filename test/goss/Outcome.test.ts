// Outcome: OK when every check passes, CRITICAL otherwise, each failure named with kind, name,
// attribute, expected and actual, every control character visible.
import { describe, expect, it } from 'vitest'
import * as M from '../../src/goss/Matcher.js'
import * as Outcome from '../../src/goss/Outcome.js'
import type { Rule } from '../../src/goss/Rules.js'

const rule = (kind: string, name: string, checks: Rule['checks']): Rule => ({ kind, name, options: {}, checks })

describe('summarizing goss rules', () => {
  it('is OK when every check passes', () => {
    const s = Outcome.summarize([rule('file', '/etc/motd', [{ attribute: 'exists', matcher: M.equal(true) }])], [{ _tag: 'Observed', values: { exists: true } }])
    expect(s).toEqual({ status: 'OK', message: 'goss: 1 check of 1 rule passed', failures: [] })
  })
  it('is CRITICAL naming each failed check with what was expected and found', () => {
    const rules = [rule('file', '/etc/motd', [{ attribute: 'exists', matcher: M.equal(true) }, { attribute: 'mode', matcher: M.equal('0644') }]), rule('user', 'bob', [{ attribute: 'uid', matcher: M.compare('lt', 500) }])]
    const s = Outcome.summarize(rules, [{ _tag: 'Observed', values: { exists: true, mode: '0600' } }, { _tag: 'Observed', values: { exists: false } }])
    expect(s.status).toBe('CRITICAL')
    expect(s.message).toBe('goss: 2 of 3 checks failed: file "/etc/motd" mode: expected "0644", got "0600"; user "bob" uid: expected {"lt":500}, got nothing (not there)')
  })
  it('fails every check of a rule whose probe could not look, with the reason', () => {
    const s = Outcome.summarize([rule('http', 'http://x', [{ attribute: 'status', matcher: M.equal(200) }])], [{ _tag: 'Failed', reason: 'connect ECONNREFUSED' }])
    expect(s.message).toBe('goss: 1 of 1 checks failed: http "http://x" status: expected 200, got could not be checked: connect ECONNREFUSED')
  })
  it('names the patterns a text missed, and escapes what a terminal would interpret', () => {
    const s = Outcome.summarize([rule('command', 'x\x1b[2J', [{ attribute: 'stdout', matcher: { _tag: 'Patterns', patterns: ['ok', 'fine'] } }])], [{ _tag: 'Observed', values: { stdout: 'ok\n\x1b[31m' } }])
    expect(s.message).toBe('goss: 1 of 1 checks failed: command "x\\u001b[2J" stdout: expected patterns ["fine"], got no match in "ok\\n\\u001b[31m"')
    expect([...s.message].some((c) => c.charCodeAt(0) < 0x20)).toBe(false)
  })
  it('bounds the message: long values are cut and at most 20 failures named', () => {
    const rules = Array.from({ length: 25 }, (_, i) => rule('command', `c${i}`, [{ attribute: 'stdout', matcher: M.equal('x') }]))
    const s = Outcome.summarize(rules, rules.map(() => ({ _tag: 'Observed', values: { stdout: 'y'.repeat(10_000) } }) as const))
    expect(s.message).toMatch(/… \(10002 characters\)/)
    expect(s.message).toMatch(/; and 5 more$/)
    expect(s.message.length).toBeLessThan(20 * 400)
  })
})
