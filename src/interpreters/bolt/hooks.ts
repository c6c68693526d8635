// hooks: the plugins of a Bolt project, ready to run any hook as Bolt runs it. Each plugin module
// is loaded on first use; a hook's task gets the plugin's configuration (`plugins.NAME` of
// bolt-project.yaml and bolt-defaults.yaml, its `_plugin` references resolved once) for the
// parameters it declares, the caller's parameters on top, then its defaults; everything is
// checked against its metadata before it runs. As Bolt's validate_config does, each configuration
// key must be a parameter of some hook task, and its value must fit the type of every hook task
// that declares it. The pkcs7 plugin's deprecated keys `private-key` and `public-key` (in its
// configuration and in a reference) are read as `private_key` and `public_key`, with a warning on
// stderr, as Bolt does. A plugin with any `secret_*` hook is a secret plugin: every value it gives
// is sensitive.
import { writeSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Terminal from '../../core/Terminal.js'
import * as Processes from '../process.js'
import * as Config from './config.js'
import * as Discover from './discover.js'
import * as Params from './protocol/Params.js'
import * as PluginConfig from './protocol/PluginConfig.js'
import * as PluginModule from './plugin.js'
import * as Run from './run.js'
import * as Task from './task.js'

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
  /** The bolt-defaults.yaml files read before the project's bolt-project.yaml (default: Bolt's, see config.ts). */
  readonly defaults?: ReadonlyArray<string>
  /** Where a warning goes (default: stderr, each text once per process). */
  readonly warn?: (message: string) => void
}

/** Resolves the `_plugin` references of a plugin's configuration (given by the resolve stage's owner). */
export type ConfigResolver = (plugin: string, raw: Readonly<Record<string, unknown>>) => Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>>

export interface Host {
  readonly projectDir: string
  /** The plugin modules, by name, in module path order. */
  readonly names: ReadonlyArray<string>
  readonly config: Config.Config
  /** True when the plugin has the hook (false for a plugin that does not exist). */
  readonly has: (plugin: string, hook: string) => Promise<E.Either<Fault.Fault, boolean>>
  /** True when the plugin has a secret_* hook: what it gives is sensitive. */
  readonly isSecret: (plugin: string) => Promise<E.Either<Fault.Fault, boolean>>
  /** Checks the caller's parameters of a hook (configuration merged in) without running it. */
  readonly check: (plugin: string, hook: string, given: Params.Params) => Promise<E.Either<Fault.Fault, void>>
  /** Runs a task by name (Bolt's `task` plugin, e.g. for puppet_library): the result object. */
  readonly runTask: (name: string, given: Params.Params, hook: string) => Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>>
  /** Runs one hook with the caller's parameters (configuration merged in): the result object (with `value` when `needValue`). */
  readonly run: (plugin: string, hook: string, given: Params.Params, needValue: boolean) => Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>>
}

/** The timeout of a plugin task when none is given (Bolt has none). */
export const defaultTimeoutSeconds = 300

/** The hooks that make a plugin a secret plugin. */
export const secretHooks: ReadonlyArray<string> = ['secret_encrypt', 'secret_decrypt', 'secret_createkeys']

// constructors

/** Opens the plugins of a project (nothing runs yet), or why the project cannot be read. */
export const open = async (o: Options, resolveConfig?: ConfigResolver): Promise<E.Either<string, Host>> => {
  const timeoutSeconds = o.timeoutSeconds ?? defaultTimeoutSeconds
  if (!(timeoutSeconds > 0) || !Number.isFinite(timeoutSeconds)) return E.left(`the plugin timeout must be a positive number of seconds, not ${timeoutSeconds}`)
  const found = await Discover.discover(o)
  if (E.isLeft(found)) return found
  const config = await Config.read(found.right.projectDir, o.defaults)
  if (E.isLeft(config)) return config
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
  const modules = new Map(found.right.plugins.map((m) => [m.name, m]))
  const loaded = new Map<string, Promise<E.Either<string, PluginModule.Plugin>>>()
  const configs = new Map<string, Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>>>()
  const pending = new Set<string>()
  const fault = (plugin: string, op: string, description: string): Fault.Fault => Fault.make('Failed', 'bolt', op, plugin, description)
  let deprecationShown = false
  /** Renames the pkcs7 plugin's deprecated keys, warning the first time. */
  const pkcs7Keys = (params: Params.Params): Params.Params => {
    const [renamed, had] = PluginConfig.renamePkcs7(params)
    if (had && !deprecationShown) {
      deprecationShown = true
      ;(o.warn ?? warnOnce)(PluginConfig.pkcs7Deprecation)
    }
    return renamed
  }

  const load = async (plugin: string, op: string): Promise<E.Either<Fault.Fault, PluginModule.Plugin>> => {
    const m = modules.get(plugin)
    if (m === undefined) return E.left(Fault.make('NotFound', 'bolt', op, plugin, `Unknown plugin: '${plugin.slice(0, 100)}'${modules.size === 0 ? '' : ` (plugins: ${[...modules.keys()].join(', ')})`}`))
    let p = loaded.get(plugin)
    if (p === undefined) loaded.set(plugin, (p = PluginModule.load(found.right.modules, m)))
    return E.mapLeft((why: string) => fault(plugin, op, why))(await p)
  }

  /** The plugin's configuration with its references resolved (once), checked against the parameters its tasks declare. */
  const configOf = async (plugin: PluginModule.Plugin, op: string): Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>> => {
    const given = config.right.plugins[plugin.name] ?? {}
    const raw = plugin.name === 'pkcs7' ? pkcs7Keys(given) : given
    const unknown = PluginConfig.problem(plugin.name, plugin.hooks, Object.fromEntries(Object.keys(raw).map((k) => [k, null])))
    if (unknown !== undefined) return E.left(fault(plugin.name, op, unknown))
    if (resolveConfig === undefined || Object.keys(raw).length === 0) return checked(plugin, op, E.right(raw))
    // A reference in the configuration to the plugin itself (or round through others) would wait for itself.
    if (pending.has(plugin.name)) return E.left(fault(plugin.name, op, `the configuration of plugin ${plugin.name} refers to the plugin itself`))
    let c = configs.get(plugin.name)
    if (c === undefined) {
      pending.add(plugin.name)
      configs.set(plugin.name, (c = resolveConfig(plugin.name, raw).finally(() => pending.delete(plugin.name))))
    }
    return checked(plugin, op, await c)
  }

  /** A resolved configuration, or the problem with its values' types. */
  const checked = (plugin: PluginModule.Plugin, op: string, c: E.Either<Fault.Fault, Readonly<Record<string, unknown>>>): E.Either<Fault.Fault, Readonly<Record<string, unknown>>> => {
    if (E.isLeft(c)) return c
    const problem = PluginConfig.problem(plugin.name, plugin.hooks, c.right)
    return problem === undefined ? c : E.left(fault(plugin.name, op, problem))
  }

  /** The task of a hook with its parameters checked (configuration, then the caller's, then defaults). */
  const prepare = async (plugin: string, hook: string, given: Params.Params): Promise<E.Either<Fault.Fault, readonly [Task.Task, Params.Params, boolean]>> => {
    const p = await load(plugin, hook)
    if (E.isLeft(p)) return p
    const task = p.right.hooks.get(hook)
    if (task === undefined) return E.left(fault(plugin, hook, `Plugin ${plugin} does not support ${hook}`))
    const cfg = await configOf(p.right, hook)
    if (E.isLeft(cfg)) return cfg
    const declared = task.meta.parameters
    const fromConfig = declared === undefined ? cfg.right : Object.fromEntries(Object.entries(cfg.right).filter(([k]) => declared.has(k)))
    const own = task.module.name === 'pkcs7' ? pkcs7Keys(given) : given
    const params = Params.validate(task.name, task.meta, { ...fromConfig, ...own })
    return E.isLeft(params) ? E.left(fault(plugin, hook, params.left)) : E.right([task, params.right, secretHooks.some((h) => p.right.hooks.has(h))] as const)
  }

  const run: Host['run'] = async (plugin, hook, given, needValue) => {
    const ready = await prepare(plugin, hook, given)
    return E.isLeft(ready) ? ready : Run.run(ctx, plugin, hook, ready.right[0], ready.right[1], needValue, ready.right[2])
  }

  return E.right({
    projectDir: found.right.projectDir,
    names: found.right.plugins.map((m) => m.name),
    config: config.right,
    has: async (plugin, hook) => {
      if (!modules.has(plugin)) return E.right(false)
      return E.map((p: PluginModule.Plugin) => p.hooks.has(hook))(await load(plugin, hook))
    },
    isSecret: async (plugin) => E.map((p: PluginModule.Plugin) => secretHooks.some((h) => p.hooks.has(h)))(await load(plugin, 'resolve_reference')),
    runTask: async (name, given, hook) => {
      const task = await Task.load(found.right.modules, name)
      if (task === undefined) return E.left(Fault.make('NotFound', 'bolt', hook, 'task', `Could not find a task named '${name.slice(0, 100)}' on the module path`))
      if (E.isLeft(task)) return E.left(fault('task', hook, task.left))
      const params = Params.validate(task.right.name, task.right.meta, given)
      return E.isLeft(params) ? E.left(fault('task', hook, params.left)) : Run.run(ctx, 'task', hook, task.right, params.right, false)
    },
    check: async (plugin, hook, given) => E.map(() => undefined)(await prepare(plugin, hook, given)),
    run,
  })
}

const shown = new Set<string>()

/**
 * Writes a warning to stderr, each text once per process: escaped for the terminal, and straight to
 * the descriptor as the command line writes (src/cli/streams.ts), so that it keeps its place among
 * plait's other output and a reader gone away costs only the warning.
 */
const warnOnce = (message: string): void => {
  if (shown.has(message)) return
  shown.add(message)
  try {
    writeSync(2, Terminal.text(`warning: ${message}\n`))
  } catch {
    // stderr is closed or its reader gone: the warning goes with it, the run does not
  }
}
