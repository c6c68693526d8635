// Annotations at scale. `extract` finds each key's comments from the keys of each line found once
// (not a copy of the line's keys per key, a Math.min over them per key, a scan per key for a later
// one), and parses without the yaml library's quadratic unique-key check: its rules and warnings
// are those the documented rule gives (comment lines directly above the first key of a line, the
// comment at a line's end for its last key) on generated documents. `check` looks each rule's path
// up in per-map indexes: the same node as a scan of the entries finds, duplicate keys included.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as A from '../../src/manifest/Annotations.js'
import type * as Node from '../../src/manifest/Node.js'

// ---------------------------------------------------------------- extract

interface Entry {
  /** Comment lines followed by a blank line: directly above nothing. */
  readonly detached: ReadonlyArray<string>
  /** Comment lines directly above the key. */
  readonly above: ReadonlyArray<string>
  readonly trailing: string | undefined
  readonly value: { readonly t: 'scalar' } | { readonly t: 'flow'; readonly keys: number } | { readonly t: 'block'; readonly entries: ReadonlyArray<Entry> }
}

const directive = fc.constantFrom('@require', '@required', '@validate isInt(value)', '@validate isIP(value)', 'just words', '@bogus x')
const comments = fc.array(directive, { maxLength: 3 })

const { entries } = fc.letrec<{ entries: ReadonlyArray<Entry> }>((tie) => ({
  entries: fc.array(
    fc.record({
      detached: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: comments }),
      above: comments,
      trailing: fc.option(directive, { nil: undefined }),
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant({ t: 'scalar' as const }),
        fc.nat(4).map((keys) => ({ t: 'flow' as const, keys })),
        tie('entries').filter((es) => es.length > 0).map((es) => ({ t: 'block' as const, entries: es })),
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
}))

const render = (es: ReadonlyArray<Entry>, indent: string, out: string[]): void =>
  es.forEach((e, i) => {
    for (const d of e.detached) out.push(`${indent}# ${d}`)
    if (e.detached.length > 0) out.push('')
    for (const d of e.above) out.push(`${indent}# ${d}`)
    const v = e.value
    const value = v.t === 'scalar' ? ' 1' : v.t === 'flow' ? ` {${Array.from({ length: v.keys }, (_, j) => `f${j}: ${j}`).join(', ')}}` : ''
    out.push(`${indent}k${i}:${value}${e.trailing === undefined ? '' : ` # ${e.trailing}`}`)
    if (v.t === 'block') render(v.entries, indent + '  ', out)
  })

interface Expected {
  readonly rules: Array<{ path: string; required: boolean; validate?: string }>
  readonly warnings: string[]
}

/** What the documented rule gives: a key's comments, then its rule and warnings, in key order. */
const expected = (es: ReadonlyArray<Entry>): Expected => {
  const rules: Expected['rules'] = []
  const warnings: string[] = []
  const unattached: string[] = []
  const annotate = (path: string, mine: ReadonlyArray<string>): void => {
    let required = false
    let validate: string | undefined
    for (const d of mine) {
      if (!d.startsWith('@')) continue
      if (d === '@require' || d === '@required') required = true
      else if (d.startsWith('@validate ')) {
        if (validate !== undefined) warnings.push(`data "${path}" has several @validate annotations; only the last applies (as in CCM)`)
        validate = d.slice('@validate '.length)
      } else warnings.push(`data "${path}": unknown annotation "${d.split(' ')[0]}"; it is ignored`)
    }
    if (required || validate !== undefined) rules.push({ path, required, ...(validate !== undefined ? { validate } : {}) })
  }
  const walk = (list: ReadonlyArray<Entry>, prefix: string): void =>
    list.forEach((e, i) => {
      for (const d of e.detached) if (d.startsWith('@')) unattached.push(`annotation "${d.split(' ')[0]}" annotates no key of data; it is ignored`)
      const path = `${prefix}k${i}`
      const trailing = e.trailing === undefined ? [] : [e.trailing]
      const v = e.value
      // the line's last key takes its trailing comment: a flow map's last key when it has one
      const flowKeys = v.t === 'flow' ? v.keys : 0
      annotate(path, flowKeys > 0 ? e.above : [...e.above, ...trailing])
      for (let j = 0; j < flowKeys; j++) annotate(`${path}.f${j}`, j === flowKeys - 1 ? trailing : [])
      if (v.t === 'block') walk(v.entries, `${path}.`)
    })
  walk(es, '')
  return { rules, warnings: [...warnings, ...unattached] }
}

const extracted = (text: string): Expected => {
  const r = A.extract('m.yaml', text)
  if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('; '))
  return {
    rules: r.right.rules.map((x) => ({ path: x.path.join('.'), required: x.required, ...(x.validate !== undefined ? { validate: x.validate.expression } : {}) })),
    warnings: r.right.warnings.map((w) => w.message),
  }
}

describe('Annotations.extract', () => {
  it('gives each key the comments directly above the first key of its line and the end comment of its line\'s last key', () => {
    fc.assert(
      fc.property(entries, (es) => {
        const lines = ['data:']
        render(es, '  ', lines)
        lines.push('# @require', 'next: 1', '')
        expect(extracted(lines.join('\n'))).toEqual(expected(es))
      }),
      { numRuns: 300 },
    )
  })

  it('still refuses duplicate keys, as the library\'s own check did, at the repeated key', () => {
    const r = A.extract('m.yaml', 'data:\n  # @require\n  a: 1\n  b: {x: 1, x: 2}\n  a: 2\n')
    expect(E.isLeft(r) ? r.left.map((d) => `${Position.render(d.at!)} ${d.message}`) : []).toEqual([
      'm.yaml:4:13 Map keys must be unique',
      'm.yaml:5:3 Map keys must be unique',
    ])
  })

  it('reads a flow map of 150,000 keys on one line (a spread into Math.min overflowed the stack)', () => {
    const n = 150_000
    const text = `data:\n  # @require\n  big: {${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join(', ')}} # @validate isInt(value)\n`
    expect(extracted(text)).toEqual({ rules: [{ path: 'big', required: true }, { path: `big.k${n - 1}`, required: false, validate: 'isInt(value)' }], warnings: [] })
  })
})

// ---------------------------------------------------------------- check's lookup

const at = Position.make('m.yaml', 1, 1)
const names = ['a', 'b', 'c'] as const

const { node } = fc.letrec<{ node: Node.Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer().map((value): Node.Node => ({ _tag: 'Scalar', value, text: String(value), quoted: false, at })),
    // keys from a few names: maps repeat them, and the first entry of a key is the one a scan finds
    fc.array(fc.tuple(fc.constantFrom(...names), tie('node')), { maxLength: 5 }).map(
      (es): Node.Node => ({ _tag: 'Map', entries: es.map(([key, value]) => ({ key, keyAt: at, value })), at }),
    ),
    fc.array(tie('node'), { maxLength: 3 }).map((items): Node.Node => ({ _tag: 'Seq', items, at })),
  ),
}))

const scan = (data: Node.Node, path: ReadonlyArray<string>): Node.Node | undefined => {
  let cur: Node.Node | undefined = data
  for (const k of path) {
    if (cur === undefined || cur._tag !== 'Map') return undefined
    cur = cur.entries.find((e) => e.key === k)?.value
  }
  return cur
}

describe('Annotations.lookup', () => {
  it('finds the node a scan of the entries finds, for every path, one index per map reused', () => {
    const paths = fc.array(fc.array(fc.constantFrom(...names, 'd'), { maxLength: 4 }), { maxLength: 20 })
    fc.assert(
      fc.property(node, paths, (data, ps) => {
        const find = A.lookup(data)
        for (const p of [...ps, ...ps]) expect(find(p)).toBe(scan(data, p))
      }),
      { numRuns: 500 },
    )
  })
})
