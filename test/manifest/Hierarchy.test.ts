import { readFileSync } from 'node:fs'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as H from '../../src/manifest/Hierarchy.js'
import type * as Node from '../../src/manifest/Node.js'
import * as Yaml from '../../src/manifest/Yaml.js'

// A stand-in for the expression language: `${ lookup('facts.a.b') }` and `{{ lookup("...") }}`
// over a fact tree, a missing key rendering "" as in CCM's restricted environment.
const lookup = (facts: unknown, path: string): unknown =>
  path
    .split('.')
    .slice(1)
    .reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), facts) ?? ''

const hole = /(?:\$\{|\{\{)\s*lookup\(['"]([^'"]+)['"]\)\s*(?:\}\}|\})/g

const evaluators = (facts: unknown, calls: string[] = []): H.Evaluators => ({
  entry: (template) => {
    calls.push(template)
    if (template.includes('boom')) return E.left({ message: 'boom is not defined', offset: template.indexOf('boom') })
    let matched = false
    let holes = 0
    const key = template.replace(hole, (_, p: string) => {
      holes += 1
      const v = lookup(facts, p)
      if (v !== '' && v !== null) matched = true
      return String(v)
    })
    return E.right({ key, matched: holes === 0 ? template !== '' : matched })
  },
  value: (template) => {
    const m = /^\$\{\s*lookup\('([^']+)'\)\s*\}$/.exec(template)
    if (template.includes('boom')) return E.left({ message: 'boom is not defined', offset: template.indexOf('boom') })
    return E.right(m !== null ? lookup(facts, m[1]!) : template.replace(hole, (_, p: string) => String(lookup(facts, p))))
  },
})

const parse = (text: string, file = 'm.yaml'): Node.Node => {
  const r = Yaml.parse(file, text)
  if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('; '))
  return r.right
}

const source = (text: string, file = 'm.yaml'): H.Source => {
  const s = H.fromDocument(parse(text, file), 'manifest')
  if (E.isLeft(s)) throw new Error(s.left[0]!.message)
  return s.right
}

const resolved = (text: string, facts: unknown, calls?: string[]): H.Resolved => {
  const r = H.resolve(source(text), evaluators(facts, calls))
  if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('; '))
  return r.right
}

const problems = (text: string, facts: unknown = {}): ReadonlyArray<{ code: string; message: string; at: string }> => {
  const r = H.resolve(source(text), evaluators(facts))
  if (E.isRight(r)) throw new Error('expected problems')
  return r.left.map((d) => ({ code: d.code, message: d.message, at: d.at === undefined ? '' : Position.render(d.at) }))
}

const compat = readFileSync(new URL('../../../shared/compat/ccm/hiera-annotated.yaml', import.meta.url), 'utf8')

describe('resolve, on CCM\'s annotated example', () => {
  it('deep-merges every matching override in order', () => {
    const r = resolved(compat, { env: 'prod', role: 'web', hostname: 'web01' })
    expect(H.toJS(r.data)).toEqual({ log_level: 'TRACE', packages: ['ca-certificates', 'nginx'], web: { listen_port: 443, tls: true } })
    expect(r.used).toEqual(['env:prod', 'role:web', 'host:web01'])
    expect(r.merge).toBe('deep')
  })

  it('skips entries whose expressions render empty and sections that do not exist', () => {
    const r = resolved(compat, { role: 'db', hostname: 'web01' })
    expect(H.toJS(r.data)).toEqual({ log_level: 'TRACE', packages: ['ca-certificates'], web: { listen_port: 80, tls: false } })
    expect(r.steps.map((s) => [s.key, s.outcome])).toEqual([
      ['env:', 'skipped'],
      ['role:db', 'no-override'],
      ['host:web01', 'applied'],
    ])
  })

  it('stops at the first match with merge: first, merging shallowly, and evaluates nothing after it', () => {
    const calls: string[] = []
    const r = resolved(compat.replace('merge: deep', 'merge: first'), { env: 'prod', role: 'web', hostname: 'web01' }, calls)
    expect(H.toJS(r.data)).toEqual({ log_level: 'WARN', packages: ['ca-certificates'], web: { listen_port: 80, tls: false } })
    expect(calls).toEqual(["env:${ lookup('facts.env') }"])
    const shallow = resolved(compat.replace('merge: deep', 'merge: first'), { role: 'web' })
    expect(H.toJS(shallow.data)).toEqual({ log_level: 'INFO', packages: ['nginx'], web: { listen_port: 443, tls: true } })
  })

  it('keeps the position of the source that provided each value', () => {
    const r = resolved(compat, { role: 'web' })
    const web = r.data.entries.find((e) => e.key === 'web')!.value as Node.MapNode
    const port = web.entries.find((e) => e.key === 'listen_port')!.value
    expect(Position.render(port.at)).toBe(`m.yaml:${compat.split('\n').findIndex((l) => l.includes('listen_port: 443')) + 1}:22`)
    const level = r.data.entries.find((e) => e.key === 'log_level')!.value
    expect(level.at.line).toBe(compat.split('\n').findIndex((l) => l.includes('log_level: INFO')) + 1)
  })
})

describe('resolve, CCM\'s rules', () => {
  it('uses the hierarchy ["default"] when there is none', () => {
    const r = resolved('data: {a: 1, b: 2}\noverrides:\n  default: {b: 3}\n', {})
    expect(H.toJS(r.data)).toEqual({ a: 1, b: 3 })
    expect(r.used).toEqual(['default'])
  })

  it('never treats an entry that renders to "data" as an override when there is data', () => {
    const r = resolved('data: {a: 1}\nhierarchy: {order: [data]}\noverrides: {data: {a: 2}}\n', {})
    expect(H.toJS(r.data)).toEqual({ a: 1 })
    expect(r.steps[0]!.outcome).toBe('data-key')
    expect(H.toJS(resolved('hierarchy: {order: [data]}\noverrides: {data: {a: 2}}\n', {}).data)).toEqual({ a: 2 })
  })

  it('matches an entry when any of its interpolations is non-empty', () => {
    const text = "hierarchy:\n  order: [\"${ lookup('facts.a') }-${ lookup('facts.b') }\"]\noverrides:\n  '-x': {v: 1}\n  'y-': {v: 2}\ndata: {v: 0}\n"
    expect(H.toJS(resolved(text, { b: 'x' }).data)).toEqual({ v: 1 })
    expect(H.toJS(resolved(text, { a: 'y' }).data)).toEqual({ v: 2 })
    expect(H.toJS(resolved(text, {}).data)).toEqual({ v: 0 })
  })

  it('replaces a value of another kind, concatenates lists and merges maps under deep', () => {
    const text = 'hierarchy: {order: [a, b], merge: deep}\ndata: {m: {x: 1}, l: [1], s: [1], k: {z: 1}}\noverrides:\n  a: {m: {y: 2}, l: [2], s: str}\n  b: {k: [1], m: {x: 3}}\n'
    expect(H.toJS(resolved(text, {}).data)).toEqual({ m: { x: 3, y: 2 }, l: [1, 2], s: 'str', k: [1] })
  })

  it('renders interpolated strings of data and of applied overrides, keeping their type', () => {
    const text = "data:\n  port: \"${ lookup('facts.port') }\"\n  name: \"web-{{ lookup('facts.n') }}\"\n  plain: x\nhierarchy: {order: [a]}\noverrides:\n  a: {extra: \"${ lookup('facts.m') }\"}\n  never: {bad: \"${ boom }\"}\n"
    const r = resolved(text, { port: 8080, n: 7, m: { k: [1, 2] } })
    expect(H.toJS(r.data)).toEqual({ port: 8080, name: 'web-7', plain: 'x', extra: { k: [1, 2] } })
    const extra = r.data.entries.find((e) => e.key === 'extra')!.value
    expect(extra._tag).toBe('Map')
    expect(extra.at.line).toBe(7)
  })

  it('turns any value an expression gives into positioned data', () => {
    const at0 = Position.make('x.yaml', 2, 3)
    expect(H.toJS(H.fromJS({ a: [1n, 2.5, 'x', null, undefined, true], b: {} }, at0))).toEqual({ a: [1, 2.5, 'x', null, null, true], b: {} })
    expect(H.fromJS(2n ** 70n, at0)).toMatchObject({ _tag: 'Scalar', text: '1180591620717411303424', at: at0 })
  })

  it('leaves strings as written without a value evaluator', () => {
    const r = H.resolve(source("data: {p: \"${ lookup('facts.p') }\"}\n"), { entry: evaluators({}).entry })
    expect(E.isRight(r) && H.toJS(r.right.data)).toEqual({ p: "${ lookup('facts.p') }" })
  })
})

describe('resolve, errors', () => {
  it('points at the expression that fails, in an entry or a value', () => {
    expect(problems('hierarchy:\n  order:\n    - "os:${ boom }"\n')).toEqual([{ code: 'Expression', message: 'hierarchy entry "os:${ boom }": boom is not defined', at: 'm.yaml:3:14' }])
    expect(problems('hierarchy:\n  order:\n    - os:${ boom }\n')).toEqual([{ code: 'Expression', message: 'hierarchy entry "os:${ boom }": boom is not defined', at: 'm.yaml:3:13' }])
    expect(problems('data:\n  a: x${ boom }\n  b: ${ boom }y\n')).toEqual([
      { code: 'Expression', message: 'boom is not defined (in "x${ boom }")', at: 'm.yaml:2:10' },
      { code: 'Expression', message: 'boom is not defined (in "${ boom }y")', at: 'm.yaml:3:9' },
    ])
    expect(problems('hierarchy: {order: [a]}\noverrides:\n  a: {v: "${ boom }"}\n')).toEqual([{ code: 'Expression', message: 'boom is not defined (in "${ boom }")', at: 'm.yaml:3:14' }])
  })

  it('checks every section\'s shape against CCM\'s schema', () => {
    expect(problems('data: [1]\n')).toEqual([{ code: 'Decode', message: '"data" must be a map, found a list', at: 'm.yaml:1:7' }])
    expect(problems('hierarchy: deep\n')).toEqual([{ code: 'Decode', message: '"hierarchy" must be a map with "order" and "merge", found a string', at: 'm.yaml:1:12' }])
    expect(problems('hierarchy: {order: [], merges: deep}\n')).toEqual([{ code: 'UnknownKey', message: 'unknown key "hierarchy.merges"', at: 'm.yaml:1:24' }])
    expect(problems('hierarchy: {merge: deep}\n')[0]).toMatchObject({ code: 'Decode', message: expect.stringContaining('"hierarchy" needs an "order"'), at: 'm.yaml:1:12' })
    expect(problems('hierarchy: {order: a}\n')).toEqual([{ code: 'Decode', message: '"hierarchy.order" must be a list of strings, found a string', at: 'm.yaml:1:20' }])
    expect(problems('hierarchy: {order: [a, 42, {x: 1}]}\n')).toEqual([
      { code: 'Decode', message: '"hierarchy.order" entries must be strings, found a number', at: 'm.yaml:1:24' },
      { code: 'Decode', message: '"hierarchy.order" entries must be strings, found a map', at: 'm.yaml:1:28' },
    ])
    expect(problems('hierarchy: {order: [a], merge: Deep}\n')).toEqual([{ code: 'Validation', message: '"hierarchy.merge" must be "first" or "deep", found "Deep"', at: 'm.yaml:1:32' }])
    expect(problems('hierarchy: {order: [a], merge: [deep]}\n')).toEqual([{ code: 'Validation', message: '"hierarchy.merge" must be "first" or "deep", found a list', at: 'm.yaml:1:32' }])
    expect(problems('overrides: [a]\n')).toEqual([{ code: 'Decode', message: '"overrides" must be a map of sections named by hierarchy entries, found a list', at: 'm.yaml:1:12' }])
    expect(problems('overrides: {a: 1}\n')).toEqual([{ code: 'Decode', message: 'override "a" must be a map of data, found a number', at: 'm.yaml:1:16' }])
  })

  it('accepts null sections and a null override as empty', () => {
    expect(H.toJS(resolved('data:\nhierarchy:\noverrides:\n', {}).data)).toEqual({})
    expect(H.toJS(resolved('data: {a: 1}\nhierarchy: {order: [x], merge:}\noverrides:\n  x:\n', {}).data)).toEqual({ a: 1 })
  })
})

describe('fromDocument', () => {
  it('takes the three sections of a manifest and ignores the rest', () => {
    const s = source('ccm: {resources: []}\ndata: {a: 1}\n')
    expect(s.data?._tag).toBe('Map')
    expect(s.hierarchy).toBeUndefined()
  })

  it('refuses other keys in a hiera file, and a document that is not a map', () => {
    const r = H.fromDocument(parse('data: {}\nccm: {}\n', 'h.yaml'), 'hiera')
    expect(E.isLeft(r) && r.left.map((d) => [d.code, d.message, Position.render(d.at!)])).toEqual([['UnknownKey', 'unknown top-level key "ccm" in a hiera file', 'h.yaml:2:1']])
    const list = H.fromDocument(parse('- a\n', 'h.yaml'), 'hiera')
    expect(E.isLeft(list) && list.left[0]!.message).toBe('a hiera file must be a map, found a list')
    const empty = H.fromDocument(parse('', 'h.yaml'), 'hiera')
    expect(E.isRight(empty) && H.resolve(empty.right, evaluators({}))).toMatchObject(E.right({ used: [] }))
  })
})

describe('overlay (--hiera)', () => {
  it('deep-merges a resolved hiera file over the manifest\'s data', () => {
    const base = resolved('data: {a: {x: 1}, l: [1], s: 1}\n', {}).data
    const over = resolved('data: {a: {y: 2}, l: [2], s: 2}\nhierarchy: {order: [o]}\noverrides: {o: {t: 3}}\n', {}).data
    expect(H.toJS(H.overlay(base, over))).toEqual({ a: { x: 1, y: 2 }, l: [1, 2], s: 2, t: 3 })
  })

  it('keeps a key named __proto__ as data', () => {
    const d = H.toJS(resolved('data: {__proto__: {polluted: true}}\n', {}).data) as Record<string, unknown>
    expect(Object.keys(d)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    const merged = H.deepValues({ a: 1 }, JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>
    expect(Object.keys(merged)).toEqual(['a', '__proto__'])
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
  })
})

// laws

const at = Position.make('gen.yaml', 1, 1)

// Trees whose keys fix their kind (m*: maps, l*: lists, s*: scalars), so merges never meet a kind clash.
const tree: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ tree: Record<string, unknown> }>((tie) => ({
  tree: fc.dictionary(
    fc.constantFrom('m1', 'm2', 'l1', 'l2', 's1', 's2'),
    fc.constant(null),
    { maxKeys: 5 },
  ).chain((shape) =>
    fc.record(
      Object.fromEntries(
        Object.keys(shape).map((k) => [
          k,
          k.startsWith('m') ? fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant({}), tie('tree')) : k.startsWith('l') ? fc.array(fc.integer(), { maxLength: 3 }) : fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean()),
        ]),
      ),
    ),
  ),
})).tree

const node = (v: unknown): Node.MapNode => H.fromJS(v, at) as Node.MapNode

const run = (data: unknown, order: ReadonlyArray<string>, overrides: Readonly<Record<string, unknown>>, merge: H.Merge): unknown => {
  const r = H.resolve({ data: node(data), hierarchy: node({ order, merge }), overrides: node(overrides), at }, evaluators({}))
  if (E.isLeft(r)) throw new Error(r.left[0]!.message)
  return H.toJS(r.right.data)
}

describe('merge laws', () => {
  fcTest.prop([tree])('merging with an empty map is the identity, on either side', (x) => {
    expect(H.deepValues(x, {})).toEqual(x)
    expect(H.deepValues({}, x)).toEqual(x)
    expect(H.toJS(H.deepMaps(node(x), node({})))).toEqual(x)
  })

  fcTest.prop([tree, tree, tree])('deep merge is associative', (a, b, c) => {
    expect(H.deepValues(H.deepValues(a, b), c)).toEqual(H.deepValues(a, H.deepValues(b, c)))
  })

  /** deepValues as first written, one pair at a time with no map or list shared: the model of merging many. */
  const pairwise = (base: unknown, over: unknown): unknown => {
    if (Array.isArray(base) && Array.isArray(over)) return [...(base as unknown[]), ...(over as unknown[])]
    const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
    if (!isMap(base) || !isMap(over)) return over
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(base)) H.setKey(out, k, v)
    for (const [k, v] of Object.entries(over)) H.setKey(out, k, Object.prototype.hasOwnProperty.call(base, k) ? pairwise(base[k], v) : v)
    return out
  }

  /** Values whose maps may have a key `__proto__` (as JSON.parse makes one), one may stand twice among the layers. */
  const layers = fc.array(fc.oneof({ weight: 4, arbitrary: tree }, { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__": {"m1": {"x": [1]}}, "l1": [2]}') as unknown) }), { maxLength: 8 }).chain((ls) =>
    fc.boolean().map((twice) => (twice && ls.length > 0 ? [...ls, ls[0]] : ls)),
  )

  fcTest.prop([layers])('merging many at once gives what folding them pair by pair gives, key order too, and changes none of them', (ls) => {
    const before = JSON.stringify(ls)
    const all = H.deepValuesAll([{}, ...ls])
    expect(JSON.stringify(all)).toBe(JSON.stringify(ls.reduce(pairwise, {})))
    expect(JSON.stringify(ls)).toBe(before)
    // nor does a merge made later change a result made before, though they share what was not merged into
    const again = H.deepValuesAll([all, ...ls])
    expect(JSON.stringify(all)).toBe(JSON.stringify(ls.reduce(pairwise, {})))
    expect(JSON.stringify(again)).toBe(JSON.stringify(ls.reduce(pairwise, ls.reduce(pairwise, {}))))
  })

  fcTest.prop([tree, tree])('the positioned merge agrees with the merge of plain values', (a, b) => {
    expect(H.toJS(H.deep(node(a), node(b)))).toEqual(H.deepValues(a, b))
  })

  fcTest.prop([tree, tree])('deep over a single match equals first when the override shares no map or list with the data', (data, o) => {
    const shared = Object.keys(o).filter((k) => k in data && !k.startsWith('s'))
    fc.pre(shared.length === 0)
    expect(run(data, ['x'], { x: o }, 'deep')).toEqual(run(data, ['x'], { x: o }, 'first'))
  })

  fcTest.prop([tree])('deep over a single match equals first over empty data', (o) => {
    expect(run({}, ['x'], { x: o }, 'deep')).toEqual(run({}, ['x'], { x: o }, 'first'))
  })

  fcTest.prop([tree, fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), tree), { maxLength: 4 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', ''), { maxLength: 6 })])(
    'first stops at the first entry with an override; deep folds every such entry in order',
    (data, sections, order) => {
      const overrides = Object.fromEntries(sections)
      const hits = order.filter((k) => k !== '' && k in overrides)
      const expectedFirst = hits.length === 0 ? data : { ...data, ...(overrides[hits[0]!] as object) }
      expect(run(data, order, overrides, 'first')).toEqual(expectedFirst)
      expect(run(data, order, overrides, 'deep')).toEqual(hits.reduce<unknown>((acc, k) => H.deepValues(acc, overrides[k]), data))
      if (hits.length > 0) expect(run(data, order, overrides, 'first')).toEqual(run(data, [hits[0]!], overrides, 'first'))
    },
  )
})
