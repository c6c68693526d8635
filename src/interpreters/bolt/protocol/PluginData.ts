// PluginData: a module's `bolt_plugin.json`, decoded. Its presence makes a module a plugin; its
// `hooks` map a hook to a task of any name (`{"hooks": {"resolve_reference": {"task": "m::t"}}}`).
// As in Bolt, a `config` key is refused (a plugin's configuration is its tasks' parameters) and
// text that is not a JSON object is an error naming the plugin.
import * as E from 'fp-ts/lib/Either.js'

// model

/** The hooks plait knows (Bolt's): reference hooks for `_plugin`, secret hooks for `plait secret`, puppet_library before `plait apply`. */
export const knownHooks = ['resolve_reference', 'validate_resolve_reference', 'secret_encrypt', 'secret_decrypt', 'secret_createkeys', 'puppet_library'] as const

export interface PluginData {
  /** Hook name → task name, as the file maps them (the tasks named after a hook are found later). */
  readonly hooks: ReadonlyMap<string, string>
}

/** The longest bolt_plugin.json read (characters). */
export const maxText = 1024 * 1024

// constructors

/** Decodes a bolt_plugin.json; errors read as Bolt's: "Invalid Plugin Data for NAME: ...". */
export const parse = (plugin: string, text: string): E.Either<string, PluginData> => {
  const bad = (why: string): E.Either<string, never> => E.left(`Invalid Plugin Data for ${plugin}: ${why}`)
  if (text.length > maxText) return bad(`bolt_plugin.json is longer than ${maxText} characters`)
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    return bad(`bolt_plugin.json is not JSON: ${(e as Error).message}`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('bolt_plugin.json must hold a JSON object')
  const data = raw as Record<string, unknown>
  if ('config' in data) return bad("Found unsupported key 'config' in bolt_plugin.json. Config for a plugin is inferred from task parameters, with config values passed as parameters.")
  const hooks = new Map<string, string>()
  const h = data['hooks'] ?? {}
  if (typeof h !== 'object' || h === null || Array.isArray(h)) return bad("'hooks' must be a hash")
  for (const [hook, spec] of Object.entries(h as Record<string, unknown>)) {
    const task = typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? (spec as Record<string, unknown>)['task'] : undefined
    if (typeof task !== 'string') return bad(`Unexpected hook specification ${JSON.stringify(spec) ?? 'undefined'} for hook ${hook}`)
    hooks.set(hook, task)
  }
  return E.right(Object.freeze({ hooks }))
}
