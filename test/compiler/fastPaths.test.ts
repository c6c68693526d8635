// The fast paths of decoding: text without a template hole is taken as written, a group's defaults
// merge without a set per resource, a resource without common properties is its own rest, and a
// content template is rendered once. Each gives what the general path gives.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Digest from '../../src/core/Digest.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import { observe } from '../../src/observe/observe.js'
import { hostFiles } from '../support/run.js'
import * as Evaluate from '../../src/manifest/expr/Evaluate.js'
import * as Template from '../../src/manifest/expr/Template.js'
import * as Manifest from '../../src/manifest/Manifest.js'
import type * as Node from '../../src/manifest/Node.js'
import * as Yaml from '../../src/manifest/Yaml.js'
import * as Deferral from '../../src/types/Deferral.js'
import * as Fields from '../../src/types/Fields.js'
import * as Properties from '../../src/types/Properties.js'

const at = { file: 'm.yaml', line: 1, col: 1 }
const scalar = (text: string): Node.Node => ({ _tag: 'Scalar', value: text, text, quoted: true, at }) as Node.Node
const scope = () => Manifest.scopeOf(Evaluate.env({ mode: 'manifest', data: { n: 5 }, facts: { os: 'linux' } }))
const errors = (text: string) => {
  const r = compile('m.yaml', text, '/srv', { facts: { os: 'linux' } })
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map(Diagnostic.render)
}
const ok = (text: string) => {
  const r = compile('m.yaml', text, '/srv', { facts: { os: 'linux' } })
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}
const perms = 'owner: root, group: root, mode: "0644"'
/** What an empty machine shows a catalog. */
const observed = async (catalog: ReturnType<typeof ok>) => {
  const o = await observe(catalog, Memory.make(), hostFiles({}))
  if (E.isLeft(o)) throw new Error(o.left.map(Diagnostic.render).join('\n'))
  return o.right
}

describe('text without a template hole', () => {
  fcTest.prop([fc.stringMatching(/^[a-z{}$ ]{0,12}$/)])('is what rendering it gives, read nothing, and only that', (text) => {
    const plain = Manifest.plainText(scalar(text))
    const rendered = Template.render(text, scope().env)
    if (plain !== undefined) {
      expect(E.isRight(rendered) && rendered.right.value).toBe(text)
      expect(E.isRight(rendered) && rendered.right.reads.values).toEqual([])
    }
    expect(plain !== undefined).toBe(!text.includes('{{') && !text.includes('${'))
  })

  it('is a name as written, a lone brace too; a name with a hole is rendered, an empty one refused', () => {
    const c = ok(`ccm:\n  resources:\n    - file:\n        - /srv/{a}: {${perms}}\n        - "/srv/{{ Facts.os }}": {${perms}}\n        - /srv/$x: {${perms}}\n`)
    expect(c.resources.map((r) => r.id)).toEqual(['file#/srv/{a}', 'file#/srv/linux', 'file#/srv/$x'])
    expect(errors(`ccm:\n  resources:\n    - file:\n        - "": {${perms}}\n`)).toEqual(['error: m.yaml:4:11: a resource name cannot be empty'])
  })

  it('is read by the file fields as written; a template is rendered, its problems said of the entry', () => {
    const s = scope()
    const reading = Fields.reading('file#/x', s)
    const entry = (text: string): Node.Entry => ({ key: 'owner', keyAt: at, value: scalar(text) }) as Node.Entry
    expect(Fields.str(reading, entry('a{b}'))).toBe('a{b}')
    expect(Fields.str(reading, entry('{{ Facts.os }}'))).toBe('linux')
    expect(s.reads.map((r) => r.path)).toEqual([['os']])
    expect(Fields.str(reading, entry('{{ [1] }}'))).toBeUndefined()
    expect(reading.problems.map((d) => [d.resource, d.message])).toEqual([['file#/x', 'owner: expression gives a list where a string is expected']])
  })
})

describe('defaults', () => {
  const keys = ['ensure', 'owner', 'group', 'mode', 'content']
  fcTest.prop([fc.subarray(keys), fc.subarray(keys)])("come first, without those the item sets itself, then the item's own", (defaults, own) => {
    const entries = (ks: ReadonlyArray<string>, v: string) => ks.map((k) => `${k}: ${v}`).join(', ')
    const text = `ccm:\n  resources:\n    - file:\n        - defaults: {${entries(defaults, 'd')}}\n        - /x: {${entries(own, 'o')}}\n`
    const tree = Yaml.parse('m.yaml', text)
    if (E.isLeft(tree)) throw new Error('the test manifest does not parse')
    const m = Manifest.decode('m.yaml', tree.right).manifest
    const props = m.resources[0]!.props.map((e) => `${e.key}=${e.value._tag === 'Scalar' ? e.value.text : '?'}`)
    expect(props).toEqual([...defaults.filter((k) => !own.includes(k)).map((k) => `${k}=d`), ...own.map((k) => `${k}=o`)])
    expect(m.resources[0]!.id).toBe('file#/x')
  })
})

describe('the common properties', () => {
  it('leave a resource that sets none as it is, and take theirs out of one that does', () => {
    const raw = (props: ReadonlyArray<Node.Entry>): Manifest.RawResource => ({ type: 'exec', name: 'x', nameAt: at, props })
    const command = { key: 'command', keyAt: at, value: scalar('/bin/true') } as Node.Entry
    const plain = raw([command])
    const none = Properties.decode(plain, scope(), { accepts: true, kinds: ['exec'] })
    expect(none.rest).toBe(plain)
    expect(none).toMatchObject({ common: { require: [], subscribe: [], control: {}, healthChecks: [] }, problems: [] })
    const some = Properties.decode(raw([command, { key: 'alias', keyAt: at, value: scalar('y') } as Node.Entry]), scope(), { accepts: true, kinds: ['exec'] })
    expect(some.rest.props).toEqual([command])
    expect(some.common.alias?.text).toBe('y')
  })
})

describe('a content template', () => {
  it('is rendered once: what it read is recorded, and a list is refused at the content', () => {
    const c = ok(`ccm:\n  resources:\n    - file:\n        - /x: {content: "{{ Facts.os }}", ${perms}}\n`)
    expect(c.resources[0]).toMatchObject({ content: { _tag: 'Inline', text: 'linux' } })
    expect(c.reads.map((r) => r.path)).toEqual(['os'])
    expect(errors(`ccm:\n  resources:\n    - file:\n        - /x: {content: "{{ [1, 2] }}", ${perms}}\n`)).toEqual([
      'error: m.yaml:4:25: file#/x: content: expression gives a list where a string is expected',
    ])
  })

  it('reads a file no earlier resource manages when rendered, and records it once', () => {
    const r = compile('m.yaml', `ccm:\n  resources:\n    - file:\n        - /x: {content: "{{ readFile('a') }}", ${perms}}\n`, '/srv', {
      readFile: (p) => (p === 'a' ? E.right('A') : E.left(`open ${p}: no such file`)),
    })
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    expect(r.right.resources[0]).toMatchObject({ content: { _tag: 'Inline', text: 'A' } })
    expect(r.right.files.map((f) => f.path)).toEqual(['a'])
  })
})

describe('the provider of a resource', () => {
  it('is still checked by its type when no plugin is found', () => {
    expect(errors(`ccm:\n  resources:\n    - file:\n        - /x: {provider: "x::y", ${perms}}\n`).join('\n')).toMatch(/unknown file provider "x::y"/)
  })
})

describe('a template that may read a managed file', () => {
  const files: Readonly<Record<string, string>> = { 'app/base.conf': 'old', 'app/t.templ': 'old' }
  const run = (content: string) => {
    const text = `ccm:\n  resources:\n    - file:\n        - /etc/app/base.conf: {content: x, ${perms}}\n        - /etc/app/t.templ: {content: y, ${perms}}\n        - /etc/out: {content: "${content}", ${perms}}\n`
    const r = compile('m.yaml', text, '/srv/root/etc', { root: '/srv/root', facts: { os: 'linux' }, readFile: (p) => (files[p] === undefined ? E.left(`open ${p}: no such file`) : E.right(files[p]!)) })
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    return r.right.resources[2]!
  }
  it('is deferred whichever function it reads it with: readFile, file or template', () => {
    expect(run(`{{ readFile('app/base.conf') }}`)).toMatchObject({ content: { _tag: 'Deferred', deferred: { after: ['file#/etc/app/base.conf'] } } })
    expect(run(`{{ file('app/base.conf') }}`)).toMatchObject({ content: { _tag: 'Deferred', deferred: { after: ['file#/etc/app/base.conf'] } } })
    expect(run(`{{ template('app/t.templ') }}`)).toMatchObject({ content: { _tag: 'Deferred', deferred: { after: ['file#/etc/app/t.templ'] } } })
  })
  it('is rendered now when it names none of them', () => {
    expect(run(`{{ Facts.os }} {{ 'app/base.conf' }}`)).toMatchObject({ content: { _tag: 'Inline', text: 'linux app/base.conf' } })
  })
  it('is rendered now when only its text names them, outside the holes (a comment saying this file is managed)', () => {
    expect(run(`# this file is managed: readFile('app/base.conf') template {{ Facts.os }}`)).toMatchObject({
      content: { _tag: 'Inline', text: "# this file is managed: readFile('app/base.conf') template linux" },
    })
    expect(run(`# this file: {{ file('app/base.conf') }}`)).toMatchObject({ content: { _tag: 'Deferred', deferred: { after: ['file#/etc/app/base.conf'] } } })
  })
  it('is looked for in the holes alone: only they run', () => {
    expect(Deferral.mayReadFiles('# this file is managed by plait\n{{ Data.x }}\n')).toBe(false)
    expect(Deferral.mayReadFiles('template, readFile and file: ${ Facts.os } {{ Data.x }}')).toBe(false)
    expect(Deferral.mayReadFiles('x {{ readFile("a") }}')).toBe(true)
    expect(Deferral.mayReadFiles('x ${ template("t") }')).toBe(true)
    expect(Deferral.mayReadFiles('{{ Data.x ?? file("a") }}')).toBe(true)
    // a template that does not parse reads nothing (rendering it says why)
    expect(Deferral.mayReadFiles('file {{ readFile("a")')).toBe(false)
  })
})

describe("the manifest's digest", () => {
  fcTest.prop([fc.string({ unit: 'grapheme', maxLength: 20 })])('is the sha256 of its text, whenever it is read, in the catalog and the plan made from it', async (comment) => {
    const text = `# ${comment.replace(/[\r\n\u0085\u2028\u2029]/g, ' ')}\nccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n`
    const catalog = ok(text)
    const body = Planner.planAll(catalog, await observed(catalog), { version: 'test', root: '/' }).body
    const want = Digest.sha256(text)
    // read first through the plan, then the catalog, and in a copy and in JSON
    expect(body.inputs.manifest.sha256).toBe(want)
    expect(catalog.manifest.sha256).toBe(want)
    expect({ ...body.inputs.manifest }).toEqual({ path: 'm.yaml', sha256: want })
    expect(JSON.parse(JSON.stringify(catalog.manifest))).toEqual({ file: 'm.yaml', sha256: want })
  })
})

describe('what rendering records as read', () => {
  const read = fc.record({ root: fc.constantFrom<'facts' | 'data' | 'environ'>('facts', 'data', 'environ'), path: fc.array(fc.constantFrom('a', 'b', 'a.b', '', '\u0000', '["a"]', '1a'), { maxLength: 3 }) })
  fcTest.prop([fc.array(fc.array(read, { maxLength: 4 }), { maxLength: 12 }), fc.array(read, { maxLength: 4 })])(
    'keeps each distinct value read once, in the order first read, whatever the repeats',
    (renders, before) => {
      const s = Manifest.scopeOf(Evaluate.env({ mode: 'manifest' }), before)
      for (const values of renders) Manifest.record(s, { values, files: [], clock: false })
      const all = [...before, ...renders.flat()]
      const distinct = all.filter((r, i) => all.findIndex((x) => x.root === r.root && x.path.length === r.path.length && x.path.every((seg, k) => seg === r.path[k])) === i)
      expect(s.reads).toEqual(distinct)
    },
  )

  it('reads one value for ten values written with the same hole, and a lone hole and the text around it as before', () => {
    const s = scope()
    for (let i = 0; i < 10; i++) {
      const r = Template.render(`line ${i} {{ Data.n }} and {{ Facts.os }}\n`, s.env)
      if (E.isLeft(r)) throw new Error(r.left.message)
      expect(r.right.value).toBe(`line ${i} 5 and linux\n`)
      Manifest.record(s, r.right.reads)
    }
    expect(s.reads).toEqual([
      { root: 'data', path: ['n'] },
      { root: 'facts', path: ['os'] },
    ])
    const lone = Template.render(' {{ Facts.os }} ', s.env)
    expect(E.isRight(lone) && lone.right.value).toBe(' linux ')
  })
})
