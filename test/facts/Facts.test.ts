import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import * as Y from 'yaml'
import { describe, expect, it } from 'vitest'
import * as Facts from '../../src/facts/Facts.js'

const assign = (text: string): unknown => {
  const r = Facts.assignment(text)
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

describe('assignment (--fact k=v)', () => {
  it('builds nested maps from a dotted key and keeps the value a string', () => {
    expect(assign('role=web')).toEqual({ role: 'web' })
    expect(assign('host.info.platformFamily=debian')).toEqual({ host: { info: { platformFamily: 'debian' } } })
    expect(assign('port=8080')).toEqual({ port: '8080' })
    expect(assign('flag=true')).toEqual({ flag: 'true' })
    expect(assign('url=a=b')).toEqual({ url: 'a=b' })
    expect(assign('empty=')).toEqual({ empty: '' })
  })

  it('refuses an assignment without "=", with an empty key or an empty segment', () => {
    for (const [text, why] of [['role', 'no "="'], ['=web', 'the key is empty'], ['a..b=1', 'the key has an empty segment'], ['.a=1', 'the key has an empty segment'], ['a.=1', 'the key has an empty segment']] as const) {
      const r = Facts.assignment(text)
      expect(E.isLeft(r) && r.left.message).toBe(`--fact ${JSON.stringify(text)}: ${why}`)
      expect(E.isLeft(r) && r.left.hint).toContain('--fact key=value')
    }
  })

  it('keeps a key named __proto__ as a fact', () => {
    const f = assign('__proto__.x=1') as Record<string, unknown>
    expect(Object.keys(f)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(f)).toBe(Object.prototype)
  })
})

describe('assemble (precedence)', () => {
  const system = { host: { info: { hostname: 'box', platformFamily: 'debian' } }, cpu: { info: [{ cpu: 0 }] }, role: 'system' }

  it('layers system facts < facts files in order < --fact in order', () => {
    const f = Facts.assemble({
      system,
      files: [{ role: 'etc', env: 'prod' }, { role: 'user', host: { info: { platformFamily: 'rhel' } } }],
      assignments: [{ env: 'dev' }, { env: 'test' }],
    })
    expect(f).toEqual({ host: { info: { hostname: 'box', platformFamily: 'rhel' } }, cpu: { info: [{ cpu: 0 }] }, role: 'user', env: 'test' })
  })

  it('merges as CCM merges facts: lists concatenate', () => {
    expect(Facts.assemble({ system, files: [{ cpu: { info: [{ cpu: 1 }] } }], assignments: [] })['cpu']).toEqual({ info: [{ cpu: 0 }, { cpu: 1 }] })
  })

  it('lets --facts FILE stand for another machine: it replaces system facts and facts files, and --fact still wins', () => {
    const f = Facts.assemble({ system, files: [{ local: true }], factsFile: { host: { info: { hostname: 'other' } } }, assignments: [{ role: 'web' }] })
    expect(f).toEqual({ host: { info: { hostname: 'other' } }, role: 'web' })
  })

  fcTest.prop([fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.string(), { maxKeys: 6 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.string(), { maxKeys: 6 })])(
    'a later layer wins every scalar it sets',
    (a, b) => {
      const f = Facts.assemble({ system: a, files: [b], assignments: [] })
      for (const [k, v] of Object.entries(b)) expect(f[k]).toBe(v)
      for (const [k, v] of Object.entries(a)) if (!(k in b)) expect(f[k]).toBe(v)
    },
  )
})

describe('query', () => {
  const facts = { host: { info: { platform: 'ubuntu' } }, cpu: { info: [{ modelName: 'A' }, { modelName: 'B' }, { other: 1 }] }, 'a.b': { c: 1 }, n: null }

  it('follows dotted paths, list indexes, # for a length and #.key over a list', () => {
    expect(Facts.query(facts, 'host.info.platform')).toEqual(E.right('ubuntu'))
    expect(Facts.query(facts, 'cpu.info.1.modelName')).toEqual(E.right('B'))
    expect(Facts.query(facts, 'cpu.info.#')).toEqual(E.right(3))
    expect(Facts.query(facts, 'cpu.info.#.modelName')).toEqual(E.right(['A', 'B']))
    expect(Facts.query(facts, 'a\\.b.c')).toEqual(E.right(1))
    expect(Facts.query(facts, '')).toEqual(E.right(facts))
    expect(Facts.query(facts, 'n')).toEqual(E.right(null))
  })

  it('says where a path stops', () => {
    expect(Facts.query(facts, 'nope')).toEqual(E.left('the top level has no key "nope" (it has host, cpu, a.b, n)'))
    expect(Facts.query(facts, 'host.info.nope')).toEqual(E.left('host.info has no key "nope" (it has platform)'))
    expect(Facts.query(facts, 'cpu.info.7')).toEqual(E.left('cpu.info has 3 elements, no 7'))
    expect(Facts.query(facts, 'cpu.info.x')).toEqual(E.left('cpu.info is a list: use an index, or # for its length'))
    expect(Facts.query(facts, 'host.info.platform.x')).toEqual(E.left('host.info.platform is a string, it has no "x"'))
    expect(Facts.query(facts, 'n.x')).toEqual(E.left('n is null, it has no "x"'))
  })
})

describe('render', () => {
  it('prints a string bare, other scalars as text, trees as YAML or JSON', () => {
    expect(Facts.render('ubuntu', 'text')).toBe('ubuntu\n')
    expect(Facts.render(3, 'text')).toBe('3\n')
    expect(Facts.render({ a: [1, { b: 'x' }] }, 'text')).toBe('a:\n  - 1\n  - b: x\n')
    expect(Facts.render({ a: 1 }, 'json')).toBe('{\n  "a": 1\n}\n')
    expect(Facts.render('x', 'json')).toBe('"x"\n')
  })

  fcTest.prop([fc.jsonValue()])('text output reads back as the same value', (v) => {
    fc.pre(typeof v === 'object' && v !== null)
    const normal = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) // -0 and 0 print alike
    expect(normal(Y.parse(Facts.render(v, 'text')))).toEqual(normal(v))
  })
})
