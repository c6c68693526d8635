// Compiling libral resources: a provider's type is a resource type, `provider:` picks one, and the
// properties are decoded against the provider's metadata, every problem positioned.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Catalog from '../support/catalog.js'
import { compile, parse, usesProviders } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Position from '../../src/core/Position.js'
import type * as Node from '../../src/manifest/Node.js'
import * as Registry from '../../src/interpreters/libral/protocol/Registry.js'
import type { Provider } from '../../src/interpreters/libral/type/Spec.js'
import * as Types from '../../src/types/registry.js'
import { hostMeta, meta } from '../libral/support.js'

const other = meta(
  `
provider:
  type: host
  name: other
  invoke: simple
  actions: [list, update]
  suitable: true
  attributes:
    name: {}
    ip: {}
`,
  'other',
)
const broken = meta(
  `
provider:
  type: sysctl
  name: gone
  invoke: simple
  actions: [list, update]
  suitable: { commands: [definitely-not-here] }
  attributes:
    name: {}
    value: {}
`,
  'gone',
)
const fileProvider = meta(
  `
provider:
  type: file
  name: lib
  invoke: simple
  actions: [list, update]
  suitable: true
  attributes:
    name: {}
    content: {}
`,
  'lib',
)

const entry = (m: typeof hostMeta, suitable: E.Either<string, true> = E.right(true)): Provider => ({ meta: m, path: `/p/${m.name}.prov`, suitable, digest: `d-${m.qname}` })
const one = Registry.make([entry(hostMeta), entry(broken, E.left('command definitely-not-here is missing')), entry(fileProvider)])
const two = Registry.make([entry(hostMeta), entry(other)])

const compileWith = (text: string, registry: Registry.Registry<Provider> = one) => compile('m.yaml', text, '/srv', { plugins: [Types.libralPlugin(registry)] })
const ok = (text: string, registry?: Registry.Registry<Provider>) => {
  const r = compileWith(text, registry)
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}
const errors = (text: string, registry?: Registry.Registry<Provider>) => {
  const r = compileWith(text, registry)
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map(Diagnostic.render)
}
const hosts = (body: string) => `data:\n  ip: 10.0.0.5\nccm:\n  resources:\n    - host:\n${body.replace(/^/gm, '        ')}\n`

describe('libral resources in a manifest', () => {
  it('decodes typed attributes, templates included, with the type one provider', () => {
    const c = ok(hosts(`- db1:\n    ip: "{{ lookup('data.ip') }}"\n    aliases: [db, "{{ 'primary' }}"]\n    enabled: true\n- old:\n    ensure: absent`))
    const rs = Catalog.libral(c)
    expect(rs.map((r) => [r.id, r.provider.meta.qname, r.attrs])).toEqual([
      ['host#db1', 'host::test', { ip: '10.0.0.5', aliases: ['db', 'primary'], enabled: true }],
      ['host#old', 'host::test', { ensure: 'absent' }],
    ])
    expect(Catalog.providers(c).map((p) => p.meta.qname)).toEqual(['host::test'])
  })

  it('types are exact: a string is not a boolean, a list is not a string', () => {
    const es = errors(hosts(`- db1:\n    enabled: "yes"\n    ip: [a]`))
    expect(es.join('\n')).toMatch(/m\.yaml:7:13: .*attribute "enabled" \(boolean\)/)
    expect(es.join('\n')).toMatch(/m\.yaml:8:13: .*attribute "ip" \(string\)/)
  })

  it('refuses unknown, read-only and name attributes, each at its key', () => {
    const es = errors(hosts(`- db1:\n    colour: red\n    target: /etc/hosts\n    name: x`)).join('\n')
    expect(es).toMatch(/7:13: .*host::test has no attribute "colour"/)
    expect(es).toMatch(/8:13: .*attribute "target" of host::test is read-only/)
    expect(es).toMatch(/9:13: .*"name" can not be set/)
  })

  it('refuses names the simple protocol cannot carry', () => {
    expect(errors(hosts(`- " db1":\n    ip: 1.2.3.4`)).join('\n')).toMatch(/surrounding whitespace/)
  })

  it('asks which provider when a type has several, and takes provider: by name or full name', () => {
    expect(errors(hosts(`- db1:\n    ip: 1.2.3.4`), two).join('\n')).toMatch(/6:11: .*type host has several suitable providers \(host::other, host::test\): name one/)
    const c = ok(hosts(`- db1:\n    provider: other\n    ip: 1.2.3.4\n- db2:\n    provider: host::test\n    ip: 1.2.3.4`), two)
    expect(Catalog.libral(c).map((r) => r.provider.meta.qname)).toEqual(['host::other', 'host::test'])
  })

  it('names an unknown, unsuitable or wrong-type provider at the provider: value', () => {
    expect(errors(hosts(`- db1:\n    provider: nope`)).join('\n')).toMatch(/7:23: .*unknown provider "nope" for a host resource.*\n.*host providers: host::test/)
    expect(errors(hosts(`- db1:\n    provider: sysctl::gone`)).join('\n')).toMatch(/provider sysctl::gone manages sysctl resources, not host/)
    expect(errors(`ccm:\n  resources:\n    - sysctl:\n        - vm.swappiness:\n            value: "10"\n`).join('\n')).toMatch(/type sysctl has no suitable provider: sysctl::gone \(command definitely-not-here is missing\)/)
  })

  it("sends plait's own type to a libral provider only by its full name", () => {
    const text = (provider: string) => `ccm:\n  resources:\n    - file:\n        - /etc/x:\n            provider: ${provider}\n            content: hi\n`
    const c = ok(text('file::lib'))
    expect(c.resources[0]).toMatchObject({ _tag: 'libral', id: 'file#/etc/x', attrs: { content: 'hi' } })
    expect(errors(text('lib')).join('\n')).toMatch(/unknown file provider "lib"/)
  })

  it('lists the libral types among the known ones', () => {
    expect(errors(`ccm:\n  resources:\n    - hots:\n        - x: {}\n`).join('\n')).toMatch(/unknown resource type "hots"[\s\S]*known types: file, exec, service, package, holo, host, sysctl/)
  })

  it('rejects a duplicate libral resource', () => {
    expect(errors(hosts(`- db1:\n    ip: 1.1.1.1\n- db1:\n    ip: 1.1.1.2`)).join('\n')).toMatch(/duplicate resource host#db1/)
  })
})

describe('usesProviders', () => {
  const uses = (text: string): boolean => {
    const t = parse('m.yaml', text)
    if (E.isLeft(t)) throw new Error('bad yaml')
    return usesProviders(t.right)
  }
  it('is true for a type plait does not have, or a provider named by its full name', () => {
    expect(uses(hosts('- db1: {}'))).toBe(true)
    expect(uses(`ccm:\n  resources:\n    - file:\n        - /x:\n            provider: file::lib\n`)).toBe(true)
  })
  /** The definition, as a recursion over every node (the code walks a stack instead). */
  const model = (tree: Node.Node): boolean => {
    const names = (n: Node.Node): boolean =>
      n._tag === 'Seq' ? n.items.some(names) : n._tag === 'Map' ? n.entries.some((e) => (e.key === 'provider' && e.value._tag === 'Scalar' && e.value.text.includes('::')) || names(e.value)) : false
    const ccm = tree._tag === 'Map' ? tree.entries.find((e) => e.key === 'ccm') : undefined
    const list = ccm !== undefined && ccm.value._tag === 'Map' ? ccm.value.entries.find((e) => e.key === 'resources') : undefined
    if (list === undefined || list.value._tag !== 'Seq') return false
    return list.value.items.some((item) => item._tag === 'Map' && item.entries.some((e) => !Types.isBuiltIn(e.key) || names(e.value)))
  }
  const at = Position.make('m.yaml', 1, 1)
  const scalar = fc.constantFrom('posix', 'file::lib', 'a::b', '', 'x').map((text): Node.Node => ({ _tag: 'Scalar', value: text, text, quoted: false, at }))
  const key = fc.oneof({ arbitrary: fc.constant('provider'), weight: 3 }, { arbitrary: fc.constantFrom('file', 'exec', 'hosts', 'content', 'ccm', 'resources'), weight: 2 })
  const { node } = fc.letrec<{ node: Node.Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('node'), { maxLength: 4 }).map((items): Node.Node => ({ _tag: 'Seq', items, at })),
      fc.array(fc.record({ key, value: tie('node') }), { maxLength: 4 }).map((es): Node.Node => ({ _tag: 'Map', entries: es.map((e) => ({ ...e, keyAt: at })), at })),
    ),
  }))
  // resource groups: mostly of plait's own types, whose values decide it
  const group = fc.oneof(
    { arbitrary: fc.array(fc.record({ key: fc.constantFrom('file', 'exec', 'package', 'service'), value: node }), { minLength: 1, maxLength: 3 }).map((es): Node.Node => ({ _tag: 'Map', entries: es.map((e) => ({ ...e, keyAt: at })), at })), weight: 4 },
    { arbitrary: node, weight: 1 },
  )
  const manifest = fc.array(group, { maxLength: 5 }).map((items): Node.Node => ({
    _tag: 'Map',
    entries: [{ key: 'ccm', keyAt: at, value: { _tag: 'Map', entries: [{ key: 'resources', keyAt: at, value: { _tag: 'Seq', items, at } }], at } }],
    at,
  }))
  fcTest.prop([fc.oneof(manifest, node)], { numRuns: 500 })('says what the recursive definition says, of any tree', (tree) => {
    expect(usesProviders(tree)).toBe(model(tree))
  })

  it('is false for a manifest of plait types, so no provider is discovered for it', () => {
    expect(uses(`ccm:\n  resources:\n    - file:\n        - /x:\n            provider: posix\n            content: "a::b"\n`)).toBe(false)
    expect(uses(`data: {a: 1}\n`)).toBe(false)
  })
})
