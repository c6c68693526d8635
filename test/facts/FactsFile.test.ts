import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Position from '../../src/core/Position.js'
import * as FactsFile from '../../src/facts/FactsFile.js'

const errors = (text: string, format: FactsFile.Format, file = 'f'): ReadonlyArray<string> => {
  const r = FactsFile.parse(file, text, format)
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map((d) => `${d.code} ${Position.render(d.at!)} ${d.message}`)
}

describe('formatOf', () => {
  it('knows .json, .yaml and .yml, in any case, and nothing else', () => {
    expect(['a.json', 'b.YAML', 'c.yml', 'd.txt', 'facts.yaml~', 'json'].map(FactsFile.formatOf)).toEqual(['json', 'yaml', 'yaml', undefined, undefined, undefined])
  })
})

describe('parse', () => {
  it('reads JSON and YAML maps', () => {
    expect(FactsFile.parse('f', '{"role": "web", "n": [1, 2]}', 'json')).toEqual(E.right({ role: 'web', n: [1, 2] }))
    expect(FactsFile.parse('f', 'role: web\nn: [1, 2]\nv: "1.10"\n', 'yaml')).toEqual(E.right({ role: 'web', n: [1, 2], v: '1.10' }))
    expect(FactsFile.parse('f', '\uFEFF{"a": 1}', 'json')).toEqual(E.right({ a: 1 }))
  })

  it('reads an empty or comment-only YAML file as no facts', () => {
    expect(FactsFile.parse('f', '', 'yaml')).toEqual(E.right({}))
    expect(FactsFile.parse('f', '# nothing yet\n', 'yaml')).toEqual(E.right({}))
  })

  it('points at JSON syntax errors by line and column', () => {
    expect(errors('{\n  "a": 1,\n  "b": }\n', 'json', 'facts.json')).toEqual(["Syntax facts.json:3:8 invalid JSON: unexpected \"}\""])
    expect(errors('{"a": 1', 'json')).toEqual(['Syntax f:1:8 invalid JSON: unexpected end of input'])
    expect(errors('{"a": "x', 'json')).toEqual(['Syntax f:1:9 invalid JSON: unexpected end of input'])
    expect(errors('', 'json')).toEqual(['Syntax f:1:1 invalid JSON: unexpected end of input'])
    expect(errors('{"a": "x\ny"}', 'json')).toEqual(['Syntax f:1:9 invalid JSON: control character in a string (escape it)'])
    expect(errors('{"a": 1} x', 'json')).toEqual(['Syntax f:1:10 invalid JSON: unexpected text after the JSON value'])
    expect(errors("{'a': 1}", 'json')).toEqual(['Syntax f:1:2 invalid JSON: expected a string key'])
    expect(errors('{"a": 01}', 'json')).toEqual(["Syntax f:1:8 invalid JSON: expected ',' or '}'"])
    expect(errors('{"a": "\\x"}', 'json')).toEqual(['Syntax f:1:8 invalid JSON: invalid escape \\x'])
  })

  it('points at YAML syntax errors by line and column', () => {
    expect(errors('a: 1\nb: [1, 2\nc: 3\n', 'yaml', 'facts.yaml')[0]).toMatch(/^Syntax facts\.yaml:\d+:\d+ /)
    expect(errors('a: 1\na: 2\n', 'yaml')[0]).toMatch(/^Syntax f:2:1 /)
  })

  it('refuses a file that does not hold a map', () => {
    expect(errors('[1, 2]', 'json')).toEqual(['Decode f:1:1 a facts file must hold a map (a JSON object), found a list'])
    expect(errors('"x"', 'json')).toEqual(['Decode f:1:1 a facts file must hold a map (a JSON object), found a string'])
    expect(errors('null', 'json')).toEqual(['Decode f:1:1 a facts file must hold a map (a JSON object), found null'])
    expect(errors('- a\n', 'yaml')).toEqual(['Decode f:1:1 a facts file must hold a map, found a list'])
    expect(errors('just text\n', 'yaml')).toEqual(['Decode f:1:1 a facts file must hold a map, found a string'])
  })

  fcTest.prop([fc.dictionary(fc.string(), fc.jsonValue())])('reads back any JSON object it is given, as JSON or as YAML', (o) => {
    const text = JSON.stringify(o)
    expect(FactsFile.parse('f', text, 'json')).toEqual(E.right(JSON.parse(text)))
    expect(FactsFile.jsonError(text)).toBeUndefined()
  })

  fcTest.prop([fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', '"', 'x', '\u0001')])('finds an error wherever JSON.parse finds one', (text, at, junk) => {
    const broken = text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1))
    let valid = true
    try {
      JSON.parse(broken)
    } catch {
      valid = false
    }
    expect(FactsFile.jsonError(broken) === undefined).toBe(valid)
  })
})
