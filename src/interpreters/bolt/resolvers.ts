// resolvers: the reference plugins of a Bolt project as the resolve stage's Resolvers table
// (src/load/resolve.ts). Each plugin module found (see discover.ts) answers `_plugin: NAME`: its
// module is loaded on first use, the reference's parameters are checked against the
// resolve_reference task's metadata, `validate_resolve_reference` runs first when the plugin has
// it, then `resolve_reference` runs and its `value` is the reference's value.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Resolve from '../../load/resolve.js'
import * as Processes from '../process.js'
import * as Discover from './discover.js'
import * as Params from './protocol/Params.js'
import * as PluginModule from './plugin.js'
import * as Run from './run.js'

// model

export interface Options extends Discover.Options {
  /** The environment plugins run with (default: plait's own, as Bolt's local transport gives its own). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** How long one plugin task may run (default 5 minutes); it is killed with its process group after. */
  readonly timeoutSeconds?: number
  /** What runs the tasks (default: real processes). */
  readonly processes?: Processes.Processes
  /** Where install directories are made (default: the system's temporary directory). */
  readonly tmpdir?: string
}

/** The timeout of a plugin task when none is given (Bolt has none). */
export const defaultTimeoutSeconds = 300

/** The metaparameter a reference may give to cache a plugin's value (Bolt's `_cache`); not supported yet. */
export const cacheKey = '_cache'

// constructors

/** Every reference plugin of the project, by name, for the resolve stage; or why the project cannot be read. */
export const resolversFor = async (o: Options): Promise<E.Either<string, Resolve.Resolvers>> => {
  const timeoutSeconds = o.timeoutSeconds ?? defaultTimeoutSeconds
  if (!(timeoutSeconds > 0) || !Number.isFinite(timeoutSeconds)) return E.left(`the plugin timeout must be a positive number of seconds, not ${timeoutSeconds}`)
  const found = await Discover.discover(o)
  if (E.isLeft(found)) return found
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(o.env ?? process.env)) if (v !== undefined) env[k] = v
  const ctx: Run.Context = {
    processes: o.processes ?? Processes.real,
    env,
    timeoutMs: timeoutSeconds * 1000,
    boltdir: found.right.projectDir,
    modules: found.right.modules,
    ...(o.tmpdir !== undefined ? { tmpdir: o.tmpdir } : {}),
  }
  const table = new Map<string, Resolve.Resolver>()
  for (const m of found.right.plugins) table.set(m.name, resolver(ctx, m))
  return E.right(table)
}

/** The resolver of one plugin module (loaded once, on first use). */
const resolver = (ctx: Run.Context, module: Discover.Module): Resolve.Resolver => {
  let loaded: Promise<E.Either<string, PluginModule.Plugin>> | undefined
  return (reference) => async () => {
    const fault = (tag: Fault.Tag, description: string): E.Either<Fault.Fault, never> => E.left(Fault.make(tag, 'bolt', 'resolve_reference', module.name, description))
    if (Object.hasOwn(reference.parameters, cacheKey)) return fault('Failed', `${cacheKey} is not supported yet: plait runs the plugin on every reference (remove ${cacheKey})`)
    // As Bolt: every `_` key is a metaparameter of the reference, never a parameter of the task.
    const given = Object.fromEntries(Object.entries(reference.parameters).filter(([k]) => !k.startsWith('_')))
    const plugin = await (loaded ??= PluginModule.load(ctx.modules, module))
    if (E.isLeft(plugin)) return fault('Failed', plugin.left)
    const task = plugin.right.hooks.get('resolve_reference')
    if (task === undefined) return fault('Failed', `Plugin ${module.name} does not support resolve_reference`)
    const params = Params.validate(task.name, task.meta, given)
    if (E.isLeft(params)) return fault('Failed', params.left)
    const check = plugin.right.hooks.get('validate_resolve_reference')
    if (check !== undefined) {
      const checkParams = Params.validate(check.name, check.meta, given)
      if (E.isLeft(checkParams)) return fault('Failed', checkParams.left)
      const checked = await Run.run(ctx, module.name, 'validate_resolve_reference', check, checkParams.right, false)
      if (E.isLeft(checked)) return checked
    }
    const result = await Run.run(ctx, module.name, 'resolve_reference', task, params.right, true)
    return E.map((r: Readonly<Record<string, unknown>>) => r['value'])(result)
  }
}
