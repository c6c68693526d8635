// PluginConfig: a plugin's configuration (`plugins: NAME:` of bolt-project.yaml) checked as Bolt's
// validate_config checks it when the plugin is loaded: every key must be a parameter of one of its
// hook tasks, and a value must fit the type of every hook task that declares the key (null fits
// any, as Bolt makes those types Optional). The pkcs7 plugin's deprecated keys `private-key` and
// `public-key` are renamed `private_key` and `public_key`, as Bolt renames them (its
// handle_deprecated_pkcs7_keys), in its configuration and in a reference's parameters.
import type * as Metadata from './Metadata.js'
import type * as Params from './Params.js'
import * as Type from './Type.js'

// model

/** What the check needs of a hook's task: its name and metadata. */
export interface HookTask {
  readonly name: string
  readonly meta: Metadata.Metadata
}

/** The pkcs7 plugin's deprecated keys, and the keys Bolt reads them as. */
export const pkcs7Renamed: ReadonlyArray<readonly [string, string]> = [
  ['private-key', 'private_key'],
  ['public-key', 'public_key'],
]

/** The warning given (once) when the deprecated pkcs7 keys are used. */
export const pkcs7Deprecation = "the pkcs7 keys 'private-key' and 'public-key' are deprecated, as in Bolt; they are read as 'private_key' and 'public_key': use those"

// constructors

/** Parameters with pkcs7's deprecated keys renamed (the deprecated one winning, as in Bolt), and whether any was there. */
export const renamePkcs7 = (params: Params.Params): readonly [Params.Params, boolean] => {
  if (!pkcs7Renamed.some(([old]) => Object.hasOwn(params, old))) return [params, false]
  const out: Record<string, unknown> = { ...params }
  for (const [old, now] of pkcs7Renamed) {
    if (!Object.hasOwn(out, old)) continue
    out[now] = out[old]
    delete out[old]
  }
  return [out, true]
}

/** The problem with a plugin's configuration, or undefined: a key no hook task takes (checked when every hook task declares its parameters), or a value that does not fit a hook task declaring it. */
export const problem = (plugin: string, hooks: ReadonlyMap<string, HookTask>, config: Params.Params): string | undefined => {
  const declared = [...hooks.values()].map((t) => t.meta.parameters)
  if (declared.length > 0 && declared.every((d) => d !== undefined)) {
    const unknown = Object.keys(config).filter((k) => !declared.some((d) => d!.has(k)))
    if (unknown.length > 0) return `the configuration of plugin ${plugin} (plugins.${plugin}) has ${unknown.map((k) => `'${quote(k)}'`).join(', ')}, which none of its tasks takes`
  }
  for (const [key, value] of Object.entries(config)) {
    if (value === null || value === undefined) continue
    for (const [hook, task] of hooks) {
      const p = task.meta.parameters?.get(key)
      const wrong = p === undefined ? undefined : Type.check(p.type, value)
      if (wrong !== undefined) return `the configuration of plugin ${plugin} (plugins.${plugin}): '${quote(key)}' ${wrong}, the type its ${hook} hook (task ${task.name}) takes`
    }
  }
  return undefined
}

/** A name from a configuration, shortened and with control characters shown as escapes (it reaches a terminal). */
const quote = (name: string): string => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}...` : name).slice(1, -1)
