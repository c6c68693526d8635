// Yaml.aliasTargets, the one walk that finds every alias's anchor, against the yaml library's own
// `Alias.resolve` (a walk of the whole document per alias): the same node for every alias, on
// documents where anchors are re-used, aliases come before their anchors or name none, anchors sit
// on keys and on collections that hold aliases to themselves, written in block and in flow style.
// The same target node gives the same converted value, positions and errors in `Yaml.library`.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Y from 'yaml'
import * as Yaml from '../../src/manifest/Yaml.js'

type Tree =
  | { readonly t: 'scalar'; readonly v: string; readonly anchor?: string }
  | { readonly t: 'alias'; readonly name: string }
  | { readonly t: 'map'; readonly entries: ReadonlyArray<readonly [Key, Tree]>; readonly anchor?: string }
  | { readonly t: 'seq'; readonly items: ReadonlyArray<Tree>; readonly anchor?: string }

type Key = { readonly k: string; readonly anchor?: string } | { readonly alias: string }

const names = ['a', 'b', 'c'] as const
// 'd' is never an anchor: its aliases resolve to nothing
const anchor = fc.option(fc.constantFrom(...names), { nil: undefined, freq: 2 })
const withAnchor = <T extends object>(o: T, a: string | undefined): T => (a === undefined ? o : { ...o, anchor: a })

const key: fc.Arbitrary<Key> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('k', 'x'), anchor).map(([k, a]) => withAnchor({ k }, a)) },
  { weight: 1, arbitrary: fc.constantFrom(...names, 'd').map((alias) => ({ alias })) },
)

const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom('1', 'v', 'true'), anchor).map(([v, a]) => withAnchor({ t: 'scalar' as const, v }, a)),
    fc.constantFrom(...names, 'd').map((name) => ({ t: 'alias' as const, name })),
    fc.tuple(fc.array(fc.tuple(key, tie('tree')), { maxLength: 4 }), anchor).map(([es, a]) =>
      // keys made distinct by their place, so that the document has no duplicate keys
      withAnchor({ t: 'map' as const, entries: es.map(([k, v], i): readonly [Key, Tree] => ['k' in k ? { ...k, k: `${k.k}${i}` } : k, v]) }, a),
    ),
    fc.tuple(fc.array(tie('tree'), { maxLength: 4 }), anchor).map(([items, a]) => withAnchor({ t: 'seq' as const, items }, a)),
  ),
}))

const anchorOf = (a: string | undefined): string => (a === undefined ? '' : `&${a} `)
const keyText = (k: Key): string => ('alias' in k ? `*${k.alias} ` : `${anchorOf(k.anchor)}${k.k}`)

const flow = (n: Tree): string => {
  switch (n.t) {
    case 'scalar':
      return `${anchorOf(n.anchor)}${n.v}`
    case 'alias':
      return `*${n.name}`
    case 'map':
      return `${anchorOf(n.anchor)}{${n.entries.map(([k, v]) => `${keyText(k)}: ${flow(v)}`).join(', ')}}`
    case 'seq':
      return `${anchorOf(n.anchor)}[${n.items.map(flow).join(', ')}]`
  }
}

const nested = (n: Tree): boolean => (n.t === 'map' && n.entries.length > 0) || (n.t === 'seq' && n.items.length > 0)

/** Block style, one line per entry; empty collections and leaves in flow. */
const block = (n: Tree, indent: string): string => {
  if (!nested(n)) return flow(n)
  const head = n.t === 'alias' ? '' : (n.anchor === undefined ? '' : `&${n.anchor}\n${indent}`)
  const lines =
    n.t === 'map'
      ? n.entries.map(([k, v]) => (nested(v) ? `${keyText(k)}:${inner(v, indent + '  ')}` : `${keyText(k)}: ${flow(v)}`))
      : n.t === 'seq'
        ? n.items.map((v) => (nested(v) ? `-${inner(v, indent + '  ')}` : `- ${flow(v)}`))
        : []
  return head + lines.join(`\n${indent}`)
}

/** A nested collection below a key or dash: its anchor on that line, its entries on the next. */
const inner = (n: Tree, indent: string): string => {
  const a = n.t === 'alias' || n.anchor === undefined ? '' : ` &${n.anchor}`
  const bare = n.t === 'map' || n.t === 'seq' ? { ...n, anchor: undefined } : n
  return `${a}\n${indent}${block(bare, indent)}`
}

const aliasesOf = (doc: Y.Document.Parsed): ReadonlyArray<Y.Alias> => {
  const out: Y.Alias[] = []
  Y.visit(doc, { Alias: (_, a) => void out.push(a) })
  return out
}

const sameAsLibrary = (text: string): number => {
  const doc = Y.parseDocument(text, { uniqueKeys: false, keepSourceTokens: true })
  expect(doc.errors.map((e) => e.message)).toEqual([])
  const targets = Yaml.aliasTargets(doc)
  const aliases = aliasesOf(doc)
  expect(targets.size).toBe(aliases.length)
  for (const a of aliases) {
    expect(targets.has(a)).toBe(true)
    expect(targets.get(a)).toBe(a.resolve(doc))
  }
  return aliases.length
}

describe('Yaml.aliasTargets', () => {
  it('finds the node the library resolves each alias to, in flow style', () => {
    fc.assert(fc.property(tree, (t) => void sameAsLibrary(flow(t) + '\n')), { numRuns: 400 })
  })

  it('finds the node the library resolves each alias to, in block style', () => {
    fc.assert(fc.property(tree, (t) => void sameAsLibrary(block(t, '') + '\n')), { numRuns: 400 })
  })

  it('covers re-used anchors, aliases before anchors, aliases in keys and self-references', () => {
    const texts = [
      'a: &x 1\nb: *x\nc: &x 2\nd: *x\n',
      'a: *x\nb: &x 1\n',
      'a: &x [1, *x]\n',
      '&x k: 1\n*x : 2\n',
      'a: &x {b: &y 1, c: *y}\nd: *x\ne: &y 2\nf: *y\n',
    ]
    expect(texts.reduce((n, t) => n + sameAsLibrary(t), 0)).toBe(8)
  })
})

describe('Yaml.library with aliases', () => {
  it('reads each alias as the latest anchor of its name before it', () => {
    const r = Yaml.library('m.yaml', 'a: &x 1\nb: *x\nc: &x 2\nd: *x\n')
    if (E.isLeft(r) || r.right._tag !== 'Map') throw new Error('expected a map')
    expect(r.right.entries.map((e) => (e.value._tag === 'Scalar' ? e.value.value : undefined))).toEqual([1, 1, 2, 2])
    // an alias's value is at its anchored node
    expect(r.right.entries[3]!.value.at).toMatchObject({ line: 3, col: 7 })
  })

  it('refuses an alias before its anchor, at the alias', () => {
    const r = Yaml.library('m.yaml', 'a: *x\nb: &x 1\n')
    expect(E.isLeft(r) ? r.left.map((d) => [d.message, d.at?.line, d.at?.col]) : []).toEqual([['unresolved alias *x', 1, 4]])
  })

  it('stops an alias to its own collection at the depth bound', () => {
    const r = Yaml.library('m.yaml', 'a: &x [1, *x]\n')
    expect(E.isLeft(r) ? r.left[0]!.message : '').toMatch(/nests deeper than/)
  })
})
