// library: Bolt's `puppet_library` hook, which makes sure what an apply needs is installed on the
// target, run on this machine (plait's only target) before an apply, as `bolt apply` prepares every
// target it applies to: `plait apply` runs it when the Bolt project in effect configures it
// (`--prepare` insists on it, `--no-prepare` skips it). It is configured as Bolt configures it,
// `plugin-hooks: {puppet_library: {plugin: NAME, ...}}` in bolt-project.yaml or bolt-defaults.yaml
// (references inside are resolved first): `plugin: task` runs the task `task` with `parameters`
// (Bolt's task plugin); any other plugin runs its puppet_library hook with the other keys as
// parameters. Its failure is the plugin's message. Finding out costs one walk up from the working
// directory when no project is named, and nothing more when none is found.
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Resolve from '../../load/resolve.js'
import * as Node from '../../manifest/Node.js'
import * as References from '../../manifest/References.js'
import * as Config from './config.js'
import * as Discover from './discover.js'
import * as Resolvers from './resolvers.js'

// model

/** The hook's name, and its key in `plugin-hooks`. */
export const hook = 'puppet_library'

const missing = `no ${hook} hook is configured: give plugin-hooks.${hook} ({plugin: NAME, ...}) in bolt-project.yaml or bolt-defaults.yaml`

/** Whether the hook must run (`--prepare`), may run when configured (the default), and where the project is. */
export interface Request extends Omit<Resolvers.Options, 'projectDir'> {
  /** The project given (`--project`); none: the one around `cwd`. */
  readonly project?: string
  /** True: a missing hook is an error (`--prepare`); false: it is nothing to do. */
  readonly required: boolean
  /** Where the project is looked for when none is given (default: the working directory). */
  readonly cwd?: string
}

// constructors

/** Runs the configured puppet_library hook: what ran (for a message), or why it failed or cannot run. */
export const prepare = async (plugins: Resolvers.Plugins): Promise<E.Either<string, string>> => {
  const raw = plugins.host.config.pluginHooks[hook]
  if (raw === undefined) return E.left(missing)
  const resolved = await Resolve.resolve(References.nodeOf(raw, { file: `plugin-hooks.${hook}`, line: 1, col: 1 }), plugins.resolvers)
  if (E.isLeft(resolved)) return E.left(resolved.left.map((d) => d.message).join('; '))
  const spec = Node.toJS(resolved.right.node) as Record<string, unknown>
  const plugin = spec['plugin']
  if (typeof plugin !== 'string' || plugin === '') return E.left(`plugin-hooks.${hook} must name its plugin (plugin: NAME), not ${JSON.stringify(plugin)?.slice(0, 100) ?? 'nothing'}`)
  const params = Object.fromEntries(Object.entries(spec).filter(([k]) => k !== 'plugin' && !k.startsWith('_')))
  if (plugin === 'task') {
    const { task, parameters } = params
    if (typeof task !== 'string') return E.left(`plugin-hooks.${hook}: the task plugin needs task: NAME`)
    if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) return E.left(`plugin-hooks.${hook}: parameters must be a mapping`)
    const ran = await plugins.host.runTask(task, (parameters ?? {}) as Record<string, unknown>, hook)
    return E.isLeft(ran) ? E.left(Fault.render(ran.left)) : E.right(`${hook}: ran task ${task}`)
  }
  const has = await plugins.host.has(plugin, hook)
  if (E.isLeft(has)) return E.left(Fault.render(has.left))
  if (!has.right) return E.left(`Plugin ${plugin} does not support ${hook}`)
  const ran = await plugins.host.run(plugin, hook, params, false)
  return E.isLeft(ran) ? E.left(Fault.render(ran.left)) : E.right(`${hook}: ran plugin ${plugin}`)
}

/** Runs the hook when the project in effect configures it (or `required`): what ran, undefined when nothing was to run, or why it failed. */
export const prepareFor = async (r: Request): Promise<E.Either<string, string | undefined>> => {
  const projectDir = r.project !== undefined ? nodePath.resolve(r.project) : r.required ? await Discover.projectOf(r.cwd ?? process.cwd()) : await Discover.projectAround(r.cwd ?? process.cwd())
  if (projectDir === undefined) return E.right(undefined)
  if (!r.required) {
    const config = await Config.read(projectDir, r.defaults)
    if (E.isLeft(config)) return config
    if (config.right.pluginHooks[hook] === undefined) return E.right(undefined)
  }
  const plugins = await Resolvers.pluginsFor({ ...r, projectDir })
  return E.isLeft(plugins) ? plugins : prepare(plugins.right)
}
