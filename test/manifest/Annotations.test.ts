import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as A from '../../src/manifest/Annotations.js'
import * as H from '../../src/manifest/Hierarchy.js'
import type * as Node from '../../src/manifest/Node.js'
import * as Yaml from '../../src/manifest/Yaml.js'

const compat = readFileSync(new URL('../../../shared/compat/ccm/hiera-data-annotations.yaml', import.meta.url), 'utf8')

const extract = (text: string, file = 'm.yaml'): A.Extracted => {
  const r = A.extract(file, text)
  if (E.isLeft(r)) throw new Error(r.left[0]!.message)
  return r.right
}

const rules = (text: string): ReadonlyArray<unknown> =>
  extract(text).rules.map((r) => ({ path: r.path.join('.'), required: r.required, ...(r.validate !== undefined ? { validate: r.validate.expression } : {}) }))

const warnings = (text: string): ReadonlyArray<string> => extract(text).warnings.map((w) => `${Position.render(w.at!)} ${w.message}`)

// The resolved data of a document (hierarchy with no facts).
const data = (text: string, file = 'm.yaml'): Node.MapNode => {
  const root = Yaml.parse(file, text)
  if (E.isLeft(root)) throw new Error(root.left[0]!.message)
  const s = H.fromDocument(root.right, 'manifest')
  if (E.isLeft(s)) throw new Error(s.left[0]!.message)
  const r = H.resolve(s.right, { entry: (t) => E.right({ key: t, matched: t !== '' }) })
  if (E.isLeft(r)) throw new Error(r.left[0]!.message)
  return r.right.data
}

const check = (text: string, evaluate?: A.Evaluate): ReadonlyArray<string> =>
  A.check(data(text), extract(text).rules, evaluate).map((d) => `${d.code} ${Position.render(d.at!)} ${d.message}${d.hint !== undefined ? ` | ${d.hint}` : ''}`)

describe('extract', () => {
  it('reads CCM\'s documented example', () => {
    expect(rules(compat)).toEqual([
      { path: 'user', required: true },
      { path: 'command', required: false, validate: 'isShellSafe(value)' },
      { path: 'listen_address', required: true, validate: 'isIPv4(value)' },
    ])
    expect(extract(compat).warnings).toEqual([])
    const user = extract(compat, 'c.yaml').rules[0]!
    expect(Position.render(user.at)).toBe(`c.yaml:${compat.split('\n').findIndex((l) => l.startsWith('  user:')) + 1}:3`)
  })

  it('takes the comment lines directly above a key and the comment at the end of its line', () => {
    expect(rules('data:\n  user: bob # @require\n  web:\n    # about it\n    # @validate isIP(value)\n    listen: 1.2.3.4\n')).toEqual([
      { path: 'user', required: true },
      { path: 'web.listen', required: false, validate: 'isIP(value)' },
    ])
    expect(rules('data:\n  # @required\n  web: # @validate isInt(value)\n    port: 1\n')).toEqual([{ path: 'web', required: true, validate: 'isInt(value)' }])
    expect(rules('data: {a: 1, b: 2} # @require\n')).toEqual([{ path: 'b', required: true }])
  })

  it('ignores comments that are not annotations, and the comments of other sections', () => {
    expect(rules('# @require\ndata:\n  ## @require\n  # just words\n  a: 1\noverrides:\n  x:\n    # @require\n    a: 2\n')).toEqual([])
    expect(warnings('overrides:\n  x:\n    # @bogus\n    a: 2\n')).toEqual([])
    expect(rules('ccm: {}\n')).toEqual([])
    expect(rules('data: [1]\n')).toEqual([])
  })

  it('warns about annotations that annotate nothing, unknown directives and an empty @validate', () => {
    const text = 'data:\n  # @require\n\n  spaced: 1\n  list:\n    # @require\n    - a: 1\n  # @requiired\n  typo: 1\n  # @validate\n  empty: 1\n  last: 1\n  # @require\nnext: 1\n'
    expect(warnings(text)).toEqual([
      'm.yaml:8:3 data "typo": unknown annotation "@requiired"; it is ignored',
      'm.yaml:10:3 data "empty": @validate needs an expression, such as "@validate isIP(value)"; it is ignored',
      'm.yaml:2:3 annotation "@require" annotates no key of data; it is ignored',
      'm.yaml:6:5 annotation "@require" annotates no key of data; it is ignored',
      'm.yaml:13:3 annotation "@require" annotates no key of data; it is ignored',
    ])
    expect(rules(text)).toEqual([])
  })

  it('keeps the last of several @validate lines, as CCM does, and says so', () => {
    const text = 'data:\n  # @validate isInt(value)\n  # @validate isFloat(value)\n  n: 1.5\n'
    expect(rules(text)).toEqual([{ path: 'n', required: false, validate: 'isFloat(value)' }])
    expect(warnings(text)).toEqual(['m.yaml:2:3 data "n" has several @validate annotations; only the last applies (as in CCM)'])
  })

  it('refuses a document that does not parse', () => {
    const r = A.extract('m.yaml', 'data: [1\n')
    expect(E.isLeft(r) && r.left[0]!.code).toBe('Syntax')
  })
})

describe('check', () => {
  it('passes CCM\'s documented example', () => {
    expect(check(compat)).toEqual([])
  })

  it('fails @require for a missing key, nil or "", and accepts false and 0', () => {
    const text = 'data:\n  # @require\n  a: ""\n  # @require\n  b:\n  # @require\n  c: false\n  # @require\n  d: 0\n  # @require\n  nested:\n    # @require\n    e: x\n'
    expect(check(text)).toEqual([
      'Validation m.yaml:3:6 data "a" is required but has no value | annotated @require at m.yaml:3:3',
      'Validation m.yaml:5:5 data "b" is required but has no value | annotated @require at m.yaml:5:3',
    ])
    const missing = A.check(data('data: {}\n'), [{ path: ['x', 'y'], at: Position.make('m.yaml', 9, 9), required: true }])
    expect(missing.map((d) => `${Position.render(d.at!)} ${d.message}`)).toEqual(['m.yaml:9:9 data "x.y" is required but has no value'])
  })

  it('fails @validate with the validator\'s reason, at the value', () => {
    expect(check('data:\n  # @require\n  # @validate isIPv4(value)\n  listen: 10.0.0.300\n')).toEqual([
      'Validation m.yaml:4:11 data "listen" failed @validate isIPv4(value): 10.0.0.300 is not an IPv4 address (IPv4 field has value >255) | annotated at m.yaml:3:3',
    ])
    expect(check('data:\n  # @validate isShellSafe(value)\n  cmd: "rm -rf /; ls"\n')).toEqual([
      'Validation m.yaml:3:8 data "cmd" failed @validate isShellSafe(value): may not contain \';\' | annotated at m.yaml:2:3',
    ])
  })

  it('runs @validate on "" after @require fails, and skips it for nil, maps and lists', () => {
    expect(check('data:\n  # @require\n  # @validate isIPv4(value)\n  a:\n')).toHaveLength(1)
    expect(check('data:\n  # @require\n  # @validate isIPv4(value)\n  a: ""\n')).toHaveLength(2)
    expect(check('data:\n  # @validate isIPv4(value)\n  m: {x: 1}\n  # @validate isIPv4(value)\n  l: [1]\n')).toEqual([])
  })

  it('validates numbers and booleans by their text, as CCM does', () => {
    expect(check('data:\n  # @validate isInt(value)\n  port: 8080\n  # @validate isRegex(value, "^(true|false)$")\n  debug: false\n  # @validate isInt(value)\n  ratio: 1.5\n')).toEqual([
      'Validation m.yaml:7:10 data "ratio" failed @validate isInt(value): 1.5 is not an integer | annotated at m.yaml:6:3',
    ])
  })

  it('checks the merged data: a value an override provides is the one validated, at its position', () => {
    const text = 'hierarchy: {order: [prod]}\ndata:\n  # @require\n  # @validate isHostname(value)\n  host: ""\noverrides:\n  prod: {host: "bad host"}\n'
    expect(check(text)).toEqual(['Validation m.yaml:7:16 data "host" failed @validate isHostname(value): "bad host" is not a valid hostname | annotated at m.yaml:4:3'])
    expect(check(text.replace('bad host', 'web01'))).toEqual([])
  })

  it('reports an expression that cannot be evaluated at its annotation', () => {
    expect(check('data:\n  # @validate isRegex(value, "(")\n  a: x\n')).toEqual([
      'Expression m.yaml:2:3 data "a": @validate isRegex(value, "(") cannot be evaluated: invalid regex "(": error parsing regexp: missing closing ): `(`',
    ])
    expect(check('data:\n  # @validate len(value) > 3\n  a: x\n')[0]).toContain('without the expression language')
  })

  it('uses the evaluator it is given', () => {
    const seen: string[] = []
    const evaluate: A.Evaluate = (expression, value) => {
      seen.push(`${expression} ${value}`)
      return E.right({ ok: value.length > 3, reasons: ['too short'] })
    }
    expect(check('data:\n  # @validate len(value) > 3\n  a: xy\n  # @validate len(value) > 3\n  b: long\n', evaluate)).toEqual([
      'Validation m.yaml:3:6 data "a" failed @validate len(value) > 3: too short | annotated at m.yaml:2:3',
    ])
    expect(seen).toEqual(['len(value) > 3 xy', 'len(value) > 3 long'])
  })
})
