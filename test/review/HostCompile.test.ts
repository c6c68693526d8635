// HostCompile: a revision's manifest compiled for a host's facts from files held in memory, with
// templates and data read from that revision only, and failures as the CLI prints them.
import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as HostCompile from '../../src/review/HostCompile.js'

const manifest = (port: number): string => `hierarchy:
  order:
    - role:\${ lookup('facts.role') }
data:
  port: ${port}
overrides:
  role:web:
    port: 443
ccm:
  resources:
    - file:
        - /etc/app.conf:
            content: "{{ template('app.templ') }}"
            owner: root
            group: root
            mode: "0644"
`

const sources = (port: number, templ: string, extra: Partial<HostCompile.Sources> = {}): HostCompile.Sources => ({
  manifest: 'site/m.yaml',
  text: manifest(port),
  files: new Map<string, HostCompile.File>([['app.templ', { text: templ }]]),
  ...extra,
})

const setting = { baseDir: '/srv/site', now: '2026-11-25T10:00:00Z', assignments: [], labels: { from: 'main', to: 'HEAD' } }
const host = (name: string, role: string) => ({ name, file: `facts/${name}.json`, text: JSON.stringify({ role }) })

describe('HostCompile', () => {
  it('compiles each revision with its own template and data, per host facts', () => {
    const from = HostCompile.prepare(sources(80, 'port = {{ Data.port }}\n'))
    const to = HostCompile.prepare(sources(8080, 'listen = {{ Data.port }}\n'))
    const web = HostCompile.outcome(host('web01', 'web'), from, to, setting)
    const db = HostCompile.outcome(host('db01', 'db'), from, to, setting)
    if (web._tag !== 'Compiled' || db._tag !== 'Compiled') throw new Error('expected both to compile')
    const lines = (o: typeof web) => (o._tag === 'Compiled' && o.diff.entries[0]?._tag === 'Changed' ? o.diff.entries[0].changes[0]?.content : undefined)
    expect(lines(web)).toEqual({ _tag: 'Text', lines: ['--- main:file#/etc/app.conf', '+++ HEAD:file#/etc/app.conf', '@@ -1,1 +1,1 @@', '-port = 443', '+listen = 443'] })
    expect(lines(db)).toEqual({ _tag: 'Text', lines: ['--- main:file#/etc/app.conf', '+++ HEAD:file#/etc/app.conf', '@@ -1,1 +1,1 @@', '-port = 80', '+listen = 8080'] })
  })

  it('reports a host that fails at one revision with the diagnostics of that revision only', () => {
    const from = HostCompile.prepare(sources(80, 'x\n'))
    const to = HostCompile.prepare(sources(80, 'x\n', { files: new Map() }))
    const o = HostCompile.outcome(host('web01', 'web'), from, to, setting)
    expect(o._tag).toBe('Failed')
    if (o._tag !== 'Failed') return
    expect(o.from).toBeUndefined()
    expect(o.to?.join('\n')).toMatch(/^error: site\/m\.yaml:13:26: .*app\.templ: no such file or directory/)
  })

  it('fails every host at a revision that has no manifest', () => {
    const from = HostCompile.prepare({ ...sources(80, 'x\n'), missing: 'site/m.yaml does not exist at 0123456789ab' })
    const o = HostCompile.outcome(host('web01', 'web'), from, HostCompile.prepare(sources(80, 'x\n')), setting)
    expect(o).toEqual({ _tag: 'Failed', host: 'web01', from: ['error: site/m.yaml does not exist at 0123456789ab'] })
  })

  it('fails every host at a revision whose manifest or hiera document holds _plugin references (no plugin runs here)', () => {
    const plain = HostCompile.prepare(sources(80, 'x\n'))
    const refer = HostCompile.prepare({ ...sources(80, 'x\n'), text: manifest(80).replace('data:\n', 'data:\n  pw:\n    _plugin: pkcs7\n    encrypted_value: "ENC[PKCS7,AAAA]"\n') })
    const o = HostCompile.outcome(host('web01', 'web'), plain, refer, setting)
    expect(o._tag).toBe('Failed')
    expect(JSON.stringify(o)).toContain('site/m.yaml holds Bolt _plugin references, which plait diff does not resolve')
    const hiera = HostCompile.prepare({ ...sources(80, 'x\n'), hiera: { file: 'h.yaml', text: 'pw:\n  _plugin: env_var\n  var: PW\n' } })
    expect(JSON.stringify(HostCompile.outcome(host('web01', 'web'), hiera, plain, setting))).toContain('h.yaml holds Bolt _plugin references')
    expect(HostCompile.outcome(host('web01', 'web'), plain, plain, setting)._tag).not.toBe('Failed')
  })

  it('reports a facts file that does not parse as a failure at both revisions', () => {
    const p = HostCompile.prepare(sources(80, 'x\n'))
    const o = HostCompile.outcome({ name: 'bad', file: 'facts/bad.json', text: '{"role": ' }, p, p, setting)
    expect(o._tag === 'Failed' && o.from !== undefined && o.to !== undefined && o.from[0]!.includes('facts/bad.json')).toBe(true)
  })

  it('reads only files below the manifest directory, and names what it cannot read', () => {
    const read = HostCompile.reader(new Map<string, HostCompile.File>([['a/b.templ', { text: 'ok' }], ['bin', { problem: 'is not UTF-8 text' }]]))
    expect(read('a/./c/../b.templ')).toEqual(E.right('ok'))
    expect(read('../secret')).toEqual(E.left('../secret is outside the manifest directory'))
    expect(read('/etc/passwd')).toEqual(E.left('/etc/passwd is outside the manifest directory'))
    expect(read('bin')).toEqual(E.left('bin is not UTF-8 text'))
    expect(read('nope')).toEqual(E.left('open nope: no such file or directory'))
  })

  it('applies --fact assignments on top of every host facts', () => {
    const p = HostCompile.prepare(sources(80, 'role = {{ Facts.role }}\n'))
    const o = HostCompile.outcome(host('web01', 'web'), p, HostCompile.prepare(sources(80, 'role = {{ Facts.role }}!\n')), { ...setting, assignments: ['role=db'] })
    expect(JSON.stringify(o)).toContain('-role = db')
  })

  it('compares the text of a source: file of the revision, and leaves one outside the manifest directory to plan time', () => {
    const text = `ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/motd:
            source: files/motd.txt
        - /etc/issue:
            source: /usr/share/issue
`
    const at = (motd: string) => HostCompile.prepare({ manifest: 'm.yaml', text, files: new Map<string, HostCompile.File>([['files/motd.txt', { text: motd }]]) })
    const o = HostCompile.outcome(host('web01', 'web'), at('hello\n'), at('welcome\n'), setting)
    if (o._tag !== 'Compiled') throw new Error(JSON.stringify(o))
    expect(o.diff.entries.map((e) => (e._tag === 'Changed' ? [e.id, e.changes.map((c) => c.path)] : e._tag))).toEqual([['file#/etc/motd', ['sourceText["files/motd.txt"]']]])
    const same = HostCompile.outcome(host('web01', 'web'), at('hello\n'), at('hello\n'), setting)
    expect(same._tag === 'Compiled' && same.diff.entries).toEqual([])
  })
})
