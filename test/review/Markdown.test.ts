// Markdown and Text: a `plait diff` report always fits the byte budget, shows each resource whole
// or counts it, leads with the summary, and nothing a host or a manifest names can break out of
// its code element or fenced block.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Budget from '../../src/cli/Markdown.js'
import * as CatalogDiff from '../../src/review/CatalogDiff.js'
import * as Grouping from '../../src/review/Grouping.js'
import * as Markdown from '../../src/review/Markdown.js'
import * as Report from '../../src/review/Report.js'
import type * as Snapshot from '../../src/review/Snapshot.js'
import * as Text from '../../src/review/Text.js'
import { hostile, labels, outcomes, report } from './arbitraries.js'

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8')

const moreCount = (md: string): number => {
  const m = /^([0-9]+) more resources?, see the JSON report/m.exec(md)
  return m === null ? 0 : Number(m[1])
}

describe('Markdown.render', () => {
  test.prop([outcomes(40), fc.integer({ min: Budget.minimumBytes, max: 30_000 }), hostile], { numRuns: 150 })(
    'fits any budget, and every resource is shown whole or counted in the "more" line',
    (os, budget, manifest) => {
      const r = report(Grouping.group(os), manifest)
      const md = Markdown.render(r, budget)
      expect(utf8(md)).toBeLessThanOrEqual(budget)
      const entries = r.grouped.changed.flatMap((g) => g.diff.entries)
      const whole = entries.filter((e) => md.includes(Markdown.section(e)))
      // an entry shared by two groups is found whole once per group it is drawn in: count sections instead
      const sections = md.split('<details><summary><code>').length - 1
      expect(sections + moreCount(md)).toBe(entries.length)
      expect(whole.length).toBeGreaterThanOrEqual(Math.min(sections, 1))
    },
  )

  test.prop([outcomes(6)])('with the default budget, a small report is whole, the summary first', (os) => {
    const r = report(Grouping.group(os))
    const md = Markdown.render(r)
    expect(moreCount(md)).toBe(0)
    expect(md.startsWith('### plait diff of <code>site/manifest.yaml</code>: <code>main</code> → <code>HEAD</code>\n\n**Changes: ')).toBe(true)
    for (const g of r.grouped.changed) expect(md).toContain(`#### ${Text.groupHeading(g)}\n`)
    expect(md.includes('#### Hosts that fail to compile')).toBe(r.grouped.failed.length > 0)
  })

  test.prop([hostile])('a hostile host or resource name stays inside its code element', (name) => {
    const a = { resources: [{ id: `file#${name}`, type: 'file', at: `${name}:1`, props: { content: '```\n</details>' } }] }
    const diff = CatalogDiff.compare({ resources: [] }, a, labels)
    const md = Markdown.render(report(Grouping.group([{ _tag: 'Compiled', host: name, diff }])))
    // every <code> closes before any other tag opens, and the fenced block's fence is longer than any backtick run
    for (const m of md.matchAll(/<code>([^]*?)<\/code>/g)) expect(m[1]).not.toMatch(/[<>`\n]/)
    // inside the fenced block it is only text: every line that closes a section is one the renderer wrote
    expect(md.split('\n').filter((l) => l === '</details>').length).toBe(md.split('<details><summary>').length - 1)
  })
})

describe('Text.render', () => {
  it('draws groups, failures, resources and content diffs as a plan draws them', () => {
    const a = { resources: [{ id: 'file#/etc/a.conf', type: 'file', at: 'm.yaml:3', props: { content: { _tag: 'Inline', text: 'port = 80\n' }, mode: 420 } }] }
    const b: Snapshot.Snapshot = { resources: [{ id: 'file#/etc/a.conf', type: 'file', at: 'm.yaml:3', props: { content: { _tag: 'Inline', text: 'port = 443\n' }, mode: 420 } }, { id: 'package#nginx', type: 'package', at: 'm.yaml:9', props: { ensure: 'present' } }] }
    const diff = CatalogDiff.compare(a, b, labels)
    const os: Grouping.Outcome[] = [
      { _tag: 'Compiled', host: 'web01', diff },
      { _tag: 'Compiled', host: 'web02', diff },
      { _tag: 'Compiled', host: 'lb01', diff: CatalogDiff.empty },
      { _tag: 'Failed', host: 'db01', to: ['error: m.yaml:4:3: unknown resource type "pakage"'] },
    ]
    const r = report(Grouping.group(os))
    expect(Report.exitCode(r)).toBe(1)
    expect(Text.render(r)).toBe(
      [
        `plait diff of site/manifest.yaml: main (aaaaaaaaaaaa) → HEAD (bbbbbbbbbbbb)`,
        'Changes: 2 hosts change, 1 host unchanged, 1 host fails to compile, of 4 hosts.',
        '',
        '1 host failing at HEAD:',
        '  db01',
        '  at HEAD:',
        '    error: m.yaml:4:3: unknown resource type "pakage"',
        '',
        '2 hosts: same change:',
        '  web01, web02',
        '',
        '~ file#/etc/a.conf (m.yaml:3)',
        '    ~ content.text:',
        '      --- main:file#/etc/a.conf',
        '      +++ HEAD:file#/etc/a.conf',
        '      @@ -1,1 +1,1 @@',
        '      -port = 80',
        '      +port = 443',
        '',
        '+ package#nginx (m.yaml:9)',
        '    + ensure: "present"',
        '',
        'Unchanged: 1 host',
        '  lb01',
        '',
      ].join('\n'),
    )
  })

  it('draws a YAML change of data path by path, and a formatting-only one apart', () => {
    const file = (path: string, text: string): Snapshot.Resource => ({ id: `file#${path}`, type: 'file', at: 'm.yaml:3', props: { path, content: { _tag: 'Inline', text } } })
    const a = { resources: [file('/etc/app.yaml', 'server:\n  port: 80\nusers: [a]\n'), file('/etc/b.json', '{"x": 1}')] }
    const b = { resources: [file('/etc/app.yaml', 'server: {port: 443}\nusers: [a, b]\n'), file('/etc/b.json', '{\n  "x": 1\n}\n')] }
    const text = Text.render(report(Grouping.group([{ _tag: 'Compiled', host: 'web01', diff: CatalogDiff.compare(a, b, labels) }])))
    expect(text).toContain(
      ['~ file#/etc/app.yaml (m.yaml:3)', '    ~ content.text:', '      (yaml data differs; formatting aside:)', '      ~ [0].server.port: 80 → 443', '      + [0].users[1]: "b"', ''].join('\n'),
    )
    expect(text).toContain('Formatting only (not a change):\n  file#/etc/b.json content.text: json formatting only, the same data\n')
  })

  it('says there is no change, and exits 0, when every host compiles the same', () => {
    const r = report(Grouping.group([{ _tag: 'Compiled', host: 'a', diff: CatalogDiff.empty }]))
    expect(Report.exitCode(r)).toBe(0)
    expect(Text.render(r)).toContain('No changes. Every host compiles to the same catalog at both revisions.\n')
  })

  test.prop([outcomes(20)])('exits 1 when a host fails, else 2 when a host changes something, else 0', (os) => {
    const r = report(Grouping.group(os))
    const failed = os.some((o) => o._tag === 'Failed')
    const changes = os.some((o) => o._tag === 'Compiled' && !CatalogDiff.isEmpty(o.diff))
    expect(Report.exitCode(r)).toBe(failed ? 1 : changes ? 2 : 0)
    expect(Report.hosts(r)).toBe(os.length)
  })
})

describe('Text.render of a large change', () => {
  it('draws the unified diff of a rewritten file of 130,000 short lines (its lines once overflowed the stack)', () => {
    const lines = (f: (i: number) => string): string => Array.from({ length: 130_000 }, (_, i) => `${f(i)}\n`).join('')
    const resource = (content: string): Snapshot.Snapshot => ({ resources: [{ id: 'file#/etc/list', type: 'file', at: 'm.yaml:1', props: { content } }] })
    const diff = CatalogDiff.compare(resource(lines((i) => String(i % 10))), resource(lines((i) => String.fromCharCode(97 + (i % 20)))), labels)
    const text = Text.render(report(Grouping.group([{ _tag: 'Compiled', host: 'web1', diff }])))
    expect(text.split('\n').filter((l) => /^\s*[-+][0-9a-t]$/.test(l))).toHaveLength(260_000)
  })
})
