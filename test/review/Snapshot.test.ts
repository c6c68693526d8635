// Snapshot: a compiled catalog as the catalog diff compares it: properties as `plait compile --json`
// writes them, links included, positions left out.
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as Compile from '../../src/compiler/compile.js'
import * as Snapshot from '../../src/review/Snapshot.js'

const compiled = (text: string) => {
  const c = Compile.compile('m.yaml', text, '/srv')
  if (E.isLeft(c)) throw new Error(c.left.map((d) => d.message).join('\n'))
  return Snapshot.of(c.right)
}

describe('Snapshot.of', () => {
  it('keeps each resource by id and type, with its properties and links and without positions', () => {
    const s = compiled(`ccm:
  resources:
    - file:
        - /etc/a.conf:
            content: "a\\n"
            owner: root
            group: root
            mode: "0640"
    - exec:
        - reload:
            command: /bin/true
            refreshonly: true
            subscribe: [file#/etc/a.conf]
`)
    expect(s.resources.map((r) => [r.id, r.type, r.at])).toEqual([
      ['file#/etc/a.conf', 'file', 'm.yaml:4'],
      ['exec#reload', 'exec', 'm.yaml:10'],
    ])
    expect(s.resources[0]!.props).toMatchObject({ path: '/etc/a.conf', content: { _tag: 'Inline', text: 'a\n' }, mode: '0640', owner: 'root' })
    expect(s.resources[1]!.props).toMatchObject({ command: '/bin/true', subscribe: ['file#/etc/a.conf'] })
    for (const r of s.resources) expect(JSON.stringify(r.props)).not.toMatch(/"at"|"_tag":"(file|exec)"|"id"/)
  })

  it('gives equal snapshots for a manifest whose resources only moved down', () => {
    const text = 'ccm:\n  resources:\n    - package:\n        - nginx:\n            ensure: present\n'
    const moved = text.replace('ccm:\n', '# a comment\n\nccm:\n')
    const [a, b] = [compiled(text), compiled(moved)]
    expect(a.resources[0]!.at).not.toBe(b.resources[0]!.at)
    expect(a.resources.map((r) => r.props)).toEqual(b.resources.map((r) => r.props))
  })
})
