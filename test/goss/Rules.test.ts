// Rules: goss_rules decoded from YAML, with a positioned message for each unknown kind, attribute
// or matcher and each ill-typed value.
import * as fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Yaml from '../../src/manifest/Yaml.js'
import * as Resolve from '../../src/goss/Resolve.js'
import * as Rules from '../../src/goss/Rules.js'
import * as M from '../../src/goss/Matcher.js'
import * as Position from '../../src/core/Position.js'

const parse = (text: string) => {
  const n = Yaml.parse('g.yaml', text)
  if (E.isLeft(n)) throw new Error('bad yaml')
  return n.right
}
const decode = (text: string) => Rules.decode(parse(text))
const errors = (text: string): string => decode(text).problems.map(Diagnostic.render).join('\n')

describe('decoding goss rules', () => {
  it('reads kinds, names, attributes, options and matchers, in order', () => {
    const r = decode('file:\n  /etc/motd:\n    exists: true\n    mode: 0644\n    contents: [hello, "!/bye/"]\nuser:\n  nobody:\n    uid: {lt: 70000}\n    groups: {consist-of: [nogroup]}\ncommand:\n  check:\n    exec: echo hi\n    exit-status: 0\n    timeout: 500\n')
    expect(r.problems).toEqual([])
    expect(r.rules).toEqual([
      { kind: 'file', name: '/etc/motd', options: {}, checks: [{ attribute: 'exists', matcher: M.equal(true) }, { attribute: 'mode', matcher: M.equal('0644') }, { attribute: 'contents', matcher: { _tag: 'Patterns', patterns: ['hello', '!/bye/'] } }] },
      { kind: 'user', name: 'nobody', options: {}, checks: [{ attribute: 'uid', matcher: M.compare('lt', 70000) }, { attribute: 'groups', matcher: { _tag: 'ConsistOf', matchers: [M.equal('nogroup')] } }] },
      { kind: 'command', name: 'check', options: { exec: 'echo hi', timeout: 500 }, checks: [{ attribute: 'exit-status', matcher: M.equal(0) }] },
    ])
  })
  it('reads a list given to a list attribute as contain-elements, and nested and/or/not', () => {
    const r = decode('package:\n  kernel:\n    versions:\n      and:\n        - have-len: 3\n        - not: {contain-element: "4.1.0"}\nuser:\n  root:\n    groups: [root]\n')
    expect(r.problems).toEqual([])
    expect(r.rules[0]?.checks[0]?.matcher).toEqual(M.and([{ _tag: 'HaveLen', value: 3 }, M.not({ _tag: 'ContainElement', matcher: M.equal('4.1.0') })]))
    expect(r.rules[1]?.checks[0]?.matcher).toEqual({ _tag: 'ContainElements', matchers: [M.equal('root')] })
  })
  it.each([
    ['an unknown kind', 'mount:\n  /:\n    exists: true\n', /g\.yaml:1:1: .*goss_rules: unknown resource kind "mount"\n {2}hint: plait checks: file, package/],
    ['an unknown attribute', 'file:\n  /x:\n    md5: abc\n', /g\.yaml:3:5: .*goss_rules: file "\/x": unknown attribute "md5"\n {2}hint: file has: exists, mode/],
    ['an unknown matcher', 'user:\n  u:\n    uid: {less-than: 5}\n', /g\.yaml:3:11: .*goss_rules: user "u" uid: unknown matcher "less-than"/],
    ['a matcher map of two keys', 'user:\n  u:\n    uid: {lt: 5, gt: 1}\n', /g\.yaml:3:10: .*a matcher is a map with one key, found 2/],
    ['a string for a boolean', 'file:\n  /x:\n    exists: yes please\n', /g\.yaml:3:13: .*file "\/x" exists must be true or false, found a string/],
    ['a string for a number', 'group:\n  g:\n    gid: lots\n', /g\.yaml:3:10: .*group "g" gid must be a whole number, found a string/],
    ['a comparison with a string', 'user:\n  u:\n    uid: {lt: five}\n', /g\.yaml:3:15: .*lt needs a number, found a string/],
    ['a bad regular expression', 'command:\n  c:\n    stdout: {match-regexp: "a("}\n', /g\.yaml:3:28: .*match-regexp "a\(": .*missing closing \)/],
    ['a bad regular expression pattern', 'file:\n  /x:\n    contents: ["/a(/"]\n', /g\.yaml:3:15: .*pattern "\/a\(\/" is not a valid regular expression/],
    ['a timeout out of range', 'http:\n  http://x:\n    status: 200\n    timeout: 0\n', /g\.yaml:4:14: .*timeout must be a whole number of milliseconds from 1 to 300000/],
    ['a rule that checks nothing', 'http:\n  http://x:\n    timeout: 100\n', /g\.yaml:3:5: .*http "http:\/\/x" checks nothing/],
    ['a list where a map is needed', '- file\n', /g\.yaml:1:1: .*must be a map of resource kinds/],
    ['no rules at all', '{}\n', /goss_rules: has no rules/],
  ])('refuses %s with a positioned message', (_, text, message) => {
    expect(errors(text)).toMatch(message)
  })
  it('refuses more rules than one check may hold', () => {
    const many = `command:\n${Array.from({ length: Rules.maxRules + 1 }, (_, i) => `  c${i}:\n    exit-status: 0\n`).join('')}`
    expect(errors(many)).toMatch(/501 rules, more than the 500/)
  })
})

describe('resolved rules as the plan carries them', () => {
  it('decode again to the same rules, spellings such as 0644 and 1.10 kept', () => {
    const text = 'file:\n  /etc/motd:\n    mode: 0644\npackage:\n  zsh:\n    versions: [1.10]\nport:\n  tcp:80:\n    listening: true\n'
    const n = parse(text)
    const json = Resolve.toJson(n)
    expect(json).toEqual({ file: { '/etc/motd': { mode: '0644' } }, package: { zsh: { versions: ['1.10'] } }, port: { 'tcp:80': { listening: true } } })
    expect(Rules.decodeJson(json).rules).toEqual(Rules.decode(n).rules)
  })
  it('have their templates resolved in names and values first', () => {
    const n = Resolve.resolve(parse('http:\n  "http://localhost:{{ port }}":\n    status: 200\n    body: ["{{ word }}"]\n'), (s) => s.text.replace('{{ port }}', '8080').replace('{{ word }}', 'ok'))
    expect(n === undefined ? undefined : Resolve.toJson(n)).toEqual({ http: { 'http://localhost:8080': { status: 200, body: ['ok'] } } })
  })
})

describe('matchers as goss YAML spells them', () => {
  const scalar: fc.Arbitrary<M.Json> = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b', 'ab', '0644'), fc.boolean())
  const leaf: fc.Arbitrary<M.Matcher> = fc.oneof(
    scalar.map(M.equal),
    fc.tuple(fc.constantFrom<M.Compare>('lt', 'le', 'gt', 'ge'), fc.integer({ min: -5, max: 5 })).map(([op, n]) => M.compare(op, n)),
    fc.tuple(fc.constantFrom<M.Text>('have-prefix', 'have-suffix', 'contain-substring', 'match-regexp'), fc.constantFrom('a', '^a', 'b$')).map(([op, v]) => M.text(op, v)),
    fc.integer({ min: 0, max: 3 }).map((value): M.Matcher => ({ _tag: 'HaveLen', value })),
  )
  const matcher = fc.letrec<{ m: M.Matcher }>((tie) => ({
    m: fc.oneof(
      { depthSize: 'small' },
      leaf,
      tie('m').map(M.not),
      fc.array(tie('m'), { maxLength: 3 }).map(M.and),
      fc.array(tie('m'), { maxLength: 3 }).map(M.or),
      tie('m').map((m): M.Matcher => ({ _tag: 'ContainElement', matcher: m })),
      fc.array(tie('m'), { maxLength: 3 }).map((ms): M.Matcher => ({ _tag: 'ConsistOf', matchers: ms })),
    ),
  })).m
  const actual: fc.Arbitrary<M.Json> = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }))

  it('decode back to matchers that match exactly what the originals match', () => {
    fc.assert(
      fc.property(matcher, actual, (m, v) => {
        const problems: Diagnostic.Diagnostic[] = []
        const back = Rules.matcher(Rules.nodeOf(M.toJson(m), Position.make('p', 1, 1)), 'any', 'x', problems)
        expect(problems).toEqual([])
        expect(back !== undefined && M.matches(back, v)).toBe(M.matches(m, v))
      }),
    )
  })
})
