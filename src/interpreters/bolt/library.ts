// library: Bolt's `puppet_library` hook, which makes sure what an apply needs is installed on the
// target, run on this machine (plait's only target) before an apply that asks for it (`plait apply
// --prepare`). It is configured as Bolt configures it, `plugin_hooks: {puppet_library: {plugin:
// NAME, ...}}` in bolt-project.yaml or bolt-defaults.yaml (references inside are resolved first):
// `plugin: task` runs the task `task` with `parameters` (Bolt's task plugin); any other plugin runs
// its puppet_library hook with the other keys as parameters. Its failure is the plugin's message.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Resolve from '../../load/resolve.js'
import * as Node from '../../manifest/Node.js'
import * as References from '../../manifest/References.js'
import type * as Resolvers from './resolvers.js'

// model

/** The hook's name, and its key in `plugin_hooks`. */
export const hook = 'puppet_library'

// constructors

/** Runs the configured puppet_library hook: what ran (for a message), or why it failed or cannot run. */
export const prepare = async (plugins: Resolvers.Plugins): Promise<E.Either<string, string>> => {
  const raw = plugins.host.config.pluginHooks[hook]
  if (raw === undefined) return E.left(`no ${hook} hook is configured: give plugin_hooks.${hook} ({plugin: NAME, ...}) in bolt-project.yaml or bolt-defaults.yaml`)
  const resolved = await Resolve.resolve(References.nodeOf(raw, { file: `plugin_hooks.${hook}`, line: 1, col: 1 }), plugins.resolvers)
  if (E.isLeft(resolved)) return E.left(resolved.left.map((d) => d.message).join('; '))
  const spec = Node.toJS(resolved.right.node) as Record<string, unknown>
  const plugin = spec['plugin']
  if (typeof plugin !== 'string' || plugin === '') return E.left(`plugin_hooks.${hook} must name its plugin (plugin: NAME), not ${JSON.stringify(plugin)?.slice(0, 100) ?? 'nothing'}`)
  const params = Object.fromEntries(Object.entries(spec).filter(([k]) => k !== 'plugin' && !k.startsWith('_')))
  if (plugin === 'task') {
    const { task, parameters } = params
    if (typeof task !== 'string') return E.left(`plugin_hooks.${hook}: the task plugin needs task: NAME`)
    if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) return E.left(`plugin_hooks.${hook}: parameters must be a mapping`)
    const ran = await plugins.host.runTask(task, (parameters ?? {}) as Record<string, unknown>, hook)
    return E.isLeft(ran) ? E.left(Fault.render(ran.left)) : E.right(`${hook}: ran task ${task}`)
  }
  const has = await plugins.host.has(plugin, hook)
  if (E.isLeft(has)) return E.left(Fault.render(has.left))
  if (!has.right) return E.left(`Plugin ${plugin} does not support ${hook}`)
  const ran = await plugins.host.run(plugin, hook, params, false)
  return E.isLeft(ran) ? E.left(Fault.render(ran.left)) : E.right(`${hook}: ran plugin ${plugin}`)
}
