// resolvers: the reference plugins of a Bolt project as the resolve stage's Resolvers table
// (src/load/resolve.ts). Each plugin module found (see discover.ts) answers `_plugin: NAME`: the
// reference's parameters (every `_` key is a metaparameter, never a task parameter, as in Bolt) go
// to `validate_resolve_reference` first when the plugin has it, then to `resolve_reference`, whose
// `value` is the reference's value (hooks.ts merges the plugin's configuration in). A secret
// plugin's value is sensitive. `_cache: {ttl: N}` keeps a value for N seconds (cache.ts), except a
// sensitive one, which is never cached, and the value of a reference whose parameters hold a
// sensitive value (an inner reference a secret plugin answered): the cache is neither read nor
// written for it, as its key would be a digest of the secret that a guess could be checked against,
// and its value is sensitive too. The key is the plugin and every key of the reference but
// `_cache` (its `_` metaparameters too), and `ttl: 0` neither reads nor writes the cache, as Bolt's
// read_and_clean_cache.
import * as E from 'fp-ts/lib/Either.js'
import * as Digest from '../../core/Digest.js'
import * as Fault from '../../core/Fault.js'
import * as Literals from '../../core/Literals.js'
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
  /**
   * Told of each value a secret plugin gives, the moment it gives it (before the resolve stage that
   * asked for it ends): the command line holds it, to redact an internal error's last words with.
   */
  readonly held?: (value: unknown) => void
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
  const secrets = sensitiveGiven(o.held)
  for (const name of host.right.names) table.set(name, resolver(host.right, cache, name, secrets))
  return E.right({ resolvers: table, host: host.right })
}

/**
 * The sensitive values the plugins of one table gave (inner references are resolved before the
 * reference that holds them, with the same table), and whether parameters hold one: a value whole,
 * or a string or number holding one of its texts (a secret plugin's result holding a reference
 * passes its strings on as they are).
 */
export const sensitiveGiven = (held?: (value: unknown) => void): { readonly add: (value: unknown) => void; readonly heldBy: (parameters: unknown) => boolean } => {
  const whole = new Set<string>()
  const texts = new Set<string>()
  // made anew after an add: a secret of many lines is thousands of texts, and a run may check
  // thousands of references' parameters (Literals.finder searches for them all at once then)
  let found: ((s: string) => boolean) | undefined
  const holds = (s: string): boolean => (found ??= Literals.finder(texts))(s)
  const heldBy = (v: unknown, depth: number): boolean => {
    if (whole.has(Digest.canonical(v ?? null))) return true
    if (typeof v === 'string' || typeof v === 'number') return holds(String(v))
    if (depth > 64 || v === null || typeof v !== 'object') return false
    return Object.entries(v).some(([k, x]) => (!Array.isArray(v) && holds(k)) || heldBy(x, depth + 1))
  }
  return {
    add: (value) => {
      held?.(value)
      whole.add(Digest.canonical(value ?? null))
      for (const t of Resolve.texts(value)) if (t !== '') texts.add(t)
      found = undefined
    },
    heldBy: (parameters) => whole.size > 0 && heldBy(parameters, 0),
  }
}

/** The resolver of one plugin module. */
const resolver = (host: Hooks.Host, cache: Cache.Cache, plugin: string, secrets: ReturnType<typeof sensitiveGiven>): Resolve.Resolver => (reference) => async () => {
  const fault = (description: string): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'bolt', 'resolve_reference', plugin, description))
  const given = Object.fromEntries(Object.entries(reference.parameters).filter(([k]) => !k.startsWith('_')))
  const ttl = Object.hasOwn(reference.parameters, cacheKey) ? Cache.ttlOf(reference.parameters[cacheKey]) : undefined
  if (ttl !== undefined && E.isLeft(ttl)) return fault(ttl.left)
  const secret = await host.isSecret(plugin)
  if (E.isLeft(secret)) return secret
  const key = Cache.key(plugin, Object.fromEntries(Object.entries(reference.parameters).filter(([k]) => k !== cacheKey)))
  const cached = ttl !== undefined && ttl.right > 0 && !secret.right && !secrets.heldBy(reference.parameters)
  if (cached) {
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
  if (secret.right) secrets.add(value)
  if (cached) {
    const put = await cache.put(key, value, ttl.right)
    if (E.isLeft(put)) return fault(put.left)
  }
  return E.right({ value, sensitive: secret.right })
}
