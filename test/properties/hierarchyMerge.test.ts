// The deep merge of the data hierarchy folds every applied section into one open tree and builds
// the nodes once (DeepMerge.all); it used to rebuild the whole data per section. These
// properties keep the old implementation as the model and check that the new one gives the same
// nodes: values, key order, every position, which entry (the base's or a section's) provided each
// key, and the same steps and messages from `resolve`.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Position from '../../src/core/Position.js'
import * as DeepMerge from '../../src/manifest/DeepMerge.js'
import * as H from '../../src/manifest/Hierarchy.js'
import type * as Node from '../../src/manifest/Node.js'

// the model: Hierarchy's merge and resolution as they were before DeepMerge.all

const oldDeep = (base: Node.Node, over: Node.Node): Node.Node => {
  if (base._tag === 'Map' && over._tag === 'Map') return oldDeepMaps(base, over)
  if (base._tag === 'Seq' && over._tag === 'Seq') return { _tag: 'Seq', items: [...base.items, ...over.items], at: base.at }
  return over
}

const oldDeepMaps = (base: Node.MapNode, over: Node.MapNode): Node.MapNode => {
  const incoming = new Map(over.entries.map((e) => [e.key, e] as const))
  const merged = base.entries.map((e): Node.Entry => {
    const o = incoming.get(e.key)
    if (o === undefined) return e
    const value = oldDeep(e.value, o.value)
    return value === o.value ? o : { key: e.key, keyAt: e.keyAt, value }
  })
  const seen = new Set(base.entries.map((e) => e.key))
  return { _tag: 'Map', entries: [...merged, ...over.entries.filter((e) => !seen.has(e.key))], at: base.at }
}

const offsetAt = (at: Position.Position, quoted: boolean, offset: number | undefined): Position.Position =>
  offset === undefined ? at : Position.make(at.file, at.line, at.col + offset + (quoted ? 1 : 0))

const hasInterpolation = (s: string): boolean => s.includes('{{') || s.includes('${')

const renderValues = (n: Node.Node, render: (template: string) => E.Either<H.EvalError, unknown>, problems: Diagnostic.Diagnostic[]): Node.Node => {
  switch (n._tag) {
    case 'Scalar': {
      if (typeof n.value !== 'string' || !hasInterpolation(n.value)) return n
      const r = render(n.value)
      if (E.isLeft(r)) {
        problems.push(Diagnostic.make('Expression', `${r.left.message} (in "${n.value}")`, { at: offsetAt(n.at, n.quoted, r.left.offset) }))
        return n
      }
      return H.fromJS(r.right, n.at)
    }
    case 'Seq':
      return { ...n, items: n.items.map((i) => renderValues(i, render, problems)) }
    case 'Map':
      return { ...n, entries: n.entries.map((e) => ({ ...e, value: renderValues(e.value, render, problems) })) }
  }
}

const renderMap = (m: Node.MapNode, ev: H.Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.MapNode> => {
  if (ev.value === undefined) return E.right(m)
  const problems: Diagnostic.Diagnostic[] = []
  const out = renderValues(m, ev.value, problems) as Node.MapNode
  return problems.length > 0 ? E.left(problems) : E.right(out)
}

const oldResolveDecoded = (d: H.Decoded, ev: H.Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, H.Resolved> => {
  const base = renderMap(d.data, ev)
  if (E.isLeft(base)) return base
  let data = base.right
  const steps: H.Step[] = []
  const used: string[] = []
  for (const entry of d.hierarchy.order) {
    const r = ev.entry(entry.template)
    if (E.isLeft(r)) {
      return E.left([Diagnostic.make('Expression', `hierarchy entry "${entry.template}": ${r.left.message}`, { at: offsetAt(entry.at, entry.quoted, r.left.offset) })])
    }
    const { key, matched } = r.right
    const step = (outcome: H.Outcome): void => {
      steps.push({ template: entry.template, at: entry.at, key, outcome })
    }
    if (!matched) {
      step('skipped')
      continue
    }
    if (key === 'data' && d.hasData) {
      step('data-key')
      continue
    }
    const section = d.overrides.get(key)
    if (section === undefined) {
      step('no-override')
      continue
    }
    const candidate = renderMap(section, ev)
    if (E.isLeft(candidate)) return candidate
    step('applied')
    used.push(key)
    if (d.hierarchy.merge === 'first') {
      data = H.shallow(data, candidate.right)
      break
    }
    data = oldDeepMaps(data, candidate.right)
  }
  return E.right({ data, merge: d.hierarchy.merge, steps, used })
}

const oldResolve = (source: H.Source, ev: H.Evaluators): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, H.Resolved> => {
  const d = H.decode(source)
  return E.isLeft(d) ? d : oldResolveDecoded(d.right, ev)
}

// generated data: shapes with few keys (so sections overlap), then nodes with a distinct position
// for every key and value, so a position copied from the wrong source shows

type Shape = { readonly t: 'scalar'; readonly v: string | number | boolean | null } | { readonly t: 'list'; readonly items: ReadonlyArray<Shape> } | { readonly t: 'map'; readonly entries: ReadonlyArray<readonly [string, Shape]> }

const keys = ['a', 'b', 'c', 'd', '__proto__'] as const
const strings = ['p', 'q', '${ tree }', '${ list }', 'x{{ n }}', '${ boom }'] as const

const shapes = fc.letrec<{ shape: Shape; map: Shape }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...strings), fc.boolean(), fc.constant(null)).map((v): Shape => ({ t: 'scalar', v })),
    fc.array(tie('shape'), { maxLength: 3 }).map((items): Shape => ({ t: 'list', items })),
    tie('map'),
  ),
  map: fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), tie('shape')), { maxLength: 4, selector: ([k]) => k }).map((entries): Shape => ({ t: 'map', entries })),
}))

const toNode = (s: Shape, file: string, line: { n: number }): Node.Node => {
  const at = Position.make(file, (line.n += 1), 1)
  switch (s.t) {
    case 'scalar':
      return { _tag: 'Scalar', value: s.v, text: String(s.v), quoted: typeof s.v === 'string', at }
    case 'list':
      return { _tag: 'Seq', items: s.items.map((i) => toNode(i, file, line)), at }
    case 'map':
      return { _tag: 'Map', entries: s.entries.map(([key, v]) => ({ key, keyAt: Position.make(file, (line.n += 1), 2), value: toNode(v, file, line) })), at }
  }
}

const mapNode = (s: Shape, file: string): Node.MapNode => toNode(s, file, { n: 0 }) as Node.MapNode

const at0 = Position.make('m.yaml', 1, 1)
const str = (value: string, line: number): Node.Scalar => ({ _tag: 'Scalar', value, text: value, quoted: true, at: Position.make('m.yaml', line, 3) })

// A stand-in for the expression language: values render to trees, lists, strings or an error.
const evaluators: H.Evaluators = {
  entry: (template) => (template.includes('boom') ? E.left({ message: 'boom is not defined', offset: 3 }) : E.right({ key: template.replace('${ f }', 'b'), matched: template !== '' })),
  value: (template) => {
    if (template.includes('boom')) return E.left({ message: 'boom is not defined', offset: 3 })
    if (template === '${ tree }') return E.right({ a: [1, { c: 2 }], b: 'x' })
    if (template === '${ list }') return E.right([1, 2])
    return E.right(template.replace('{{ n }}', '7'))
  },
}

const documents = fc.record({
  data: fc.option(shapes.map, { nil: undefined }),
  order: fc.array(fc.oneof({ weight: 20, arbitrary: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'data', '', '${ f }') }, { weight: 1, arbitrary: fc.constant('${ boom }') }), { maxLength: 8 }),
  merge: fc.constantFrom('deep', 'first'),
  sections: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'data'), fc.option(shapes.map, { nil: undefined })), { maxLength: 5, selector: ([k]) => k }),
})

const sourceOf = (doc: { data: Shape | undefined; order: ReadonlyArray<string>; merge: string; sections: ReadonlyArray<readonly [string, Shape | undefined]> }): H.Source => ({
  ...(doc.data !== undefined ? { data: mapNode(doc.data, 'data') } : {}),
  hierarchy: {
    _tag: 'Map',
    entries: [
      { key: 'order', keyAt: at0, value: { _tag: 'Seq', items: doc.order.map((t, i) => str(t, i + 2)), at: at0 } },
      { key: 'merge', keyAt: at0, value: str(doc.merge, 1) },
    ],
    at: at0,
  },
  overrides: {
    _tag: 'Map',
    entries: doc.sections.map(([name, s], i) => ({
      key: name,
      keyAt: Position.make('m.yaml', 100 + i, 3),
      value: s === undefined ? { _tag: 'Scalar', value: null, text: '', quoted: false, at: Position.make('m.yaml', 100 + i, 6) } : mapNode(s, name),
    })),
    at: at0,
  },
  at: at0,
})

describe('the deep merge folds sections in one pass, as the pairwise fold did', () => {
  test.prop([shapes.map, fc.array(shapes.map, { maxLength: 6 })], { numRuns: 300 })('DeepMerge.all equals deepMaps folded over the sections', (base, overs) => {
    const b = mapNode(base, 'base')
    const os = overs.map((o, i) => mapNode(o, `s${i}`))
    expect(DeepMerge.all(b, os)).toStrictEqual(os.reduce(oldDeepMaps, b))
  })

  test.prop([shapes.shape, shapes.shape])('deep and deepMaps equal the old ones on two values', (a, b) => {
    const x = toNode(a, 'a', { n: 0 })
    const y = toNode(b, 'b', { n: 0 })
    expect(H.deep(x, y)).toStrictEqual(oldDeep(x, y))
    if (x._tag === 'Map' && y._tag === 'Map') expect(H.deepMaps(x, y)).toStrictEqual(oldDeepMaps(x, y))
  })

  test.prop([documents], { numRuns: 300 })('resolve gives the same data, steps and messages as the old resolution', (doc) => {
    const source = sourceOf(doc)
    expect(H.resolve(source, evaluators)).toStrictEqual(oldResolve(source, evaluators))
    const { value: _value, ...plain } = evaluators
    expect(H.resolve(source, plain)).toStrictEqual(oldResolve(source, plain))
  })

  test.prop([shapes.map, fc.array(shapes.map, { maxLength: 4 })])('keeps an untouched value the very node it was', (base, overs) => {
    const b = mapNode(base, 'base')
    const os = overs.map((o, i) => mapNode(o, `s${i}`))
    const merged = DeepMerge.all(b, os)
    const touched = new Set(os.flatMap((o) => o.entries.map((e) => e.key)))
    for (const e of b.entries) if (!touched.has(e.key)) expect(merged.entries.find((m) => m.key === e.key)).toBe(e)
    if (os.length === 0) expect(merged).toBe(b)
  })
})
