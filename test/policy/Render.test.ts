// Report, Review and Sarif: a verdict as text, JSON, Markdown within its byte budget, GitHub
// annotations within GitHub's limits, and a valid minimal SARIF 2.1.0 log; hostile text from a
// plan or a policy never reaches a terminal, a comment or a workflow command unescaped.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as Engine from '../../src/policy/Engine.js'
import * as Report from '../../src/policy/Report.js'
import * as Review from '../../src/policy/Review.js'
import * as Sarif from '../../src/policy/Sarif.js'
import * as Verdict from '../../src/policy/Verdict.js'
import * as Markdown from '../../src/cli/Markdown.js'
import * as Github from '../../src/cli/Github.js'
import type * as Policy from '../../src/policy/Policy.js'
import { hostile, plan } from '../cli/plans.js'
import { policies } from './support.js'

const finding = (rule: string, level: Policy.Level, message: string, file = 'site.yaml', line = 3): Engine.Finding => ({ rule, level, message, at: Position.make(file, line, 5), resource: `file#${message}` })
const rules = (names: ReadonlyArray<[string, Policy.Level]>): Policy.Policy => ({
  file: 'p.yaml',
  rules: names.map(([name, level]) => ({ name, level, message: 'm', messageWhere: { base: Position.make('p.yaml', 1, 1) }, test: { _tag: 'Deny', expression: { source: 'true', node: { _tag: 'Bool', value: true, at: 0 }, where: { base: Position.make('p.yaml', 1, 1) } } }, at: Position.make('p.yaml', 1, 1) })),
})
const verdictOf = (findings: ReadonlyArray<Engine.Finding>, overrides: ReadonlyArray<Verdict.Override> = []): Verdict.Verdict => {
  const names = [...new Map(findings.map((f) => [f.rule, f.level])).entries()]
  return Verdict.of(rules(names), { findings, errors: [] }, overrides)
}

const ESC = '\x1b'

describe('Report.text', () => {
  it('prints each finding at file:line:col with its level, the overrides with their reasons, and the verdict', () => {
    const v = verdictOf([finding('no-delete', 'hard', 'old is deleted', 'site.yaml', 8), finding('big', 'soft', 'too big', 'site.yaml', 1)], [{ rule: 'big', reason: 'release week' }])
    expect(Report.text(v)).toBe(
      [
        'site.yaml:8:5: hard: no-delete: old is deleted [file#old is deleted]',
        'site.yaml:1:5: soft (overridden): big: too big [file#too big]',
        'override: big (soft): release week',
        'policy failed: 1 hard, 1 soft (1 overridden), 0 advisory findings',
        '',
      ].join('\n'),
    )
  })

  test.prop([hostile, hostile, hostile])('shows no control character of a message, rule, file or reason to a terminal', (message, file, reason) => {
    const v = verdictOf([finding('r', 'soft', message, file)], [{ rule: 'r', reason }])
    const controls = [...Report.text(v).replace(/\n/g, '')].filter((c) => { const n = c.codePointAt(0)!; return n < 0x20 || (n >= 0x7f && n <= 0x9f) || n === 0x202e })
    expect(controls).toEqual([])
  })
})

describe('Report.json', () => {
  it('keeps every finding with its position and the override reasons', () => {
    const v = verdictOf([finding('big', 'soft', 'too big')], [{ rule: 'big', reason: 'ok by ops' }])
    expect(Report.json(v, 'p.yaml', 'sha256:1')).toMatchObject({
      passed: true,
      findings: [{ rule: 'big', level: 'soft', file: 'site.yaml', line: 3, col: 5, overridden: 'ok by ops', fails: false }],
      overrides: [{ rule: 'big', reason: 'ok by ops', used: true }],
    })
  })
})

describe('Sarif.log', () => {
  it('is a minimal SARIF 2.1.0 log: rules, results with mapped levels, physical locations, suppressions for overrides', () => {
    const v = verdictOf([finding('h', 'hard', 'x', '/abs/site yaml', 4), finding('s', 'soft', 'y'), finding('a', 'advisory', 'z')], [{ rule: 's', reason: 'why' }])
    const log = Sarif.log(v, '1.2.3') as { version: string; $schema: string; runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string }> } }; results: Array<Record<string, unknown>> }> }
    expect(log.version).toBe('2.1.0')
    expect(log.$schema).toMatch(/sarif-2\.1\.0/)
    const run = log.runs[0]!
    expect(run.tool.driver.name).toBe('plait')
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['h', 's', 'a'])
    expect(run.results.map((r) => [r['ruleId'], r['ruleIndex'], r['level']])).toEqual([['h', 0, 'error'], ['s', 1, 'warning'], ['a', 2, 'note']])
    expect(run.results[0]!['locations']).toEqual([{ physicalLocation: { artifactLocation: { uri: 'file:///abs/site%20yaml' }, region: { startLine: 4, startColumn: 5 } } }])
    expect(run.results[1]!['suppressions']).toEqual([{ kind: 'external', status: 'accepted', justification: 'why' }])
    expect(run.results[0]!['suppressions']).toBeUndefined()
  })

  it('makes relative manifest paths relative URI references', () => {
    expect(Sarif.uri('conf/site.yaml')).toBe('conf/site.yaml')
    expect(Sarif.uri('a#b?c.yaml')).toBe('a%23b%3Fc.yaml')
  })
})

describe('Review.markdown', () => {
  test.prop([fc.array(fc.tuple(hostile, fc.constantFrom<Policy.Level>('advisory', 'soft', 'hard')), { maxLength: 80 }), fc.integer({ min: Markdown.minimumBytes, max: 20_000 })], { numRuns: 100 })(
    'fits any budget; every finding is a row or counted in the last line',
    (xs, budget) => {
      const v = verdictOf(xs.map(([m, l], i) => finding(`r${i}`, l, m)))
      const md = Review.markdown(v, 'p.yaml', budget)
      expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(budget)
      const rows = md.split('\n').filter((l) => /^\| (advisory|soft|hard)/.test(l)).length
      const more = /^([0-9]+) more findings?, see the JSON or SARIF report\.$/m.exec(md)
      expect(rows + (more === null ? 0 : Number(more[1]))).toBe(xs.length)
    },
  )

  test.prop([hostile])('a hostile message cannot add a table cell, a tag or a line', (m) => {
    const md = Review.markdown(verdictOf([finding('r', 'hard', m)]), 'p.yaml')
    const row = md.split('\n').find((l) => l.startsWith('| hard'))!
    expect(row.split('|').length).toBe(6)
    expect(row).not.toMatch(/<(?!\/?code>)/)
  })
})

describe('Review.github', () => {
  it('annotates each finding at its manifest line: error when it fails, warning when overridden, notice when advisory', () => {
    const v = verdictOf([finding('h', 'hard', 'x'), finding('s', 'soft', 'y'), finding('a', 'advisory', 'z')], [{ rule: 's', reason: 'ok' }])
    expect(Review.github(v).split('\n')).toEqual([
      '::error file=site.yaml,line=3,title=plait policy%3A h::h (hard): x',
      '::warning file=site.yaml,line=3,title=plait policy%3A s::s (soft): y (overridden: ok)',
      '::notice file=site.yaml,line=3,title=plait policy%3A a::a (advisory): z',
      'override: s (soft): ok',
      'policy failed: 1 hard, 1 soft (1 overridden), 1 advisory findings',
      '',
    ])
  })

  test.prop([fc.array(fc.tuple(hostile, fc.constantFrom<Policy.Level>('advisory', 'soft', 'hard')), { maxLength: 40 })])('stays within GitHub\'s annotations per level, and no hostile text starts a command', (xs) => {
    const out = Review.github(verdictOf(xs.map(([m, l], i) => finding(`r${i}`, l, m, m))))
    const lines = out.split('\n')
    for (const level of ['error', 'warning', 'notice']) expect(lines.filter((l) => l.startsWith(`::${level}`)).length).toBeLessThanOrEqual(Github.perType)
    expect(lines.filter((l) => l.startsWith('::')).length).toBe(Math.min(xs.filter(([, l]) => l === 'hard' || l === 'soft').length, Github.perType) + Math.min(xs.filter(([, l]) => l === 'advisory').length, Github.perType))
    expect(out).not.toContain(ESC)
  })
})

describe('renderers on real verdicts', () => {
  test.prop([plan(10), policies], { numRuns: 30 })('every format renders any verdict; JSON and SARIF are JSON', (p, pol) => {
    const v = Verdict.of(pol, Engine.check(pol, p), [])
    expect(Report.text(v).endsWith('\n')).toBe(true)
    expect(() => JSON.stringify(Report.json(v, 'p.yaml', undefined))).not.toThrow()
    expect((Sarif.log(v, '0') as { runs: Array<{ results: unknown[] }> }).runs[0]!.results).toHaveLength(v.findings.length)
    expect(Buffer.byteLength(Review.markdown(v, 'p.yaml'), 'utf8')).toBeLessThanOrEqual(Markdown.defaultMaxBytes)
  })
})
