// Markdown: a plan as a pull-request comment always fits its byte budget, shows each resource whole
// or counts it, and nothing from a manifest or a machine can change the Markdown's structure.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Markdown from '../../src/cli/Markdown.js'
import * as PlanDiff from '../../src/cli/PlanDiff.js'
import * as Review from '../../src/cli/Review.js'
import * as E from 'fp-ts/lib/Either.js'
import { corpus, hostile, plan } from './plans.js'

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8')

const moreCount = (md: string): number => {
  const m = /^([0-9]+) more resources?, see the plan artifact\.$/m.exec(md)
  return m === null ? 0 : Number(m[1])
}

describe('Markdown.plan', () => {
  test.prop([plan(60), fc.integer({ min: Markdown.minimumBytes, max: 40_000 })], { numRuns: 150 })(
    'fits any budget, and every resource is shown whole or counted in the "more" line',
    (p, budget) => {
      const md = Markdown.plan(p, budget)
      expect(utf8(md)).toBeLessThanOrEqual(budget)
      const sections = Review.shown(p)
      const whole = sections.filter((r) => md.includes(Markdown.section(r)))
      expect(whole.length + moreCount(md)).toBe(sections.length)
      // cut at a resource boundary: the shown ones are a prefix, in plan order
      expect(whole).toEqual(sections.slice(0, whole.length))
      expect(md.split('<details>').length - 1).toBe(whole.length)
    },
  )

  test.prop([plan(8)])('with the default budget, a small plan is shown whole, summary first', (p) => {
    const md = Markdown.plan(p)
    expect(moreCount(md)).toBe(0)
    expect(md.startsWith('### plait plan of <code>')).toBe(true)
    const summary = md.indexOf('**Plan: ')
    expect(summary).toBeGreaterThan(0)
    const first = md.indexOf('<details>')
    if (first >= 0) expect(first).toBeGreaterThan(summary)
    const destructive = md.indexOf('#### Destructive steps')
    if (destructive >= 0) expect(destructive).toBeLessThan(md.indexOf('| Action |'))
    expect(destructive >= 0).toBe(Review.destructive(p).length > 0)
  })

  test.prop([hostile])('escape: no character Markdown or HTML interprets, and no line break', (s) => {
    const e = Markdown.escape(s, 1000)
    // what is left once the entities we wrote are taken out
    expect(e.replace(/&#[0-9]+;/g, '')).not.toMatch(/[\n\r<>`*_[\]|~\\@!#$()&]/)
  })

  test.prop([fc.array(hostile, { maxLength: 8 })])('a fence is longer than any backtick run inside, so no line closes it', (lines) => {
    const fence = Markdown.fence(lines)
    expect(fence.length).toBeGreaterThanOrEqual(3)
    for (const l of lines) for (const run of l.match(/`+/g) ?? []) expect(run.length).toBeLessThan(fence.length)
  })

  test.prop([fc.string({ unit: 'grapheme', maxLength: 60 })])('bytes counts UTF-8 bytes', (s) => {
    expect(Markdown.bytes(s)).toBe(utf8(s))
  })

  it('draws the corpus plan with a deletion as a destructive step with its reason and manifest line', () => {
    const p = corpus.find((x) => x.resources.some((r) => r.action === 'delete'))!
    const md = Markdown.plan(p)
    const r = p.resources.find((x) => x.action === 'delete')!
    const at = Review.location(r)
    expect(md).toContain(`#### Destructive steps`)
    expect(md).toContain(`${Markdown.escape(r.steps[0]!.reason)}`)
    expect(md).toContain(`<code>${Markdown.escape(`${at.file}:${at.line}`)}</code>`)
    expect(md).toContain('<details><summary><code>&#45;</code> delete')
  })

  it('finds the fence of more backtick runs than a call takes arguments (a diff of 200,000 such lines)', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => (i === 123_456 ? '-`````x' : '+`a`'))
    expect(Markdown.fence(lines)).toBe('``````')
  })

  it('keeps a hostile name and content inside their code element and fence', () => {
    const base = corpus.find((x) => x.resources.some((r) => r.steps.length > 0))!
    const r = base.resources.find((x) => x.steps.length > 0)!
    const evil = { ...r, id: 'file#/x</code></summary>```\n# @everyone *pwned*', steps: r.steps.map((s) => ({ ...s, reason: '`````\n</details>\n<img src=x>' })) }
    const md = Markdown.plan({ ...base, resources: [evil], summary: { create: 1, update: 0, delete: 0, unchanged: 0 } })
    // outside the fenced block (where GitHub shows text as it is) nothing of it is markup
    const outside = md.replace(/^``````diff\n[^]*?\n``````$/m, '')
    expect(outside).not.toContain('@everyone')
    expect(outside).not.toContain('<img')
    expect(outside).not.toContain('</code></summary>```')
    expect(md).toContain('``````diff') // a fence of six: the reason holds a run of five
    expect(outside.split('</details>').length - 1).toBe(1)
  })

  it('cuts a plan too big for its budget with the "more" line', () => {
    const base = corpus.find((x) => x.resources.some((r) => r.steps.length > 0))!
    const r = base.resources.find((x) => x.steps.length > 0)!
    const resources = Array.from({ length: 400 }, (_, i) => ({ ...r, id: `${r.id}-${i}` }))
    const md = Markdown.plan({ ...base, resources, summary: { create: 400, update: 0, delete: 0, unchanged: 0 } }, 10_000)
    expect(utf8(md)).toBeLessThanOrEqual(10_000)
    expect(moreCount(md)).toBeGreaterThan(300)
    expect(md.trimEnd().split('\n').pop()).toMatch(/^[0-9]+ more resources, see the plan artifact\.$/)
  })
})

describe('Markdown.comparison', () => {
  test.prop([plan(30), plan(30), fc.integer({ min: Markdown.minimumBytes, max: 20_000 })], { numRuns: 80 })('fits any budget; each difference whole or counted', (a, b0, budget) => {
    const b = { ...b0, root: a.root, inputs: { ...b0.inputs, manifest: a.inputs.manifest } }
    const c = PlanDiff.compare(a, b)
    expect(E.isRight(c)).toBe(true)
    if (E.isLeft(c)) return
    const md = Markdown.comparison(c.right, budget)
    expect(utf8(md)).toBeLessThanOrEqual(budget)
    const whole = c.right.entries.filter((e) => md.includes(Markdown.comparisonSection(e)))
    expect(whole.length + moreCount(md)).toBe(c.right.entries.length)
  })
})
