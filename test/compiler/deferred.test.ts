// The clock and file inputs of compile, and deferred values: content that reads a file an earlier
// resource manages is deferred with a snapshot of the rest; otherwise it is rendered as usual.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Catalog from '../support/catalog.js'
import { compile, type Inputs } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Value from '../../src/manifest/expr/Value.js'
import * as DeferredContent from '../../src/types/file/DeferredContent.js'

/** A file reader over a fixed map of relative paths. */
const reader = (files: Readonly<Record<string, string>>) => (p: string) => (files[p] === undefined ? E.left(`open ${p}: no such file or directory`) : E.right(files[p]!))

const run = (text: string, inputs: Inputs) => compile('m.yaml', text, '/srv/root/etc', inputs)
const ok = (text: string, inputs: Inputs) => {
  const r = run(text, inputs)
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}
const file = (path: string, props: string) => `        - ${path}:\n${props.replace(/^/gm, '            ')}\n            owner: root\n            group: root\n            mode: "0644"\n`
const manifest = (...files: string[]) => `data:\n  greeting: hello\n  unused: 1\nccm:\n  resources:\n    - file:\n${files.join('')}`

describe('the clock', () => {
  it('gives now() the time passed in, and records it only when read', () => {
    const now = Value.time('2026-01-02T03:04:05Z')!
    const c = ok(manifest(file('/etc/y', `content: "{{ now().Year() }}"`)), { now })
    expect(c.resources[0]).toMatchObject({ content: { _tag: 'Inline', text: '2026' } })
    expect(c.clock).toBe('2026-01-02T03:04:05Z')
    expect(ok(manifest(file('/etc/y', 'content: x')), { now }).clock).toBeUndefined()
  })
  it('is an error at the expression without a time', () => {
    const r = run(manifest(file('/etc/y', `content: "{{ now() }}"`)), {})
    expect(E.isLeft(r) && r.left.map(Diagnostic.render).join('\n')).toMatch(/m\.yaml:8:\d+: .*now\(\) is not available here/)
  })
})

describe('files read by templates', () => {
  it('reads them through the capability and records each once with a digest', () => {
    const c = ok(manifest(file('/etc/a', `content: "{{ readFile('a.txt') }}{{ file('a.txt') }}"`), file('/etc/b', `content: "{{ template('b.templ') }}"`)), {
      readFile: reader({ 'a.txt': 'A', 'b.templ': "{{ lookup('data.greeting') }}" }),
    })
    expect(c.resources.map((r) => r._tag)).toEqual(['file', 'file'])
    expect(Catalog.files(c).map((r) => r.content)).toEqual([
      { _tag: 'Inline', text: 'AA' },
      { _tag: 'Inline', text: 'hello' },
    ])
    expect(c.files.map((f) => f.path)).toEqual(['a.txt', 'b.templ'])
    expect(c.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/)
  })
  it('names a missing file at the expression', () => {
    const r = run(manifest(file('/etc/a', `content: "{{ readFile('nope.txt') }}"`)), { readFile: reader({}) })
    expect(E.isLeft(r) && r.left.map(Diagnostic.render).join('\n')).toMatch(/open nope\.txt: no such file or directory/)
  })
})

describe('deferred values', () => {
  const inputs: Inputs = { root: '/srv/root', readFile: reader({ 'other.txt': 'O', 'app/base.conf': 'stale on disk' }), facts: { host: { name: 'web1', cpus: 4 } }, now: Value.time('2026-01-02T03:04:05Z')! }
  const base = file('/etc/app/base.conf', 'content: "port = 1\\n"')

  it("defers content that reads an earlier resource's file, with a snapshot of only what else it read", () => {
    const c = ok(manifest(base, file('/etc/app/full.conf', `content: "{{ lookup('data.greeting') }} {{ Facts.host.name }} {{ readFile('other.txt') }} {{ readFile('app/base.conf') }}"`)), inputs)
    const full = Catalog.files(c)[1]!
    expect(full.content._tag).toBe('Deferred')
    if (full.content._tag !== 'Deferred') return
    expect(full.content.deferred).toEqual({
      property: 'content',
      at: expect.stringMatching(/^m\.yaml:\d+:\d+$/),
      after: ['file#/etc/app/base.conf'],
      managed: { 'app/base.conf': '/etc/app/base.conf' },
      template: "{{ lookup('data.greeting') }} {{ Facts.host.name }} {{ readFile('other.txt') }} {{ readFile('app/base.conf') }}",
      snapshot: { roots: { facts: { host: { name: 'web1' } }, data: { greeting: 'hello' }, environ: {} }, files: { 'other.txt': 'O' } },
    })
    // What the executor will make of it, once base.conf holds its new text.
    const worked = DeferredContent.contentOf(full.content.deferred, new Map([['app/base.conf', new TextEncoder().encode('port = 1\n')]]))
    expect(E.isRight(worked) && worked.right.content).toEqual({ _tag: 'Inline', text: 'hello web1 O port = 1\n' })
    // The plan records the facts it read even when they were read for a deferred value.
    expect(c.reads.map((r) => `${r.root}:${r.path}`)).toEqual(['facts:host.name'])
  })

  it('defers a source that an earlier resource manages, and keeps the clock in the snapshot', () => {
    const c = ok(manifest(base, file('/etc/app/copy.conf', 'source: app/base.conf'), file('/etc/app/t.conf', `content: "{{ now().Year() }} {{ readFile('app/base.conf') }}"`)), inputs)
    const [, copy, t] = Catalog.files(c)
    expect(copy!.content).toEqual({ _tag: 'Deferred', deferred: { property: 'source', at: expect.any(String), after: ['file#/etc/app/base.conf'], managed: { 'app/base.conf': '/etc/app/base.conf' }, path: '/etc/app/base.conf' } })
    expect(t!.content._tag === 'Deferred' && t!.content.deferred.snapshot?.now).toBe('2026-01-02T03:04:05Z')
  })

  it('does not defer a read of a file a later resource manages, or one outside the root', () => {
    const later = ok(manifest(file('/etc/app/full.conf', `content: "{{ readFile('app/base.conf') }}"`), base), inputs)
    expect(Catalog.files(later)[0]!.content).toEqual({ _tag: 'Inline', text: 'stale on disk' })
    const elsewhere = ok(manifest(base, file('/etc/app/full.conf', `content: "{{ readFile('app/base.conf') }}"`)), { ...inputs, root: '/other' })
    expect(Catalog.files(elsewhere)[1]!.content).toEqual({ _tag: 'Inline', text: 'stale on disk' })
  })
})

describe('deferred exec properties', () => {
  const inputs: Inputs = { root: '/srv/root', readFile: reader({ 'app/cmd': 'stale' }) }
  const base = file('/etc/app/cmd', 'content: "/usr/bin/id"')
  it('defers each property that reads a managed file, keeping its template, and checks the others now', () => {
    const c = ok(
      manifest(base) +
        `    - exec:\n        - x:\n            command: "{{ readFile('app/cmd') }} -u"\n            unless: "{{ readFile('app/cmd') }}"\n            environment: ["A={{ readFile('app/cmd') }}", "B=2"]\n            timeout: 5s\n`,
      inputs,
    )
    const x = Catalog.execs(c)[0]!
    expect(x.deferred).toEqual({
      at: expect.stringMatching(/^m\.yaml:\d+:\d+$/),
      after: ['file#/etc/app/cmd'],
      managed: { 'app/cmd': '/etc/app/cmd' },
      snapshot: { roots: { facts: {}, data: {}, environ: {} }, files: {} },
      templates: { command: "{{ readFile('app/cmd') }} -u", unless: "{{ readFile('app/cmd') }}", environment: ["A={{ readFile('app/cmd') }}", 'B=2'] },
    })
    expect(x.timeoutMs).toBe(5000)
  })
  it('still refuses what is wrong in the properties that are known now', () => {
    const r = run(manifest(base) + `    - exec:\n        - x:\n            command: "{{ readFile('app/cmd') }}"\n            timeout: soon\n`, inputs)
    expect(E.isLeft(r) && r.left.map(Diagnostic.render).join('\n')).toMatch(/timeout "soon" is not a positive duration/)
  })
})
