// PluginConfig: a plugin's configuration checked as Bolt's validate_config checks it (keys a hook
// task takes, values that fit every hook task declaring them), and pkcs7's deprecated keys renamed.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Metadata from '../../../../src/interpreters/bolt/protocol/Metadata.js'
import * as PluginConfig from '../../../../src/interpreters/bolt/protocol/PluginConfig.js'

/** A hook task whose metadata declares these parameters (name → type text). */
const task = (name: string, parameters?: Record<string, string>): PluginConfig.HookTask => {
  const meta = Metadata.parse(`${name}.json`, JSON.stringify(parameters === undefined ? {} : { parameters: Object.fromEntries(Object.entries(parameters).map(([k, type]) => [k, { type }])) }))
  if (E.isLeft(meta)) throw new Error(meta.left)
  return { name, meta: meta.right }
}

const hooks = new Map([
  ['resolve_reference', task('p::decrypt', { size: 'Integer', name: 'String' })],
  ['secret_createkeys', task('p::createkeys', { size: 'Integer[1024, 8192]' })],
])

describe('plugin configuration types', () => {
  it('accepts values that fit every hook task declaring their key, and null for any', () => {
    expect(PluginConfig.problem('p', hooks, { size: 2048, name: 'x' })).toBeUndefined()
    expect(PluginConfig.problem('p', hooks, { size: null })).toBeUndefined()
  })

  it('names the plugin, the key, the type and the hook of a value that does not fit', () => {
    expect(PluginConfig.problem('p', hooks, { size: '2048' })).toBe("the configuration of plugin p (plugins.p): 'size' expects an Integer value, got String, the type its resolve_reference hook (task p::decrypt) takes")
    expect(PluginConfig.problem('p', hooks, { size: 512 })).toBe("the configuration of plugin p (plugins.p): 'size' expects an Integer[1024, 8192] value, got Integer, the type its secret_createkeys hook (task p::createkeys) takes")
  })

  it('refuses a key no hook task takes, with control characters escaped; a task declaring no parameters takes any', () => {
    expect(PluginConfig.problem('p', hooks, { 'ne\u001bw': 1 })).toBe("the configuration of plugin p (plugins.p) has 'ne\\u001bw', which none of its tasks takes")
    expect(PluginConfig.problem('p', new Map([...hooks, ['puppet_library', task('p::lib')]]), { other: 1 })).toBeUndefined()
  })

  test.prop([fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue())])('never throws, and a key no hook declares is always named (law)', (config) => {
    const r = PluginConfig.problem('p', hooks, config)
    const unknown = Object.keys(config).filter((k) => k !== 'size' && k !== 'name')
    if (unknown.length > 0) expect(r).toMatch(/which none of its tasks takes$/)
  })
})

describe("pkcs7's deprecated keys", () => {
  it('renames private-key and public-key, the deprecated one winning as in Bolt, and says whether any was there', () => {
    expect(PluginConfig.renamePkcs7({ 'private-key': 'a', private_key: 'b', 'public-key': 'c', x: 1 })).toEqual([{ private_key: 'a', public_key: 'c', x: 1 }, true])
    expect(PluginConfig.renamePkcs7({ private_key: 'b' })).toEqual([{ private_key: 'b' }, false])
  })

  test.prop([fc.dictionary(fc.constantFrom('private-key', 'public-key', 'private_key', 'public_key', 'keysize', 'x'), fc.jsonValue())])(
    'leaves no deprecated key, keeps every other key and value, and is idempotent (law)',
    (params) => {
      const [once, had] = PluginConfig.renamePkcs7(params)
      expect(had).toBe('private-key' in params || 'public-key' in params)
      expect(Object.keys(once).some((k) => k.includes('-'))).toBe(false)
      for (const [k, v] of Object.entries(params)) if (!['private-key', 'public-key', 'private_key', 'public_key'].includes(k)) expect(once[k]).toEqual(v)
      expect(PluginConfig.renamePkcs7(once)).toEqual([once, false])
    },
  )
})
