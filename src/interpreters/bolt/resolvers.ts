// resolvers: the reference plugins of a Bolt project as the resolve stage's Resolvers table
// (src/load/resolve.ts). Each plugin module found (see discover.ts) answers `_plugin: NAME`: the
// reference's parameters (every `_` key is a metaparameter, never a task parameter, as in Bolt) go
// to `validate_resolve_reference` first when the plugin has it, then to `resolve_reference`, whose
// `value` is the reference's value (hooks.ts merges the plugin's configuration in). A secret
// plugin's value is sensitive. `_cache: {ttl: N}` keeps a value for N seconds (cache.ts), except a
// sensitive one, which is never cached; the key is the plugin and every key of the reference but
// `_cache` (its `_` metaparameters too), and `ttl: 0` neither reads nor writes the cache, as Bolt's
// read_and_clean_cache.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Resolve from '../../load/resolve.js'
import * as Node from '../../manifest/Node.js'
import * as References from '../../manifest/References.js'
import * as Cache from './cache.js'
import * as Hooks from './hooks.js'

// model

export interface Options extends Hooks.Options {
  /** Where `_cache` keeps values (default: Cache.defaultFile()). */
  readonly cacheFile?: string
  /** The clock of the cache, in milliseconds (default: Date.now). */
  readonly now?: () => number
}

/** The timeout of a plugin task when none is given (Bolt has none). */
export const defaultTimeoutSeconds = Hooks.defaultTimeoutSeconds

/** The metaparameter a reference gives to cache a plugin's value (Bolt's `_cache`). */
export const cacheKey = '_cache'

/** A project's plugins: the resolve stage's table, and the host that runs any hook. */
export interface Plugins {
  readonly resolvers: Resolve.Resolvers
  readonly host: Hooks.Host
}

// constructors

/** Every reference plugin of the project, by name, for the resolve stage; or why the project cannot be read. */
export const resolversFor = async (o: Options): Promise<E.Either<string, Resolve.Resolvers>> => E.map((p: Plugins) => p.resolvers)(await pluginsFor(o))

/** The plugins of a project: its resolvers, whose configuration references resolve with the same table, and its host. */
export const pluginsFor = async (o: Options): Promise<E.Either<string, Plugins>> => {
  const table = new Map<string, Resolve.Resolver>()
  const host = await Hooks.open(o, async (plugin, raw) => {
    const at = { file: `configuration of plugin ${plugin}`, line: 1, col: 1 }
    const r = await Resolve.resolve(References.nodeOf(raw, at), table)
    if (E.isLeft(r)) return E.left(Fault.make('Failed', 'bolt', 'configuration', plugin, r.left.map((d) => d.message).join('; ')))
    return E.right(Node.toJS(r.right.node) as Record<string, unknown>)
  })
  if (E.isLeft(host)) return host
  const cache = Cache.open(o.cacheFile ?? Cache.defaultFile(), o.now)
  for (const name of host.right.names) table.set(name, resolver(host.right, cache, name))
  return E.right({ resolvers: table, host: host.right })
}

/** The resolver of one plugin module. */
const resolver = (host: Hooks.Host, cache: Cache.Cache, plugin: string): Resolve.Resolver => (reference) => async () => {
  const fault = (description: string): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'bolt', 'resolve_reference', plugin, description))
  const given = Object.fromEntries(Object.entries(reference.parameters).filter(([k]) => !k.startsWith('_')))
  const ttl = Object.hasOwn(reference.parameters, cacheKey) ? Cache.ttlOf(reference.parameters[cacheKey]) : undefined
  if (ttl !== undefined && E.isLeft(ttl)) return fault(ttl.left)
  const secret = await host.isSecret(plugin)
  if (E.isLeft(secret)) return secret
  const key = Cache.key(plugin, Object.fromEntries(Object.entries(reference.parameters).filter(([k]) => k !== cacheKey)))
  if (ttl !== undefined && !secret.right && ttl.right > 0) {
    const hit = await cache.get(key)
    if (hit !== undefined) return E.right({ value: hit.value, sensitive: false })
  }
  const supports = await host.has(plugin, 'resolve_reference')
  if (E.isLeft(supports)) return supports
  if (!supports.right) return fault(`Plugin ${plugin} does not support resolve_reference`)
  const check = await host.has(plugin, 'validate_resolve_reference')
  if (E.isLeft(check)) return check
  const params = await host.check(plugin, 'resolve_reference', given)
  if (E.isLeft(params)) return params
  if (check.right) {
    const checked = await host.run(plugin, 'validate_resolve_reference', given, false)
    if (E.isLeft(checked)) return checked
  }
  const result = await host.run(plugin, 'resolve_reference', given, true)
  if (E.isLeft(result)) return result
  const value = result.right['value']
  if (ttl !== undefined && !secret.right && ttl.right > 0) {
    const put = await cache.put(key, value, ttl.right)
    if (E.isLeft(put)) return fault(put.left)
  }
  return E.right({ value, sensitive: secret.right })
}
