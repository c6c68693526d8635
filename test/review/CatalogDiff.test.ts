// CatalogDiff: two catalogs of one host compared resource by resource; a catalog against itself
// has no difference, and YAML or JSON content changed in formatting only is never a change.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Y from 'yaml'
import * as CatalogDiff from '../../src/review/CatalogDiff.js'
import type * as Snapshot from '../../src/review/Snapshot.js'
import { json, labels, pair, snapshot } from './arbitraries.js'

const file = (path: string, text: string, extra: Snapshot.Resource['props'] = {}): Snapshot.Resource => ({
  id: `file#${path}`,
  type: 'file',
  at: 'm.yaml:3',
  props: { path, ensure: 'present', content: { _tag: 'Inline', text }, owner: 'root', ...extra },
})

describe('CatalogDiff.compare', () => {
  test.prop([snapshot()])('of a catalog with itself is empty', (s) => {
    expect(CatalogDiff.compare(s, s, labels)).toEqual(CatalogDiff.empty)
  })

  test.prop([pair])('lists each resource of either side at most once, added ones only in the new, removed ones only in the old', ([a, b]) => {
    const d = CatalogDiff.compare(a, b, labels)
    const ids = d.entries.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const e of d.entries) {
      const inA = a.resources.some((r) => r.id === e.id)
      const inB = b.resources.some((r) => r.id === e.id)
      expect(e._tag).toBe(inA && inB ? 'Changed' : inB ? 'Added' : 'Removed')
    }
  })

  test.prop([fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), json, { minKeys: 1, maxKeys: 5 }), fc.constantFrom('json', 'yaml')])(
    'a file whose YAML or JSON content changed in formatting only has no change, and says so',
    (data, format) => {
      const [before, after] = format === 'json' ? [JSON.stringify(data), JSON.stringify(data, null, 2) + '\n'] : [Y.stringify(data), `# a comment\n${Y.stringify(data, { collectionStyle: 'flow' })}`]
      const d = CatalogDiff.compare({ resources: [file(`/etc/app.${format}`, before)] }, { resources: [file(`/etc/app.${format}`, after)] }, labels)
      expect(d.entries).toEqual([])
      if (before !== after) expect(d.formatting).toEqual([{ id: `file#/etc/app.${format}`, path: 'content.text', format }])
    },
  )

  it('reports added, removed and changed resources, with each changed property', () => {
    const a = { resources: [file('/etc/a.conf', 'port = 80\n', { mode: 420 }), { id: 'package#gone', type: 'package', at: 'm.yaml:9', props: { ensure: 'present' } }] }
    const b = { resources: [file('/etc/a.conf', 'port = 443\n', { mode: 384 }), { id: 'package#nginx', type: 'package', at: 'm.yaml:9', props: { ensure: 'present' } }] }
    const d = CatalogDiff.compare(a, b, labels)
    expect(d.entries.map((e) => [e._tag, e.id])).toEqual([
      ['Changed', 'file#/etc/a.conf'],
      ['Added', 'package#nginx'],
      ['Removed', 'package#gone'],
    ])
    const changed = d.entries[0]!
    if (changed._tag !== 'Changed') throw new Error('expected a change')
    expect(changed.changes.map((c) => c.path)).toEqual(['content.text', 'mode'])
    expect(changed.changes[0]!.content).toEqual({ _tag: 'Text', lines: ['--- main:file#/etc/a.conf', '+++ HEAD:file#/etc/a.conf', '@@ -1,1 +1,1 @@', '-port = 80', '+port = 443'] })
    expect(changed.changes[1]).toEqual({ path: 'mode', before: 420, after: 384 })
  })

  it('does not count a resource that only moved in the manifest', () => {
    const a = { resources: [file('/etc/a.conf', 'x\n')] }
    const b = { resources: [{ ...file('/etc/a.conf', 'x\n'), at: 'm.yaml:30' }] }
    expect(CatalogDiff.isEmpty(CatalogDiff.compare(a, b, labels))).toBe(true)
  })

  it('gives equal keys to equal differences and different keys otherwise', () => {
    const a = { resources: [file('/etc/a.conf', 'x\n')] }
    const b = { resources: [file('/etc/a.conf', 'y\n')] }
    const c = { resources: [file('/etc/a.conf', 'z\n')] }
    expect(CatalogDiff.key(CatalogDiff.compare(a, b, labels))).toBe(CatalogDiff.key(CatalogDiff.compare(a, b, labels)))
    expect(CatalogDiff.key(CatalogDiff.compare(a, b, labels))).not.toBe(CatalogDiff.key(CatalogDiff.compare(a, c, labels)))
  })
})
