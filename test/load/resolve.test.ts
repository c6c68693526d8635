// resolve: plugin references are replaced by what their plugins give, inner ones first, results
// resolved again, every failure an error at the reference; a document without one is untouched.
// The resolvers here are functions of the test (the Bolt ones run for real in test/interpreters/bolt).
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Fault from '../../src/core/Fault.js'
import { compileTree, parse } from '../../src/compiler/compile.js'
import * as Resolve from '../../src/load/resolve.js'
import * as Node from '../../src/manifest/Node.js'
import * as References from '../../src/manifest/References.js'

const tree = (text: string): Node.Node => {
  const t = parse('m.yaml', text)
  if (E.isLeft(t)) throw new Error(t.left.map((d) => d.message).join('\n'))
  return t.right
}

const resolved = async (text: string, resolvers: Resolve.Resolvers): Promise<unknown> => {
  const r = await Resolve.resolve(tree(text), resolvers)
  if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('\n'))
  return Node.toJS(r.right.node)
}

const problems = async (text: string, resolvers: Resolve.Resolvers = Resolve.none): Promise<ReadonlyArray<string>> => {
  const r = await Resolve.resolve(tree(text), resolvers)
  if (E.isRight(r)) throw new Error('resolved, but should not have')
  return r.left.map((d) => `${d.at?.line}:${d.at?.col} ${d.code} ${d.message}${d.hint === undefined ? '' : ` (${d.hint})`}`)
}

/** A plugin that gives its `value` parameter, and records what it was asked. */
const echo = (asked: References.Reference[] = []): Resolve.Resolver => (ref) => {
  asked.push(ref)
  return TE.right({ value: ref.parameters['value'], sensitive: false })
}

describe('the resolve stage', () => {
  it('gives back a document without references as it is, without walking it', async () => {
    const t = tree('data:\n  a: 1\n  b: [x, {c: d}]\n')
    const r = await Resolve.resolve(t, Resolve.none)
    expect(E.isRight(r) && r.right.node).toBe(t)
  })

  it('replaces a reference by its plugin\'s value, in data, lists and properties', async () => {
    const text = 'data:\n  a:\n    _plugin: echo\n    value: one\n  list:\n    - _plugin: echo\n      value: [1, true, null]\n    - plain\n'
    expect(await resolved(text, new Map([['echo', echo()]]))).toEqual({ data: { a: 'one', list: [[1, true, null], 'plain'] } })
  })

  it('resolves the references in a reference\'s parameters first, and hands the plugin plain data', async () => {
    const asked: References.Reference[] = []
    const text = 'x:\n  _plugin: echo\n  value:\n    inner:\n      _plugin: echo\n      value: deep\n'
    expect(await resolved(text, new Map([['echo', echo(asked)]]))).toEqual({ x: { inner: 'deep' } })
    expect(asked.map((a) => a.parameters)).toEqual([{ value: 'deep' }, { value: { inner: 'deep' } }])
    expect(asked.map((a) => `${a.at.line}:${a.at.col}`)).toEqual(['5:7', '2:3'])
  })

  it('resolves a result that is itself a reference', async () => {
    const again: Resolve.Resolver = () => TE.right({ value: { _plugin: 'echo', value: 'at last' }, sensitive: false })
    expect(await resolved('x:\n  _plugin: again\n', new Map([['again', again], ['echo', echo()]]))).toEqual({ x: 'at last' })
  })

  it('keeps a plugin\'s strings as text: "0644" is not read as a number', async () => {
    const r = await Resolve.resolve(tree('x:\n  _plugin: echo\n  value: "0644"\n'), new Map([['echo', echo()]]))
    const x = E.isRight(r) && r.right.node._tag === 'Map' ? r.right.node.entries[0]!.value : undefined
    expect(x).toMatchObject({ _tag: 'Scalar', value: '0644', quoted: true, at: { line: 2, col: 3 } })
  })

  it('refuses a reference no plugin answers, at its _plugin key, saying which plugins there are', async () => {
    expect(await problems('a:\n  _plugin: vault\n  path: x\nb:\n  - _plugin: other\n')).toEqual([
      '2:3 Reference _plugin: "vault": no plugin of that name (no reference plugins are available)',
      '5:5 Reference _plugin: "other": no plugin of that name (no reference plugins are available)',
    ])
    expect(await problems('a:\n  _plugin: vault\n', new Map([['yaml', echo()], ['env_var', echo()]]))).toEqual(['2:3 Reference _plugin: "vault": no plugin of that name (reference plugins: env_var, yaml)'])
  })

  it('refuses a _plugin that is not a plugin name', async () => {
    expect(await problems('a:\n  _plugin: [x]\nb:\n  _plugin: ""\nc:\n  _plugin: 3\n')).toEqual([
      '2:12 Decode _plugin must name a plugin (a non-empty string), not a list',
      '4:12 Decode _plugin must name a plugin (a non-empty string), not an empty string',
      '6:12 Decode _plugin must name a plugin (a non-empty string), not a number',
    ])
  })

  it('reports a plugin\'s fault at its reference', async () => {
    const failing: Resolve.Resolver = () => TE.left(Fault.make('TimedOut', 'bolt', 'resolve_reference', 'vault', 'no answer in 300 s'))
    expect(await problems('a:\n  _plugin: vault\n', new Map([['vault', failing]]))).toEqual(['2:3 Reference _plugin: "vault": resolve_reference vault: no answer in 300 s'])
  })

  it('stops a plugin that answers with itself', async () => {
    const self: Resolve.Resolver = () => TE.right({ value: { _plugin: 'self' }, sensitive: false })
    expect(await problems('a:\n  _plugin: self\n', new Map([['self', self]]))).toEqual([
      `2:3 Reference _plugin: "self": plugin results hold references ${Resolve.depthLimit} levels deep (a plugin that answers with a reference to itself never ends)`,
    ])
  })

  it('gives compile documents whose values came from plugins, at the reference\'s position', async () => {
    const text = 'data:\n  motd:\n    _plugin: echo\n    value: hello\nccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner: root\n            group: root\n            mode: "0644"\n            content: "{{ lookup(\'data.motd\') }}"\n'
    const r = await Resolve.resolve(tree(text), new Map([['echo', echo()]]))
    if (E.isLeft(r)) throw new Error('no')
    const ok = compileTree('m.yaml', text, r.right.node, '/srv')
    if (E.isLeft(ok)) throw new Error(ok.left.map((d) => d.message).join('\n'))
    expect((ok.right.resources[0] as unknown as { content: { text: string } }).content.text).toBe('hello')
  })

  const plain = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string().filter((k) => k !== '_plugin'), tie('node'), { maxKeys: 4 })),
  })).node

  test.prop([plain])('a document without references resolves to itself (law: identity)', async (value) => {
    const at = { file: 'm.yaml', line: 1, col: 1 }
    const n = References.nodeOf(value, at)
    const r = await Resolve.resolve(n, new Map([['echo', echo()]]))
    expect(E.isRight(r) && r.right.node).toBe(n)
  })

  test.prop([plain, plain])('a reference resolves to exactly its plugin\'s value, wherever it stands (law: substitution)', async (outer, inner) => {
    const at = { file: 'm.yaml', line: 1, col: 1 }
    const doc = References.nodeOf({ outer, here: { _plugin: 'echo', value: inner } }, at)
    const r = await Resolve.resolve(doc, new Map([['echo', echo()]]))
    expect(E.isRight(r) && Node.toJS(r.right.node)).toEqual({ outer, here: inner ?? null })
  })

  /** A secret plugin of the test: gives its `value`, sensitive. */
  const secret: Resolve.Resolver = (ref) => TE.right({ value: ref.parameters['value'], sensitive: true })

  it('lists the references of a document as written, with their values, and which are sensitive', async () => {
    const text = 'a:\n  _plugin: echo\n  value: plain\nb:\n  _plugin: secret\n  value: {pw: s3cr3t}\n'
    const r = await Resolve.resolve(tree(text), new Map([['echo', echo()], ['secret', secret]]))
    if (E.isLeft(r)) throw new Error('no')
    expect(r.right.resolved.map((x) => [x.plugin, `${x.at.line}:${x.at.col}`, x.reference, x.value, x.sensitive])).toEqual([
      ['echo', '2:3', { _plugin: 'echo', value: 'plain' }, 'plain', false],
      ['secret', '5:3', { _plugin: 'secret', value: { pw: 's3cr3t' } }, { pw: 's3cr3t' }, true],
    ])
  })

  it('makes a reference sensitive when a reference in its parameters or its result is, and lists only the outer one', async () => {
    const text = 'a:\n  _plugin: echo\n  value:\n    inner:\n      _plugin: secret\n      value: hidden\nb:\n  _plugin: wraps\n'
    const wraps: Resolve.Resolver = () => TE.right({ value: { _plugin: 'secret', value: 'also hidden' }, sensitive: false })
    const r = await Resolve.resolve(tree(text), new Map([['echo', echo()], ['secret', secret], ['wraps', wraps]]))
    if (E.isLeft(r)) throw new Error('no')
    expect(r.right.resolved.map((x) => [x.plugin, x.reference, x.sensitive])).toEqual([
      ['echo', { _plugin: 'echo', value: { inner: { _plugin: 'secret', value: 'hidden' } } }, true],
      ['wraps', { _plugin: 'wraps' }, true],
    ])
  })

  it('hides a secret from the error of a plugin that was given it', async () => {
    const quoting: Resolve.Resolver = (ref) => TE.left(Fault.make('Failed', 'bolt', 'resolve_reference', 'quoting', `cannot open ${JSON.stringify(ref.parameters['path'])}`))
    const text = 'a:\n  _plugin: quoting\n  path:\n    _plugin: secret\n    value: Xy-secret-9\n'
    expect(await problems(text, new Map([['quoting', quoting], ['secret', secret]]))).toEqual(['2:3 Reference _plugin: "quoting": resolve_reference quoting: cannot open "[sensitive]"'])
  })

  it('takes the strings and numbers of a value as its sensitive texts, not its keys or booleans', () => {
    expect(Resolve.texts({ user: 'admin', pin: 1234, list: ['a', { deep: 'b' }], on: true, none: null })).toEqual(['admin', '1234', 'a', 'b'])
  })

  it('takes each form a secret takes where plait shows it: its lines, trimmed, JSON-, toJSON- and terminal-escaped', () => {
    const forms = Resolve.texts('  first line\nsecond "quoted" & <b>\n')
    expect(forms).toEqual(expect.arrayContaining(['  first line\nsecond "quoted" & <b>\n', 'first line', 'second "quoted" & <b>', '  first line\\nsecond \\"quoted\\" & <b>\\n', 'second \\"quoted\\" \\u0026 \\u003cb\\u003e']))
    expect(Resolve.texts('ab\ncd')).toEqual(['ab\ncd', 'ab\\ncd']) // lines shorter than minForm are not forms of their own
  })

  test.prop([fc.array(fc.string({ minLength: Resolve.minForm }).filter((l) => !l.includes('\n') && !l.includes('\r')), { minLength: 1, maxLength: 4 })])('every line of a multi-line secret, and its trimmed form, is a form of it', (lines) => {
    const forms = Resolve.texts(lines.join('\n'))
    for (const l of lines) expect(forms).toContain(l)
    for (const l of lines) if (l.trim().length >= Resolve.minForm) expect(forms).toContain(l.trim())
  })

  test.prop([fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ']', 's', 'e'), minLength: 1, maxLength: 4 }), { maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', ']', 's', 'e', 'x'), maxLength: 30 })])(
    'hide replaces what splitting by each secret, longest first, replaced (the model: hide before it was prepared once per list)',
    (secrets, message) => {
      const model = [...new Set(secrets)].filter((x) => x !== '').sort((a, b) => b.length - a.length).reduce((m, x) => m.split(x).join('[sensitive]'), message)
      expect(Resolve.hide(secrets, message)).toBe(model)
    },
  )

  it('hides the lines of a secret of 3,000 lines from many messages, and leaves the others as they are', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `Hd${i.toString(36).padStart(4, '0')}-${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.slice(i % 9)}`)
    const forms = Resolve.texts(lines.join('\n'))
    for (let i = 0; i < 2000; i++) expect(Resolve.hide(forms, `step ${i}: nothing here`)).toBe(`step ${i}: nothing here`)
    expect(Resolve.hide(forms, `the plugin said: ${lines[1234]} was refused`)).toBe('the plugin said: [sensitive] was refused')
  })

  /** Whether a secret can be spelt across a marker's edge: it starts with the marker's end or ends with its start (`] ` after `[sensitive]`), or lies inside it. */
  const touchesMarker = (x: string): boolean => {
    const marker = '[sensitive]'
    if (marker.includes(x)) return true
    for (let k = 1; k < marker.length; k++) if (x.startsWith(marker.slice(-k)) || x.endsWith(marker.slice(0, k))) return true
    return false
  }

  test.prop([fc.array(fc.string({ minLength: 1 }), { maxLength: 5 }), fc.string()])('hide leaves no secret in a message (law: nothing hidden survives, but what a marker spells with its neighbours)', (secrets, message) => {
    const shown = Resolve.hide(secrets, message + secrets.join(' '))
    for (const x of secrets) if (!touchesMarker(x)) expect(shown.includes(x)).toBe(false)
  })

  it('shows a marker, not a secret, where a secret is spelt by a marker and the text after it', () => {
    // "] " is the marker's last character and the space the join put after the secret: no part of a secret is shown
    expect(Resolve.hide(['] ', '!'], ']  !')).toBe('[sensitive] [sensitive]')
  })
})
