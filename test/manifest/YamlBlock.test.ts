// The block-subset parser against the yaml library: wherever `Yaml.block` answers, it must answer
// exactly what `Yaml.library` does (same tree, same positions), and the library must accept the text.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Yaml from '../../src/manifest/Yaml.js'

const top = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Checks the law on one text; returns whether the block parser answered. */
const agrees = (text: string): boolean => {
  const fast = Yaml.block('m.yaml', text)
  if (fast === undefined) return false
  const lib = Yaml.library('m.yaml', text)
  expect(E.isRight(lib), `the library refuses what the block parser read:\n${text}\n${JSON.stringify(E.isLeft(lib) ? lib.left : '')}`).toBe(true)
  if (E.isRight(lib)) expect(fast, text).toStrictEqual(lib.right)
  return true
}

// ---------------------------------------------------------------- documents with styles

type Scalar =
  | { readonly kind: 'plain'; readonly raw: string }
  | { readonly kind: 'flow'; readonly raw: string }
  | { readonly kind: 'dq' | 'sq'; readonly raw: string }
  | { readonly kind: 'lit'; readonly header: string; readonly lines: ReadonlyArray<string>; readonly extra: number }
/** A mapping key: any scalar but a block literal or a flow collection. */
type Key = Exclude<Scalar, { readonly kind: 'lit' | 'flow' }>
type Doc =
  | { readonly _tag: 'S'; readonly s: Scalar; readonly comment: boolean }
  | { readonly _tag: 'M'; readonly entries: ReadonlyArray<{ readonly key: Key; readonly value: Doc; readonly comment: boolean }>; readonly step: number }
  | { readonly _tag: 'Q'; readonly items: ReadonlyArray<Doc>; readonly step: number; readonly compact: boolean; readonly sameIndent: boolean }

const plainWords = [
  'a', 'abc', 'hello world', '0644', '0o17', '0o9', '0x1F', '0xg', '1.5', '1e3', '1E-2', '.inf', '-.Inf', '.nan', '.NaN', 'true', 'False', 'TRUE',
  'tRue', 'null', 'Null', '~', 'NULL', 'yes', '-1', '+2', '-x', 'a:b', 'http://x/y', 'a#b', 'a #b', 'a: b', 'a,b', '[x]', 'x]', '{a}', 'x{', "it's",
  'say "hi"', '%x', '@x', '`x', '&a', '*a', '!t', '?x', ':x', '>x', '|x', '--x', '---', '...', 'a  b', 'é', '日本', 'a\\nb', '1_000', '0b1', '+.5',
  '1.', '.5', '00', '-0', 'nan', 'Infinity', 'x:', 'a:', '-', '<<', '/srv/bench/d000', 'root', 'present', '~x', '12345678901234567890', '.',
]
const keyWords = ['a', 'b', 'key', 'ensure', 'mode', 'content', '0644', 'true', 'null', '~', '1', 'a b', 'x:y', 'a#', '<<', 'é', '-k', '?k', '/etc/motd', 'defaults']
const dqChunks = ['a', ' ', 'é', '\\n', '\\t', '\\"', '\\\\', '\\x41', '\\u00e9', '\\U0001F600', '\\ud83d\\ude00', '\\q', '\\x4', '\\U00110000', '#', ' #', "'", ': ', '\\/', '\\0', '\\ ', '\\_', '\\N', '\\']
const sqChunks = ['a', ' ', "''", '"', '\\n', '#', ' #', ': ', 'é', "'"]
const litLines = ['x', '  indented', '# not a comment', '', '   ', 'a: b', '- item', 'trailing  ', '"q"', '|', 'é']

const tamePlain = ['a', 'abc', 'hello world', '0644', '1.5', 'true', 'null', '~', '-1', 'a:b', 'http://x/y', 'a#b', 'x]', 'é', '/srv/x', 'root', '.inf', "it's", 'say "hi"', 'a,b', '--x', '0x1F']
const tameDq = ['a', ' ', 'é', '\\n', '\\t', '\\"', '\\\\', '\\x41', '\\u00e9', '\\U0001F600', '#', ' #', "'", ': ']
const tameLit = ['x', '  indented', '# not a comment', '', 'a: b', '- item', '"q"', 'é']

/** The text of a scalar or key inside a flow collection. */
const flowScalarOf = (tame: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: tame ? fc.constantFrom(...tamePlain) : fc.oneof(fc.constantFrom(...plainWords), fc.stringMatching(/^[a-z0-9 :#,.-]{1,8}$/)) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...(tame ? tameDq : dqChunks)), { maxLength: 4 }).map((c) => `"${c.join('')}"`) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...sqChunks.filter((c) => !tame || c !== "'")), { maxLength: 4 }).map((c) => `'${c.join('')}'`) },
  )
/** A flow collection on one line (`{a: 1, b: [x, y]}`); untamed ones also get odd spacing, trailing commas and `:` without a space. */
const flowOf = (tame: boolean): fc.Arbitrary<string> => {
  const comma = tame ? fc.constantFrom(', ', ',', ' , ') : fc.constantFrom(', ', ',', ' , ', ',,', ' ')
  const colon = tame ? fc.constantFrom(': ', ' : ', ':  ') : fc.constantFrom(': ', ':', ' :', ' : ')
  const inside = tame ? fc.constantFrom('', ' ') : fc.constantFrom('', ' ', ', ', ',')
  const keyText = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keyWords.filter((k) => !tame || /^[a-z/ -]+$/.test(k))) }, { weight: 1, arbitrary: fc.constantFrom(...keyWords).map((k) => `"${k}"`) })
  return fc.letrec<{ value: string; coll: string }>((tie) => ({
    value: fc.oneof({ weight: 3, arbitrary: flowScalarOf(tame) }, { weight: 1, arbitrary: tie('coll') }),
    coll: fc.oneof(
      { depthSize: 'small' },
      fc
        .record({ entries: fc.uniqueArray(fc.record({ k: keyText, v: tie('value'), c: colon }), { maxLength: 4, selector: (e) => e.k }), sep: comma, pad: inside })
        .map(({ entries, sep, pad }) => `{${pad}${entries.map((e) => `${e.k}${e.c}${e.v}`).join(sep)}${pad.trim() === '' ? pad : ''}}`),
      fc.record({ items: fc.array(tie('value'), { maxLength: 4 }), sep: comma, pad: inside }).map(({ items, sep, pad }) => `[${pad}${items.join(sep)}${pad.trim() === '' ? pad : ''}]`),
    ),
  })).coll
}

/** Scalars: `tame` ones stay (mostly) inside the block subset, the others roam all over YAML. */
const scalarOf = (tame: boolean): fc.Arbitrary<Scalar> =>
  fc.oneof(
    { weight: 2, arbitrary: flowOf(tame).map((raw) => ({ kind: 'flow' as const, raw })) },
    { weight: 5, arbitrary: (tame ? fc.constantFrom(...tamePlain) : fc.oneof(fc.constantFrom(...plainWords), fc.stringMatching(/^[a-z0-9 :#.-]{1,8}$/))).map((raw) => ({ kind: 'plain' as const, raw })) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...(tame ? tameDq : dqChunks)), { maxLength: 5 }).map((c) => ({ kind: 'dq' as const, raw: c.join('') })) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...sqChunks.filter((c) => !tame || c !== "'")), { maxLength: 5 }).map((c) => ({ kind: 'sq' as const, raw: c.join('') })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          header: tame ? fc.constantFrom('|', '|-', '| # c') : fc.constantFrom('|', '|-', '|+', '| # c', '|2', '>'),
          lines: fc.array(fc.constantFrom(...(tame ? tameLit : litLines)), { maxLength: 4 }),
          extra: fc.integer({ min: 0, max: 2 }),
        })
        .map((r) => ({ kind: 'lit' as const, ...r })),
    },
  )
const keyOf = (tame: boolean): fc.Arbitrary<Key> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(tame ? keyWords.filter((k) => !['0644', 'true', 'null', '~', '1', 'a#', '<<', '?k'].includes(k)) : keyWords)).map((raw) => ({ kind: 'plain' as const, raw })) },
    { weight: 1, arbitrary: fc.constantFrom(...keyWords, 'a"b', 'x: y', '').map((raw) => ({ kind: 'dq' as const, raw })) },
    { weight: 1, arbitrary: fc.constantFrom(...keyWords, "it''s").map((raw) => ({ kind: 'sq' as const, raw })) },
  )

const docOf = (tame: boolean): fc.Arbitrary<Doc> =>
  fc.letrec<{ node: Doc; coll: Doc }>((tie) => ({
    node: fc.oneof({ weight: 3, arbitrary: fc.record({ _tag: fc.constant('S' as const), s: scalarOf(tame), comment: fc.boolean() }) }, { weight: 2, arbitrary: tie('coll') }),
    coll: fc.oneof(
      { depthSize: 'small' },
      fc.record({
        _tag: fc.constant('M' as const),
        entries: tame
          ? fc.uniqueArray(fc.record({ key: keyOf(tame), value: tie('node'), comment: fc.boolean() }), { minLength: 1, maxLength: 4, selector: (e) => e.key.raw })
          : fc.array(fc.record({ key: keyOf(tame), value: tie('node'), comment: fc.boolean() }), { minLength: 1, maxLength: 4 }),
        step: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({
        _tag: fc.constant('Q' as const),
        items: fc.array(tie('node'), { minLength: 1, maxLength: 4 }),
        step: fc.integer({ min: 1, max: 3 }),
        compact: fc.boolean(),
        sameIndent: fc.boolean(),
      }),
    ),
  })).coll

const pad = (n: number): string => ' '.repeat(n)

const inline = (s: Scalar, parent: number): { head: string; more: string[] } => {
  switch (s.kind) {
    case 'plain':
    case 'flow':
      return { head: s.raw, more: [] }
    case 'dq':
      return { head: `"${s.raw}"`, more: [] }
    case 'sq':
      return { head: `'${s.raw}'`, more: [] }
    case 'lit':
      return { head: s.header, more: s.lines.map((l) => (l === '' ? '' : pad(parent + 1 + s.extra) + l)) }
  }
}

/** Lines of a collection whose first line starts at column `col`. */
const render = (d: Doc, col: number): string[] => {
  const out: string[] = []
  if (d._tag === 'M') {
    for (const e of d.entries) {
      const k = inline(e.key, col).head
      if (e.value._tag === 'S') {
        const v = inline(e.value.s, col)
        out.push(`${pad(col)}${k}: ${v.head}${e.value.comment ? ' # c' : ''}`, ...v.more)
      } else {
        out.push(`${pad(col)}${k}:${e.comment ? ' # c' : ''}`)
        const same = e.value._tag === 'Q' && e.value.sameIndent
        out.push(...render(e.value, same ? col : col + d.step))
      }
    }
  } else if (d._tag === 'Q') {
    for (const item of d.items) {
      if (item._tag === 'S') {
        const v = inline(item.s, col)
        out.push(`${pad(col)}- ${v.head}${item.comment ? ' # c' : ''}`, ...v.more)
      } else if (d.compact) {
        const inner = render(item, col + 2)
        out.push(`${pad(col)}- ${inner[0]!.slice(col + 2)}`, ...inner.slice(1))
      } else {
        out.push(`${pad(col)}-`, ...render(item, col + d.step))
      }
    }
  } else {
    out.push(pad(col) + inline(d.s, col).head)
  }
  return out
}

/** Sprinkles comment and blank lines between the lines, and maybe a final newline. */
const sprinkled = (lines: ReadonlyArray<string>, extras: ReadonlyArray<{ at: number; line: string }>, finalNewline: boolean): string => {
  const out = [...lines]
  for (const x of extras) out.splice(Math.min(x.at, out.length), 0, x.line)
  return out.join('\n') + (finalNewline ? '\n' : '')
}
const extraLine = (tame: boolean) =>
  fc.record({
    at: fc.nat({ max: 40 }),
    line: tame
      ? fc.oneof(fc.constant(''), fc.nat({ max: 8 }).map((n) => `${pad(n)}# comment: x`))
      : fc.oneof(fc.constant(''), fc.nat({ max: 8 }).map((n) => pad(n)), fc.nat({ max: 8 }).map((n) => `${pad(n)}# comment: x`), fc.constant('---'), fc.constant('...')),
  })
const textOf = (tame: boolean): fc.Arbitrary<string> =>
  fc
    .record({ d: docOf(tame), extras: fc.array(extraLine(tame), { maxLength: 3 }), finalNewline: tame ? fc.constant(true) : fc.boolean(), start: fc.constantFrom('', '---\n', '# head\n', '--- # doc\n', '\n') })
    .map(({ d, extras, finalNewline, start }) => start + sprinkled(render(d, 0), extras, finalNewline))
const tameText = textOf(true)
const text = textOf(false)

const mutation = fc.record({
  at: fc.nat(),
  cut: fc.nat({ max: 3 }),
  insert: fc.constantFrom('', '\n', ' ', '  ', ':', ': ', '- ', '-', '#', ' #', '"', "'", '|', '|-', '>', '[', ']', '{', '}', ',', '&a ', '*a', '!x ', '? ', '---', '\t', '\r', 'x', '\\', '\n  ', '\n- '),
})
const mutated = fc.record({ t: fc.oneof(tameText, text), ms: fc.array(mutation, { minLength: 1, maxLength: 3 }) }).map(({ t, ms }) => {
  let s = t
  for (const m of ms) {
    const i = s.length === 0 ? 0 : m.at % (s.length + 1)
    s = s.slice(0, i) + m.insert + s.slice(i + m.cut)
  }
  return s
})

describe('Yaml.block', () => {
  fcTest.prop([tameText], { numRuns: Number(process.env["YAML_RUNS"] ?? 3000) })('answers what the library answers, on documents in the subset', (t) => {
    agrees(t)
  })

  fcTest.prop([text], { numRuns: Number(process.env["YAML_RUNS"] ?? 3000) })('answers what the library answers, on documents in many styles', (t) => {
    agrees(t)
  })

  fcTest.prop([mutated], { numRuns: Number(process.env["YAML_RUNS"] ?? 3000) })('answers what the library answers, on damaged documents', (t) => {
    agrees(t)
  })

  it('reads most generated documents itself (the law above is not vacuous)', () => {
    const sample = fc.sample(tameText, { numRuns: 1000, seed: 42 })
    const read = sample.filter((t) => Yaml.block('m.yaml', t) !== undefined).length
    expect(read).toBeGreaterThan(500)
  })

  it('reads most generated flow collections itself', () => {
    const sample = fc.sample(flowOf(true), { numRuns: 1000, seed: 7 }).map((f) => `a: ${f}\n`)
    const read = sample.filter((t) => Yaml.block('m.yaml', t) !== undefined).length
    expect(read).toBeGreaterThan(500)
    for (const t of sample) agrees(t)
  })

  it.each([
    ['trailing spaces', 'a: b   \nc: d   # x\n'],
    ['a space before the colon', 'a : b\n"q" : b\n'],
    ['a single-quoted key', "'a': b\n"],
    ['blank lines in a literal', 'a: |\n\n  x\n\n  y\n\n\nb: 1\n'],
    ['a stripped literal', 'a: |-\n  x\n  y\n'],
    ['an empty literal', 'a: |\nb: 1\n'],
    ['a literal ended by a comment', 'a: |\n  x\n# c\nb: 1\n'],
    ['a literal in a list', '- |\n x\n'],
    ['nested compact lists', '- - a\n  - b\n- c\n'],
    ['a list at its key\'s indentation', 'a:\n- x\n- y\nb: 1\n'],
    ['a comment at an odd indentation', 'a:\n    b: 1\n  # odd comment\n    c: 2\n'],
    ['compact maps in a list', '- a: 1\n  b: 2\n- c: 3\n'],
    ['a map below a bare dash', '-\n  a: 1\n'],
    ['a comment after a key', 'a:   # c\n  b: 1\n'],
    ['an indented root', '  a: 1\n  b: 2\n'],
    ['plain scalars with dashes and hashes', 'a: -1\nb: -x\nc: x#y\n'],
    ['escapes', 'a: "\\u00e9\\x41\\t"\nb: \'it\'\'s\'\n'],
    ['a document start marker', '--- \na: 1\n'],
    ['a document start marker and a comment', '---\n# c\na: 1\n'],
    ['a list item with extra spaces', 'a:\n  - x\n  -  y\n'],
    ['a compact map after extra spaces', '-   a: 1\n    b: 2\n'],
    ['a flow list', 'a: [1, "two", \'three\', x y]\n'],
    ['a flow map in a list', '- /etc/motd: {ensure: present, content: "hi\\n", mode: "0644"}\n- /tmp: { ensure: directory }\n'],
    ['nested flow collections', 'a: {b: [1, {c: d}], e: {}, f: []} # c\n'],
    ['a flow map as a list item', '- {a: 1, b: 2}\n- [x]\n'],
    ['the empty manifest of the bench', 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n'],
    ['references in a flow list (a # inside a scalar)', 'require: [package#httpd, file#/etc/x, a#]\nb: {c: [x#y]}\n'],
  ])('reads %s as the library does', (_, t) => {
    expect(agrees(t)).toBe(true)
  })

  it('reads the golden manifests and the bench workload exactly as the library does', () => {
    const manifests = readdirSync(join(top, 'plans'))
      .map((d) => join(top, 'plans', d, 'manifest.yaml'))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'utf8'))
    // the shape of bench/workload.mjs's manifests
    const bench = ['# bench', 'ccm:', '  resources:', '    - file:']
    for (let i = 0; i < 300; i++) {
      bench.push(`        - /srv/bench/d${i % 7}/f${i}.conf:`, '            ensure: present', `            content: ${JSON.stringify(`# file ${i}\nname = x-${i}\n`)}`)
      bench.push('            owner: root', '            group: root', '            mode: "0644"')
    }
    for (const t of [...manifests, bench.join('\n') + '\n']) expect(agrees(t)).toBe(true)
  })

  it.each([
    ['a flow collection on two lines', 'a: [1,\n  2]\n'],
    ['a flow map with an empty value', 'a: {b: }\n'],
    ['a flow map with a trailing comma', 'a: {b: 1,}\n'],
    ['a flow key without a space after its colon', 'a: {"b":1}\n'],
    ['a colon inside a flow scalar', 'a: [http://x]\n'],
    ['a comment inside a flow collection', 'a: [b #c]\n'],
    ['a # inside a flow key', 'a: {b#c: 1}\n'],
    ['a flow collection as a key', '{a: 1}: b\n'],
    ['a flow collection as the document', '{a: 1}\n'],
    ['an anchor', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a multi-line plain scalar', 'a: b\n  c\n'],
    ['a folded scalar', 'a: >\n  b\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab', 'a:\t1\n'],
    ['CRLF line ends', 'a: 1\r\nb: 2\r\n'],
    ['a scalar document', 'hello\n'],
    ['an empty document', '# nothing\n'],
    ['a second document', 'a: 1\n---\nb: 2\n'],
    ['a non-string key', '1: a\n'],
    ['an empty value', 'a:\nb: 1\n'],
  ])('leaves %s to the library', (_, t) => {
    expect(Yaml.block('m.yaml', t)).toBeUndefined()
    expect(Yaml.parse('m.yaml', t)).toStrictEqual(Yaml.library('m.yaml', t))
  })

  it('keeps the source spelling and positions of what it reads', () => {
    const t = 'ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            mode: 0644\n            content: |\n              hi\n              there\n            owner: "r\\u00e9"\n'
    const r = Yaml.block('m.yaml', t)
    expect(r).toStrictEqual(E.getOrElseW(() => undefined)(Yaml.library('m.yaml', t)))
    expect(JSON.stringify(r)).toContain('"text":"0644"')
    expect(JSON.stringify(r)).toContain('"value":"hi\\nthere\\n"')
  })
})

/** The core schema's resolution as a chain of the library's patterns, in its order: resolvePlain's model. */
const resolvedByPatterns = (raw: string): string | number | boolean | null => {
  if (/^(?:~|[Nn]ull|NULL)?$/.test(raw)) return null
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(raw)) return raw[0] === 't' || raw[0] === 'T'
  if (/^0o[0-7]+$/.test(raw)) return parseInt(raw.substring(2), 8)
  if (/^[-+]?[0-9]+$/.test(raw)) return parseInt(raw, 10)
  if (/^0x[0-9a-fA-F]+$/.test(raw)) return parseInt(raw.substring(2), 16)
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(raw)) return raw.slice(-3).toLowerCase() === 'nan' ? NaN : raw[0] === '-' ? -Infinity : Infinity
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(raw)) return parseFloat(raw)
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(raw)) return parseFloat(raw)
  return raw
}

describe('Yaml.resolvePlain', () => {
  const pieces = ['~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'fALSE', 'file', 'name', 'n', 't', 'f', 'F', 'N', 'T', '0', '7', '9', '0o', '0x', 'e', 'E', '.', '-', '+', 'inf', 'Inf', 'INF', 'nan', 'NaN', 'NAN', 'a', '_', ' ', 'é']
  fcTest.prop([fc.oneof(fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((a) => a.join('')), fc.string({ maxLength: 8 }))], { numRuns: 3000 })(
    "gives what the library's patterns give, in their order, for words, numbers and anything else",
    (raw) => {
      expect(Yaml.resolvePlain(raw)).toStrictEqual(resolvedByPatterns(raw))
    },
  )

  it.each([
    ['', null], ['~', null], ['Null', null], ['true', true], ['FALSE', false], ['tRue', 'tRue'], ['0644', 644], ['0o17', 15], ['0x1F', 31],
    ['-12', -12], ['1.50', 1.5], ['1e3', 1000], ['.inf', Infinity], ['-.INF', -Infinity], ['.nan', NaN], ['1_000', '1_000'], ['yes', 'yes'],
  ])('%s', (raw, value) => {
    expect(Yaml.resolvePlain(raw)).toStrictEqual(value)
  })
})
