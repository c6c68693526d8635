// e2e: every bad input gives a clear message with file:line:col (or the resource id), exit 1, no
// stack trace, and nothing written below the root, both from `plan` and from `apply MANIFEST`.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, plait, put, sandbox, show, snapshot, stackFrame, type Run } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const res = (body: string): string => `ccm:\n  resources:\n    - file:\n${body}`
const attrs = `            owner: root\n            group: root\n            mode: "0644"\n`
const file = (props: string, name = '/etc/x'): string => res(`        - ${name}:\n${props}`)

interface Case {
  /** The manifest text. */
  readonly manifest: string
  /** `line:col` the message must name (after `manifest.yaml:`), or undefined when it has no position. */
  readonly at?: string
  /** The resource id the message must name. */
  readonly resource?: string
  /** What the message must say. */
  readonly says: RegExp
  /** Other files to write beside the manifest. */
  readonly beside?: Readonly<Record<string, string>>
  /** Also run `plait plan` (every case runs `plait apply MANIFEST`, which compiles and plans first). */
  readonly plan?: true
}

const cases: Record<string, Case> = {
  // syntax
  'malformed YAML (unclosed flow map)': { manifest: `ccm:\n  resources:\n    - file:\n        - /etc/x: {ensure: present\n`, at: '\\d+:\\d+', plan: true, says: /Flow map|flow|}/i },
  'malformed YAML (tab indentation)': { manifest: `ccm:\n  resources:\n\t- file: []\n`, at: '3:1', says: /tab/i },
  'duplicate key in a map': { manifest: file(`            mode: "0644"\n            owner: root\n            group: root\n            mode: "0600"\n`), at: '8:13', says: /unique|duplicate/i },
  'empty manifest': { manifest: '', at: '1:1', says: /manifest must be a map/ },
  // wrong types
  'ensure: [1]': { manifest: file(`            ensure: [1]\n${attrs}`), at: '5:21', resource: 'file#/etc/x', plan: true, says: /ensure: expected a string, found a list/ },
  'force: "yes"': { manifest: file(`            ensure: absent\n            force: "yes"\n`), at: '6:20', resource: 'file#/etc/x', says: /force must be a boolean, found a string/ },
  'content: a map': { manifest: file(`            content: {a: 1}\n${attrs}`), at: '5:22', resource: 'file#/etc/x', says: /content: expected a string, found a map/ },
  'fail_on_error: "yes"': { manifest: `ccm:\n  fail_on_error: "yes"\n  resources: []\n`, at: '2:18', says: /fail_on_error.*must be a boolean, found a string/ },
  'resources: a map': { manifest: `ccm:\n  resources:\n    file: {}\n`, at: '3:5', says: /must be a list, found a map/ },
  'ensure: sideways': { manifest: file(`            ensure: sideways\n${attrs}`), at: '5:21', resource: 'file#/etc/x', says: /ensure must be one of present, absent, directory; got "sideways"/ },
  // unknown keys
  'unknown top-level key': { manifest: `datas: {}\n` + file(attrs), at: '1:1', says: /unknown top-level key "datas"/ },
  'unknown key under ccm': { manifest: `ccm:\n  resource: []\n`, at: '2:3', says: /unknown key "ccm.resource"/ },
  'unknown key in a file resource': { manifest: file(`            contents: hi\n${attrs}`), at: '5:13', resource: 'file#/etc/x', plan: true, says: /unknown property "contents" for a file resource/ },
  // modes
  'mode "0888"': { manifest: file(`            owner: root\n            group: root\n            mode: "0888"\n`), at: '7:19', resource: 'file#/etc/x', says: /invalid mode "0888"/ },
  'mode "1777"': { manifest: file(`            owner: root\n            group: root\n            mode: "1777"\n`), at: '7:19', resource: 'file#/etc/x', plan: true, says: /invalid mode "1777".*exceeds 0777/ },
  'mode rw-r--r--': { manifest: file(`            owner: root\n            group: root\n            mode: rw-r--r--\n`), at: '7:19', resource: 'file#/etc/x', says: /invalid mode "rw-r--r--"/ },
  'mode unquoted 0888': { manifest: file(`            owner: root\n            group: root\n            mode: 0888\n`), at: '7:19', resource: 'file#/etc/x', says: /invalid mode "0888"/ },
  // names
  'relative path': { manifest: file(attrs, 'etc/x'), at: '4:11', says: /must be absolute and clean.*"etc\/x"/ },
  'path with ..': { manifest: file(attrs, '/etc/../x'), at: '4:11', plan: true, says: /must be absolute and clean.*"\/etc\/\.\.\/x"/ },
  'path with //': { manifest: file(attrs, '/etc//x'), at: '4:11', says: /must be absolute and clean.*"\/etc\/\/x"/ },
  'path with a trailing slash': { manifest: file(attrs, '/etc/x/'), at: '4:11', says: /must be absolute and clean.*"\/etc\/x\/"/ },
  'path from a template that is relative': {
    manifest: `data:\n  d: etc\nccm:\n  resources:\n    - file:\n        - "{{ lookup('data.d') }}/x":\n${attrs}`,
    at: '6:11',
    says: /must be absolute and clean.*"etc\/x"/,
  },
  'owner with a space': { manifest: file(`            owner: "ro ot"\n            group: root\n            mode: "0644"\n`), at: '5:20', resource: 'file#/etc/x', says: /owner "ro ot" is not a valid user name/ },
  'owner with a colon': { manifest: file(`            owner: "root:root"\n            group: root\n            mode: "0644"\n`), at: '5:20', resource: 'file#/etc/x', says: /owner "root:root" is not a valid user name/ },
  // combinations
  'content and source together': { manifest: file(`            content: hi\n            source: f.txt\n${attrs}`), beside: { 'f.txt': 'f\n' }, at: '6:13', resource: 'file#/etc/x', says: /content and source are mutually exclusive/ },
  'missing owner, group and mode': { manifest: file(`            content: hi\n`), at: '4:11', resource: 'file#/etc/x', says: /owner is required unless ensure is absent/ },
  'missing mode only': { manifest: file(`            owner: root\n            group: root\n`), at: '4:11', resource: 'file#/etc/x', says: /mode is required unless ensure is absent/ },
  'force with ensure: directory': { manifest: file(`            ensure: directory\n            force: true\n${attrs}`), at: '6:13', resource: 'file#/etc/x', says: /force is only valid with ensure: absent \(remove a non-empty directory\) or present/ },
  'content with ensure: directory': { manifest: file(`            ensure: directory\n            content: hi\n${attrs}`), at: '6:13', resource: 'file#/etc/x', says: /content cannot be used with ensure: directory/ },
  'duplicate resource': { manifest: res(`        - /etc/x:\n${attrs}        - /etc/x:\n${attrs}`), at: '8:11', resource: 'file#/etc/x', plan: true, says: /duplicate resource file#\/etc\/x \(first declared at 4:11\)/ },
  'duplicate resource across both forms': {
    manifest: res(`        - /etc/x:\n${attrs}`) + `    - file:\n        name: /etc/x\n${attrs.replace(/^ {12}/gm, '        ')}`,
    at: '9:15',
    resource: 'file#/etc/x',
    says: /duplicate resource file#\/etc\/x/,
  },
  'unknown resource type': { manifest: `ccm:\n  resources:\n    - mount:\n        - /srv:\n            ensure: present\n`, at: '3:7', says: /unknown resource type "mount"/ },
  'explicit name form without a name': { manifest: `ccm:\n  resources:\n    - file:\n        ensure: present\n`, at: '4:9', says: /needs a "name"/ },
  // lookups at plan time
  // An unknown user or group and a source that cannot be read fail only their resource, as in CCM: see ccm-differences.test.ts.
  // templates
  'unknown template function': { manifest: file(`            content: "{{ nosuch('x') }}"\n${attrs}`), at: '5:26', resource: 'file#/etc/x', plan: true, says: /unknown func nosuch/ },
  'bad expression': { manifest: file(`            content: "a {{ 1 + }} b"\n${attrs}`), at: '5:31', resource: 'file#/etc/x', says: /unexpected token/ },
  'unterminated template': { manifest: file(`            content: "a {{ lookup('data.x') b"\n${attrs}`), at: '5:25', resource: 'file#/etc/x', says: /unterminated \{\{: no closing \}\}/ },
  'lookup of a missing key': { manifest: file(`            content: "{{ lookup('data.nope') }}"\n${attrs}`), at: '5:26', resource: 'file#/etc/x', says: /missing key 'data.nope'/ },
  // plugin references (the resolve stage): with no plugin to answer, a reference is an error at it, never data
  'a plugin reference no plugin answers': {
    manifest: `data:\n  password:\n    _plugin: vault\n    path: secret/db\n` + file(`            content: "{{ lookup('data.password') }}"\n${attrs}`),
    at: '3:5',
    plan: true,
    says: /_plugin: "vault": no plugin of that name/,
  },
  'a plugin reference in a resource': { manifest: file(`            content:\n              _plugin: vault\n              path: secret/x\n${attrs}`), at: '6:15', says: /_plugin: "vault": no plugin of that name/ },
  'a plugin reference that names no plugin': { manifest: `data:\n  password:\n    _plugin: [a]\n` + file(attrs), at: '3:14', says: /_plugin must name a plugin \(a non-empty string\), not a list/ },
  'unknown name in ${ }': { manifest: file(`            content: "\${ Dta.x }"\n${attrs}`), at: '5:26', resource: 'file#/etc/x', says: /unknown name Dta/ },
}

const check = (expect: import('vitest').ExpectStatic, r: Run, m: string, c: Case): void => {
  expect(r.code, show(r)).toBe(1)
  expect(r.signal).toBe(null)
  expect(r.stdout, show(r)).toBe('')
  expect(r.stderr, show(r)).toMatch(c.says)
  expect(r.stderr).toMatch(/^error: /)
  expect(r.stderr, show(r)).not.toMatch(stackFrame)
  expect(r.stderr).not.toMatch(/internal error/)
  if (c.at !== undefined) expect(r.stderr, show(r)).toMatch(new RegExp(`${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${c.at}: `))
  if (c.resource !== undefined) expect(r.stderr).toContain(c.resource)
}

describe.concurrent('bad manifests', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(name, async ({ expect }) => {
      const s = sandbox()
      put(s.at('/etc/seed'), 'seed\n', 0o640)
      for (const [rel, text] of Object.entries(c.beside ?? {})) put(path.join(s.host, rel), text)
      const m = s.manifest(c.manifest)
      const before = snapshot(s.root)
      const [applied, planned] = await Promise.all([plait(['apply', m, '--root', s.root]), c.plan === true ? plait(['plan', m, '--root', s.root, '--detailed-exitcode']) : undefined])
      check(expect, applied, m, c)
      if (planned !== undefined) {
        check(expect, planned, m, c)
        expect(planned.stderr).toBe(applied.stderr)
      }
      expect(snapshot(s.root)).toEqual(before)
    })
  }
})

describe.concurrent('bad command lines', () => {
  it('a missing manifest file is named', async ({ expect }) => {
    const s = sandbox()
    const missing = path.join(s.host, 'nope.yaml')
    const [planned, applied] = await Promise.all([plait(['plan', missing, '--root', s.root]), plait(['apply', missing, '--root', s.root])])
    for (const r of [planned, applied]) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toContain(missing)
      expect(r.stderr).toMatch(/no such file/)
      expect(r.stderr).not.toMatch(stackFrame)
    }
    expect(fs.readdirSync(s.root)).toEqual([])
  })

  it('a --root that does not exist, or is a file, is refused', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(file(attrs))
    const nowhere = path.join(s.host, 'no-such-root')
    const aFile = path.join(s.host, 'a-file')
    fs.writeFileSync(aFile, '')
    const runs = await Promise.all([
      plait(['plan', m, '--root', nowhere]),
      plait(['apply', m, '--root', nowhere]),
      plait(['apply', m, '--root', aFile]),
    ])
    for (const r of runs) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/--root .*not an existing directory/)
      expect(r.stderr).not.toMatch(stackFrame)
    }
    expect(fs.existsSync(nowhere)).toBe(false)
    expect(fs.readFileSync(aFile, 'utf8')).toBe('')
  })

  it('plan --out into a directory that does not exist is an error naming the file', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(file(attrs, '/x'))
    const out = path.join(s.host, 'no-such-dir', 'plan.json')
    const r = await plait(['plan', m, '--root', s.root, '--out', out])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain(`cannot write ${out}`)
    expect(r.stderr).not.toMatch(stackFrame)
    expect(fs.readdirSync(s.root)).toEqual([])
  })

  it('an unknown command or option is an error, exit 1', async ({ expect }) => {
    const [cmd, opt] = await Promise.all([plait(['frobnicate']), plait(['plan', 'x.yaml', '--frob'])])
    for (const r of [cmd, opt]) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/unknown (command|option)/)
      expect(r.stderr).not.toMatch(stackFrame)
    }
  })
})
