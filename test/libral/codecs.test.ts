// The small pure modules: Args, Json, Desired, Log, Env, Registry, Render, UpdateStep.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Args from '../../src/interpreters/libral/protocol/Args.js'
import * as Desired from '../../src/interpreters/libral/protocol/Desired.js'
import * as Env from '../../src/interpreters/libral/protocol/Env.js'
import * as Json from '../../src/interpreters/libral/protocol/Json.js'
import * as Log from '../../src/interpreters/libral/protocol/Log.js'
import * as Registry from '../../src/interpreters/libral/protocol/Registry.js'
import * as Render from '../../src/interpreters/libral/protocol/Render.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import * as LibralSpec from '../../src/interpreters/libral/type/Spec.js'
import * as UpdateStep from '../../src/interpreters/libral/protocol/UpdateStep.js'
import { hostMeta, meta } from './support.js'

const noNul = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\u0000'))

describe('Args', () => {
  it('puts ral_action first, then name, then the changes, then ral_noop', () => {
    expect(Args.forAction('update', { name: 'db 1', changes: [Resource.change('ip', undefined, '10.0.0.5'), Resource.change('aliases', undefined, ['a', 'b'])], noop: true })).toEqual(
      E.right(['ral_action=update', "name='db 1'", "ip='10.0.0.5'", "aliases='a,b'", 'ral_noop=true']),
    )
  })

  it("escapes a single quote by closing, escaping and reopening (libral did not)", () => {
    expect(Args.arg('name', "it's")).toEqual(E.right("name='it'\\''s'"))
  })

  it('refuses what no argument can carry', () => {
    expect(E.isLeft(Args.arg('name', 'a\u0000b'))).toBe(true)
    expect(E.isLeft(Args.arg('bad-key', 'x'))).toBe(true)
    expect(E.isLeft(Args.arg('big', 'x'.repeat(Args.maxArgBytes)))).toBe(true)
    expect(E.isLeft(Args.forAction('update', { name: 'a', changes: [Resource.change('aliases', undefined, ['a,b'])] }))).toBe(true)
  })

  fcTest.prop([noNul, noNul])('a shell reading of the arguments gives every value back', (name, v) => {
    const argv = Args.forAction('update', { name, changes: [Resource.change('ip', undefined, v)] })
    expect(E.isRight(argv)).toBe(true)
    if (E.isRight(argv)) expect(Args.read(argv.right)).toEqual(E.right([['ral_action', 'update'], ['name', name], ['ip', v]]))
  })
})

describe('Json', () => {
  it('encodes get and set input', () => {
    expect(JSON.parse(Json.getInput(['a']))).toEqual({ names: ['a'] })
    const found = Resource.present(Resource.make('a', { ip: '1', enabled: true }))
    expect(JSON.parse(Json.setInput(found, [Resource.change('ip', '1', '2')], false))).toEqual({
      ral: { noop: false },
      updates: [{ name: 'a', is: { name: 'a', ip: '1', enabled: true }, should: { name: 'a', ip: '2' } }],
    })
  })

  it('decodes get output typed by the metadata', () => {
    const r = Json.parseGet(hostMeta, JSON.stringify({ resources: [{ name: 'a', ip: '1', enabled: 'false', aliases: ['x'], other: 1 }] }))
    expect(r).toEqual(E.right({ _tag: 'Ok', value: [Resource.make('a', { ip: '1', enabled: false, aliases: ['x'] })], notes: ['ignored attribute "other", which the metadata of host::test does not describe'] }))
  })

  it('reads an unreported name, or an error of kind unknown, as absent', () => {
    expect(Json.parseGetOne(hostMeta, 'a', '{"resources": []}')).toEqual(E.right({ _tag: 'Ok', value: Resource.absent('a'), notes: [] }))
    expect(Json.parseGetOne(hostMeta, 'a', '{"error": {"message": "no", "kind": "unknown"}}')).toEqual(E.right({ _tag: 'Ok', value: Resource.absent('a'), notes: [] }))
  })

  it('decodes set output: changes, derive, errors', () => {
    const r = Json.parseSet(hostMeta, 'a', JSON.stringify({ changes: [{ name: 'a', ip: { is: '2', was: '1' } }], derive: true }))
    expect(r).toEqual(E.right({ _tag: 'Ok', value: { unknown: false, derive: true, changes: [Resource.change('ip', '1', '2')] }, notes: [] }))
    expect(Json.parseSet(hostMeta, 'a', '{"error": {"message": "nope"}}')).toEqual(E.right({ _tag: 'Error', message: 'nope', kind: 'failed' }))
  })

  it.each([
    ['not json', 'not JSON'],
    ['[]', 'not a JSON object'],
    ['{}', 'no "resources" list'],
    ['{"resources": [{"ip": "1"}]}', 'no "name"'],
    ['{"resources": [{"name": "a", "enabled": 3}]}', 'expected a boolean'],
    ['{"error": "x"}', '"error" must be an object'],
  ])('refuses get output %s', (text, why) => {
    const r = Json.parseGet(hostMeta, text)
    expect(E.isLeft(r) && r.left).toContain(why)
  })
})

describe('Desired', () => {
  it('decodes typed manifest values and reports every problem with its position', () => {
    expect(Desired.decode(hostMeta, [{ key: 'ip', value: '10.0.0.5' }, { key: 'enabled', value: true }])).toEqual(E.right({ ip: '10.0.0.5', enabled: true }))
    const at = { file: 'm.yaml', line: 3, col: 5 }
    const r = Desired.decode(hostMeta, [{ key: 'enabled', value: 'yes', at }, { key: 'target', value: '/x', at }, { key: 'colour', value: 'red', at }, { key: 'name', value: 'x', at }], 'host::test/db1')
    const msgs = E.isLeft(r) ? r.left.map(Diagnostic.render) : []
    expect(msgs).toHaveLength(4)
    expect(msgs[0]).toContain('m.yaml:3:5: host::test/db1: attribute "enabled" (boolean): expected a boolean')
    expect(msgs[1]).toContain('read-only')
    expect(msgs[2]).toContain('has no attribute "colour"')
    expect(msgs[2]).toContain('hint: its writable attributes: ensure, ip, aliases, enabled, secret')
    expect(msgs[3]).toContain('"name" can not be set')
  })

  it('refuses names that # simple output can not carry back', () => {
    expect(Desired.nameProblem('db1')).toBeUndefined()
    expect(Desired.nameProblem('')).toContain('empty')
    expect(Desired.nameProblem('a\nb')).toContain('line break')
    expect(Desired.nameProblem(' a')).toContain('surrounding whitespace')
  })

  it('reads attr=value text as ralsh did', () => {
    expect(Desired.readArgs(hostMeta, ['ip=a=b', 'aliases=x,y', 'enabled=TRUE'])).toEqual(E.right({ ip: 'a=b', aliases: ['x', 'y'], enabled: true }))
    const r = Desired.readArgs(hostMeta, ['enabled=perhaps', 'ip', 'ip=1', 'ip=2'])
    expect(E.isLeft(r) && r.left).toEqual(['failed to read attribute enabled: "perhaps" is not a boolean (true or false)', '"ip" is not attr=value', 'attribute "ip" is given twice'])
  })
})

describe('Log', () => {
  it('reads the level prefix, defaulting to warn', () => {
    expect(Log.parse('debug: a\nINFO:b\nwarning: c\nerror: d\nplain\n\n')).toEqual([
      { level: 'debug', message: 'a' },
      { level: 'info', message: 'b' },
      { level: 'warn', message: 'c' },
      { level: 'error', message: 'd' },
      { level: 'warn', message: 'plain' },
    ])
    expect(Log.atLeast('warn')({ level: 'info', message: '' })).toBe(false)
  })
})

describe('Env.scrub', () => {
  it('keeps PATH, HOME, LANG, LC_* and PLAIT_*, and sets PLAIT_ROOT_DIR only for a sandbox', () => {
    const host = { PATH: '/bin', HOME: '/root', LANG: 'C', LC_ALL: 'C', PLAIT_X: '1', PLAIT_ROOT_DIR: '/stray', SECRET: 's', SSH_AUTH_SOCK: '/s' }
    expect(Env.scrub(host)).toEqual({ PATH: '/bin', HOME: '/root', LANG: 'C', LC_ALL: 'C', PLAIT_X: '1' })
    expect(Env.scrub(host, '/tmp/root')).toMatchObject({ PLAIT_ROOT_DIR: '/tmp/root' })
    expect(Env.scrub({}).PATH).toBe(Env.defaultPath)
  })
})

describe('Registry.resolve', () => {
  const entry = (yaml: string, name: string, suitable: E.Either<string, true> = E.right(true)): Registry.Entry => ({ meta: meta(yaml, name), path: `/p/${name}.prov`, suitable })
  const pkg = (): string => `provider:\n  type: package\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n`
  const apt = entry(pkg(), 'apt')
  const dnf = entry(pkg(), 'dnf', E.left('command "dnf" is not on PATH'))

  it('takes a full name, or a type with one suitable provider', () => {
    const r = Registry.make([dnf, apt])
    expect(r.providers.map((p) => p.meta.qname)).toEqual(['package::apt', 'package::dnf'])
    expect(Registry.resolve(r, 'package::apt')).toEqual(E.right(apt))
    expect(Registry.resolve(r, 'package')).toEqual(E.right(apt))
    expect(Registry.resolve(r, 'package::dnf')).toEqual(E.left('provider package::dnf is not suitable on this system: command "dnf" is not on PATH'))
    expect(Registry.resolve(r, 'service')).toEqual(E.left("unknown provider: 'service'"))
  })

  it('refuses an ambiguous type, and keeps the first provider of a name on the path', () => {
    const apt2 = { ...entry(pkg(), 'apt'), path: '/q/apt.prov' }
    const yum = entry(pkg(), 'yum')
    const r = Registry.make([apt, apt2, yum])
    expect(r.shadowed).toEqual([apt2])
    const amb = Registry.resolve(r, 'package')
    expect(E.isLeft(amb) && amb.left).toContain('several suitable providers (package::apt, package::yum)')
  })
})

describe('Registry lookups', () => {
  const yaml = (type: string): string => `provider:\n  type: ${type}\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n`
  const made = new Map<string, Registry.Entry['meta']>()
  const metaOf = (type: string, name: string) => {
    let m = made.get(`${type}::${name}`)
    if (m === undefined) made.set(`${type}::${name}`, (m = meta(yaml(type), name)))
    return m
  }
  const entries = fc.array(fc.record({ type: fc.constantFrom('package', 'service', 'host'), name: fc.constantFrom('a', 'b', 'c'), dir: fc.constantFrom('/p', '/q'), suitable: fc.boolean() }), { maxLength: 12 })
  fcTest.prop([entries, fc.array(fc.constantFrom('package', 'service', 'host', 'user', 'package::a', 'service::b', 'host::c', 'x::y'), { maxLength: 8 })])(
    'answer by index what scanning the providers answers (law: the index is the list)',
    (es, names) => {
      const r = Registry.make(es.map((e) => ({ meta: metaOf(e.type, e.name), path: `${e.dir}/${e.name}.prov`, suitable: e.suitable ? E.right(true as const) : E.left(`${e.name} cannot run`) })))
      // the model: the first version, a scan of every provider for each question
      const ofType = (type: string) => r.providers.filter((p) => p.meta.type === type)
      const resolve = (name: string): E.Either<string, Registry.Entry> => {
        const exact = r.providers.find((p) => p.meta.qname === name)
        if (exact !== undefined) return E.isRight(exact.suitable) ? E.right(exact) : E.left(`provider ${name} is not suitable on this system: ${exact.suitable.left}`)
        const all = ofType(name)
        const usable = all.filter((p) => E.isRight(p.suitable))
        if (usable.length === 1) return E.right(usable[0]!)
        if (usable.length > 1) return E.left(`type ${name} has several suitable providers (${usable.map((p) => p.meta.qname).join(', ')}): name one of them`)
        if (all.length > 0) return E.left(`type ${name} has no suitable provider: ${all.map((p) => `${p.meta.qname} (${E.isLeft(p.suitable) ? p.suitable.left : ''})`).join(', ')}`)
        return E.left(`unknown provider: '${name}'`)
      }
      for (const n of names) {
        expect(Registry.ofType(r, n)).toEqual(ofType(n))
        expect(Registry.resolve(r, n)).toEqual(resolve(n))
      }
      // a resource's `provider:` value of a type: the first whose full name it is, or named so of the type
      for (const type of ['package', 'service', 'host'])
        for (const value of ['a', 'b', 'c', 'package::a', 'service::b', 'x'])
          expect(LibralSpec.named(r, type, value)).toBe(r.providers.find((p) => p.meta.qname === value || (p.meta.type === type && p.meta.name === value)))
    },
  )
})

describe('Render', () => {
  it('draws a resource as ralsh did: ensure first, then alphabetical, aligned', () => {
    const f = Resource.present(Resource.make('db1', { ip: '10.0.0.5', ensure: 'present', aliases: ['db'], enabled: false }))
    expect(Render.resource('host::etc_hosts', f)).toBe("host::etc_hosts { 'db1':\n  ensure  => 'present',\n  aliases => ['db'],\n  enabled => 'false',\n  ip      => '10.0.0.5',\n}\n")
    expect(Render.resource('host::etc_hosts', Resource.absent('x'))).toBe('')
  })

  it('draws a resource of more attributes than a call takes arguments', () => {
    const attrs = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`a${i}`, 'v']))
    const drawn = Render.resource('many::things', Resource.present(Resource.make('x', attrs)))
    expect(drawn.split('\n')[1]).toBe("  a0      => 'v',")
    expect(drawn.split('\n').length).toBe(200_003)
  })

  it('draws changes as attr(was->is)', () => {
    expect(Render.changes([Resource.change('ensure', 'absent', 'present'), Resource.change('ip', undefined, '1'), Resource.change('c', 'a b', 'c')])).toBe("ensure(absent->present)\nip(->1)\nc('a b'->c)\n")
  })

  it("draws ralsh's JSON shapes", () => {
    const r = Resource.make('a', { ip: '1' })
    expect(Render.findJson(hostMeta, Resource.present(r))).toEqual({ resource: { name: 'a', ip: '1', ral: { type: 'host', provider: 'host::test' } } })
    expect(Render.updateJson(hostMeta, [Resource.change('ip', undefined, '1')], Resource.present(r))).toEqual({ changes: [{ attr: 'ip', is: '1', was: null }], resource: { name: 'a', ip: '1', ral: { type: 'host', provider: 'host::test' } } })
  })
})

describe('UpdateStep', () => {
  it('carries exactly the planned changes, with a reason and a noop message, and decodes with its codec', () => {
    const s = UpdateStep.make(hostMeta, Resource.absent('db1'), [Resource.change('ensure', 'absent', 'present'), Resource.change('ip', undefined, '1')])!
    expect(s).toMatchObject({ _tag: 'libral.update', provider: 'host::test', name: 'db1', reason: 'db1 does not exist', noop: "Would have created host::test 'db1'" })
    expect(E.isRight(UpdateStep.LibralUpdate.decode(JSON.parse(JSON.stringify(s))))).toBe(true)
    expect(UpdateStep.changesOf(s)).toEqual([Resource.change('ensure', 'absent', 'present'), Resource.change('ip', undefined, '1')])
    expect(UpdateStep.make(hostMeta, Resource.absent('db1'), [])).toBeUndefined()
  })
})
