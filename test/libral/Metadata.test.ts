import * as fs from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Metadata from '../../src/interpreters/libral/protocol/Metadata.js'
import * as Value from '../../src/interpreters/libral/protocol/Value.js'
import { hostMeta, meta, ownProvider } from './support.js'

const problems = (yaml: string, file = 'p.yaml'): string[] => {
  const r = Metadata.parse(file, 'p', yaml)
  if (E.isRight(r)) throw new Error('expected problems')
  return r.left.map(Diagnostic.render)
}

const base = (extra: string): string => `provider:\n  type: t\n  invoke: simple\n  suitable: true\n${extra}`

describe('Metadata.parse', () => {
  it('decodes the spec example with attributes, defaulting type to string and kind to rw', () => {
    const m = hostMeta
    expect(m.qname).toBe('host::test')
    expect(m.invoke).toBe('simple')
    expect(m.actions).toEqual({ list: true, find: true, update: true })
    expect(m.attributes.map((a) => a.name)).toEqual(['name', 'ensure', 'ip', 'aliases', 'enabled', 'target', 'secret'])
    expect(Metadata.attribute(m, 'ip')).toMatchObject({ type: Value.string, kind: 'rw' })
    expect(Metadata.attribute(m, 'aliases')?.type).toEqual(Value.arrayString)
    expect(Metadata.attribute(m, 'target')?.kind).toBe('r')
    expect(m.noop).toBe(false)
  })

  it('names the provider after its file unless provider.name says otherwise, and puts name first', () => {
    const m = meta(base('  attributes:\n    ip: {}\n    name: {}\n'), 'etc_hosts')
    expect(m.qname).toBe('t::etc_hosts')
    expect(m.attributes[0]!.name).toBe('name')
    expect(meta(base('  name: other\n  attributes:\n    name:\n'), 'etc_hosts').qname).toBe('t::other')
  })

  it('maps the json convention actions get and set to list, find and update', () => {
    const m = meta('provider:\n  type: t\n  invoke: json\n  actions: [get, set]\n  suitable: true\n  attributes:\n    name:\n')
    expect(m.actions).toEqual({ list: true, find: true, update: true })
    const s = meta(base('  actions: [list]\n  attributes:\n    name:\n'))
    expect(s.actions).toEqual({ list: true, find: false, update: false })
  })

  it('reads suitable as a boolean, the string "true", or commands (with "not")', () => {
    expect(meta(base('  attributes:\n    name:\n')).suitable).toEqual({ _tag: 'Fixed', value: true })
    const q = meta('provider:\n  type: t\n  invoke: simple\n  suitable: "false"\n  attributes:\n    name:\n')
    expect(q.suitable).toEqual({ _tag: 'Fixed', value: false })
    const c = meta('provider:\n  type: t\n  invoke: simple\n  suitable:\n    commands: [dpkg, "not rpm"]\n  attributes:\n    name:\n')
    expect(c.suitable).toEqual({ _tag: 'Commands', checks: [{ command: 'dpkg', present: true }, { command: 'rpm', present: false }] })
    expect(Metadata.suitability(c.suitable, (x) => x === 'dpkg')).toEqual(E.right(true))
    expect(Metadata.suitability(c.suitable, () => true)).toEqual(E.left('command "rpm" is on PATH'))
    expect(Metadata.suitability(c.suitable, () => false)).toEqual(E.left('command "dpkg" is not on PATH'))
  })

  it('reads the plait extension keys', () => {
    const m = meta(base("  attributes:\n    name:\n    ip:\n  plait:\n    noop: true\n    timeout: 5\n    test:\n      name: '[a-z]+'\n      attributes: { ip: '10\\.0\\.0\\.[0-9]' }\n"))
    expect(m.noop).toBe(true)
    expect(m.timeoutSeconds).toBe(5)
    expect(m.test).toEqual({ name: '[a-z]+', attributes: { ip: '10\\.0\\.0\\.[0-9]' } })
  })

  it.each([
    ['not a map', '- a\n', 'must be a map with a "provider" key'],
    ['no provider', 'meta: {}\n', 'no "provider" entry'],
    ['no type', 'provider:\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n', 'provider.type is missing'],
    ['a bad type', 'provider:\n  type: Host\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n', 'must be lower-case'],
    ['no invoke', 'provider:\n  type: t\n  suitable: true\n  attributes:\n    name:\n', 'provider.invoke is missing'],
    ['an unknown convention', 'provider:\n  type: t\n  invoke: native\n  suitable: true\n  attributes:\n    name:\n', 'not a calling convention'],
    ['no suitable', 'provider:\n  type: t\n  invoke: simple\n  attributes:\n    name:\n', 'provider.suitable is missing'],
    ['a bad suitable', base('').replace('true', 'maybe') + '  attributes:\n    name:\n', 'must be true or false'],
    ['a list suitable', base('').replace('suitable: true', 'suitable: [a]') + '  attributes:\n    name:\n', 'found a list'],
    ['bad commands', base('').replace('suitable: true', 'suitable: { commands: [a, "/bin/b"] }') + '  attributes:\n    name:\n', 'is not a command name'],
    ['no attributes', base(''), 'provider.attributes is missing'],
    ['no name attribute', base('  attributes:\n    ip:\n'), 'no "name" attribute'],
    ['a non-string name', base('  attributes:\n    name: { type: boolean }\n'), '"name" must be of type string'],
    ['a reserved attribute', base('  attributes:\n    name:\n    ral_x:\n'), 'not allowed'],
    ['a dunder attribute', base('  attributes:\n    name:\n    __proto__:\n'), 'not allowed'],
    ['a bad kind', base('  attributes:\n    name:\n    ip: { kind: x }\n'), 'unknown kind "x"'],
    ['a bad type', base('  attributes:\n    name:\n    ip: { type: int }\n'), 'unknown type "int"'],
    ['an unknown action', base('  actions: [list, frobnicate]\n  attributes:\n    name:\n'), 'is not an action'],
    ['an unknown plait key', base('  attributes:\n    name:\n  plait:\n    nope: 1\n'), 'unknown key "nope"'],
    ['a bad noop', base('  attributes:\n    name:\n  plait:\n    noop: yes please\n'), 'noop must be true or false'],
    ['a bad timeout', base('  attributes:\n    name:\n  plait:\n    timeout: -1\n'), 'positive number'],
    ['a bad test regex', base("  attributes:\n    name:\n  plait:\n    test: { name: '[' }\n"), 'not a valid regular expression'],
    ['a test hint for an unknown attribute', base("  attributes:\n    name:\n  plait:\n    test: { attributes: { ip: 'x' } }\n"), 'not an attribute'],
    ['broken YAML', 'provider: [\n', ''],
  ])('refuses %s with a diagnostic naming the file', (_what, yaml, why) => {
    const ps = problems(yaml, '/x/providers/p.yaml')
    expect(ps.length).toBeGreaterThan(0)
    expect(ps.join('\n')).toContain('/x/providers/p.yaml:')
    expect(ps.join('\n')).toContain(why)
  })

  it('reports every problem at once, with its line', () => {
    const ps = problems('provider:\n  type: t\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n    a: { kind: x }\n    b: { type: nope }\n')
    expect(ps).toHaveLength(2)
    expect(ps[0]).toContain('p.yaml:7:')
    expect(ps[1]).toContain('p.yaml:8:')
  })

  it("accepts plait's own providers' metadata", () => {
    const hosts = Metadata.parse('etc_hosts.yaml', 'etc_hosts', fs.readFileSync(ownProvider('etc_hosts').replace(/\.prov$/, '.yaml'), 'utf8'))
    expect(E.isRight(hosts) && hosts.right.qname).toBe('host::etc_hosts')
  })
})
