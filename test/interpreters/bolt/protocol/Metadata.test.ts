// Metadata and PluginData: task metadata and bolt_plugin.json are decoded with every bad shape
// refused in words naming the file or the plugin; `config` in bolt_plugin.json is refused as Bolt does.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Metadata from '../../../../src/interpreters/bolt/protocol/Metadata.js'
import * as PluginData from '../../../../src/interpreters/bolt/protocol/PluginData.js'
import * as Type from '../../../../src/interpreters/bolt/protocol/Type.js'

describe('task metadata', () => {
  it('reads parameters, their types and defaults, the input method, files and implementations', () => {
    const m = Metadata.parse('t.json', JSON.stringify({
      description: 'd',
      input_method: 'environment',
      files: ['m/files/a'],
      parameters: { a: { type: 'Integer', default: 2 }, b: { sensitive: true } },
      implementations: [{ name: 't.sh', requirements: ['shell'], input_method: 'stdin' }],
      extra: 'ignored',
    }))
    expect(E.isRight(m)).toBe(true)
    if (E.isLeft(m)) return
    expect(m.right.inputMethod).toBe('environment')
    expect(m.right.files).toEqual(['m/files/a'])
    expect(m.right.parameters?.get('a')).toEqual({ type: { _tag: 'Integer', min: -Infinity, max: Infinity }, default: 2, sensitive: false })
    expect(m.right.parameters?.get('b')).toEqual({ type: Type.any, sensitive: true })
    expect(m.right.implementations).toEqual([{ name: 't.sh', requirements: ['shell'], files: [], inputMethod: 'stdin' }])
  })

  it.each([
    ['{', /^task metadata t.json: not JSON/],
    ['[]', /not a JSON object/],
    ['{"input_method": "argv"}', /"input_method" must be one of stdin, environment, both, powershell, not "argv"/],
    ['{"parameters": {"A": {}}}', /parameter name "A" is not valid/],
    ['{"parameters": {"a": {"type": "Strng"}}}', /parameter a: type "Strng": Strng is not a type plait knows/],
    ['{"parameters": {"a": {"type": 3}}}', /parameter a: "type" must be a string/],
    ['{"parameters": {"a": {"type": "Integer", "default": "x"}}}', /parameter a: the default expects an Integer value, got String/],
    ['{"files": "x"}', /"files" must be a list of strings/],
    ['{"implementations": [{}]}', /implementation 1 must be an object with a "name"/],
  ])('refuses %s', (text, why) => {
    const m = Metadata.parse('t.json', text)
    expect(E.isLeft(m) && m.left).toMatch(why)
  })
})

describe('bolt_plugin.json', () => {
  it('reads the hooks mapping; an empty object is a plugin without one', () => {
    expect(PluginData.parse('p', '{}')).toEqual(E.right({ hooks: new Map() }))
    expect(PluginData.parse('p', '{"hooks": {"resolve_reference": {"task": "p::get"}}}')).toEqual(E.right({ hooks: new Map([['resolve_reference', 'p::get']]) }))
  })

  it('refuses a config key, as Bolt does', () => {
    expect(PluginData.parse('p', '{"config": {}}')).toEqual(E.left("Invalid Plugin Data for p: Found unsupported key 'config' in bolt_plugin.json. Config for a plugin is inferred from task parameters, with config values passed as parameters."))
  })

  it.each([
    ['{"hooks": ', /^Invalid Plugin Data for p: bolt_plugin.json is not JSON/],
    ['null', /must hold a JSON object/],
    ['{"hooks": []}', /'hooks' must be a hash/],
    ['{"hooks": {"resolve_reference": "p::get"}}', /Unexpected hook specification "p::get" for hook resolve_reference/],
  ])('refuses %s', (text, why) => {
    const d = PluginData.parse('p', text)
    expect(E.isLeft(d) && d.left).toMatch(why)
  })
})
