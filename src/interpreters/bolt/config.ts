// config: the plugin configuration of a Bolt project, read as Bolt reads it: the `plugins` mapping
// (plugin name → parameters merged into every task of that plugin) and the `plugin-hooks` mapping
// (Bolt 3's key; the older `plugin_hooks` is read too, and a file giving both is an error) (hook →
// a reference, e.g. `puppet_library: {plugin: task, task: ...}`), from the system's and
// then the user's bolt-defaults.yaml, then the project's bolt-project.yaml; a later file's value
// of a key wins over an earlier one's, and mappings merge key by key. Values may hold `_plugin`
// references: they are resolved when the plugin is first used (see hooks.ts), never here.
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import * as YamlKeys from '../../manifest/YamlKeys.js'

// model

export interface Config {
  /** Plugin name → its configuration (task parameters). */
  readonly plugins: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** Hook name → what Bolt's `plugin-hooks` says of it (a mapping with `plugin`, as a reference). */
  readonly pluginHooks: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

/** The keys of the hooks mapping: Bolt 3's, then the older one Bolt still reads. */
export const hooksKeys = ['plugin-hooks', 'plugin_hooks'] as const

export const empty: Config = Object.freeze({ plugins: {}, pluginHooks: {} })

/** The bolt-defaults.yaml files Bolt reads, in order (the system's, then the user's). */
export const defaultsFiles = (env: Readonly<Record<string, string | undefined>> = process.env): ReadonlyArray<string> => [
  '/etc/puppetlabs/bolt/bolt-defaults.yaml',
  nodePath.join(env['HOME'] ?? os.homedir(), '.puppetlabs', 'etc', 'bolt', 'bolt-defaults.yaml'),
]

// constructors

/** The configuration of a project: the defaults files, then its bolt-project.yaml; or why one cannot be read. */
export const read = async (projectDir: string, defaults: ReadonlyArray<string> = defaultsFiles()): Promise<E.Either<string, Config>> => {
  let out: Config = empty
  for (const file of [...defaults, nodePath.join(projectDir, 'bolt-project.yaml')]) {
    const layer = await readFile(file)
    if (E.isLeft(layer)) return layer
    out = merge(out, layer.right)
  }
  return E.right(out)
}

/** Decodes the plugin keys of one configuration file's data (other keys are not plait's business). */
export const decode = (file: string, raw: unknown): E.Either<string, Config> => {
  if (raw === null || raw === undefined) return E.right(empty)
  if (typeof raw !== 'object' || Array.isArray(raw)) return E.left(`${file} must hold a mapping`)
  const data = raw as Record<string, unknown>
  const mapOfMaps = (key: string): E.Either<string, Record<string, Record<string, unknown>>> => {
    const v = data[key]
    if (v === undefined || v === null) return E.right({})
    if (!isMap(v)) return E.left(`${file}: ${key} must be a mapping of names to mappings`)
    for (const [name, x] of Object.entries(v)) if (!isMap(x)) return E.left(`${file}: ${key}.${JSON.stringify(name).slice(1, -1).slice(0, 100)} must be a mapping, not ${x === null ? 'null' : Array.isArray(x) ? 'a list' : typeof x}`)
    return E.right(v as Record<string, Record<string, unknown>>)
  }
  const plugins = mapOfMaps('plugins')
  if (E.isLeft(plugins)) return plugins
  const given = hooksKeys.filter((k) => data[k] !== undefined && data[k] !== null)
  if (given.length > 1) return E.left(`${file}: give plugin-hooks or plugin_hooks (its older, deprecated spelling), not both`)
  const hooks = mapOfMaps(given[0] ?? hooksKeys[0])
  if (E.isLeft(hooks)) return hooks
  return E.right({ plugins: plugins.right, pluginHooks: hooks.right })
}

// combinators

/** A later configuration on top of an earlier one: per plugin and per hook, key by key. */
export const merge = (a: Config, b: Config): Config => {
  const layer = <T extends Readonly<Record<string, Readonly<Record<string, unknown>>>>>(x: T, y: T): T => {
    const out: Record<string, Readonly<Record<string, unknown>>> = { ...x }
    for (const [k, v] of Object.entries(y)) out[k] = { ...(out[k] ?? {}), ...v }
    return out as T
  }
  return { plugins: layer(a.plugins, b.plugins), pluginHooks: layer(a.pluginHooks, b.pluginHooks) }
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const readFile = async (file: string): Promise<E.Either<string, Config>> => {
  let text: string
  try {
    text = HostFile.readText(file)
  } catch (e) {
    const code = (e as { code?: string }).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? E.right(empty) : E.left(`cannot read ${file}: ${(e as Error).message}`)
  }
  let raw: unknown
  try {
    raw = YamlKeys.parse(text, 100)
  } catch (e) {
    return E.left(`${file} is not YAML: ${(e as Error).message}`)
  }
  return decode(file, raw)
}
