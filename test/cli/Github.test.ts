// Github: workflow annotations at the manifest lines, escaped by GitHub's rules, within its
// per-step limit of annotations of each type.
import { test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Github from '../../src/cli/Github.js'
import * as Review from '../../src/cli/Review.js'
import { corpus, hostile, plan } from './plans.js'

/** GitHub's unescaping of a property value or a message. */
const unescape = (s: string): string => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')

describe('Github escaping', () => {
  test.prop([hostile])('a property: no CR, LF, ":" or ","; GitHub reads back the same text', (s) => {
    const e = Github.escapeProperty(s)
    expect(e).not.toMatch(/[\r\n:,]/)
    expect(unescape(e)).toBe(s)
  })

  test.prop([hostile])('a message: no CR or LF; GitHub reads back the same text', (s) => {
    const e = Github.escapeData(s)
    expect(e).not.toMatch(/[\r\n]/)
    expect(unescape(e)).toBe(s)
  })
})

describe('Github.plan', () => {
  test.prop([plan(40)], { numRuns: 150 })('one command a line, at most 10 of each type, every changing resource annotated or rolled up', (p) => {
    const lines = Github.plan(p).trimEnd().split('\n')
    expect(lines.pop()).toMatch(/^Plan: /)
    for (const l of lines) expect(l).toMatch(/^::(notice|warning)( file=[^,:]*,line=[0-9]+,title=[^,:]*)?::/)
    const of = (level: string): string[] => lines.filter((l) => l.startsWith(`::${level}`))
    const destroying = new Set(Review.destructive(p).map((d) => d.resource))
    const changing = p.resources.filter((r) => r.steps.length > 0)
    for (const [level, rs] of [['warning', changing.filter((r) => destroying.has(r))], ['notice', changing.filter((r) => !destroying.has(r))]] as const) {
      const ls = of(level)
      expect(ls.length).toBe(Math.min(rs.length, Github.perType))
      const rolled = ls.find((l) => l.startsWith(`::${level}::`))
      const annotated = ls.length - (rolled === undefined ? 0 : 1)
      const rest = rolled === undefined ? 0 : Number(/::([0-9]+) more/.exec(rolled)![1])
      expect(annotated + rest).toBe(rs.length)
    }
  })

  it('puts a warning at the line of a deletion and a notice at a creation', () => {
    const p = corpus.find((x) => x.resources.some((r) => r.action === 'delete'))!
    const r = p.resources.find((x) => x.action === 'delete')!
    const at = Review.location(r)
    const out = Github.plan(p)
    expect(out).toContain(`::warning file=${at.file},line=${at.line},title=plait%3A destructive change::- ${r.id}%0A${r.steps[0]!._tag}: `)
  })

  it('keeps a hostile name from ending the command or starting another', () => {
    const p = corpus.find((x) => x.resources.some((r) => r.action === 'create'))!
    const r = p.resources.find((x) => x.action === 'create')!
    const evil = { ...r, id: 'file#/a\n::error::forged', at: 'm,x:y.yaml:4:2' }
    const out = Github.plan({ ...p, resources: [evil] })
    expect(out.split('\n').filter((l) => l.startsWith('::error'))).toEqual([])
    expect(out).toContain('file=m%2Cx%3Ay.yaml,line=4,')
  })
})
