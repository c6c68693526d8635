// discover: finds Bolt plugin modules as Bolt finds them. The module path of a project is its
// `modules/` (or the `modulepath` its bolt-project.yaml names), then extra directories (the
// command line's), then `.modules/` (where `bolt module install` puts Forge modules), then plait's
// own lib/bolt/ (its pkcs7 and yaml, which Bolt bundles, and ruby_task_helper, which Forge tasks
// name in their `files`: the fallback for a module the project lacks). The first module of a name
// wins; a module is a plugin when it holds `bolt_plugin.json`. Bolt's built-in plugins (env_var)
// come first of all, as Bolt never lets a module replace them; then a project whose
// bolt-project.yaml has a `name`, itself a module of that name. Nothing runs here, and a plugin's
// own files are read when it is used.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import * as YamlKeys from '../../manifest/YamlKeys.js'
import * as Installation from '../installation.js'

// model

/** A module on the module path: its name and directory. */
export interface Module {
  readonly name: string
  readonly dir: string
}

/** What was found: every module by name (tasks of any may serve a hook), and the plugins among them, in module path order. */
export interface Found {
  readonly projectDir: string
  readonly modules: ReadonlyMap<string, Module>
  readonly plugins: ReadonlyArray<Module>
}

export interface Options {
  /** The Bolt project directory (`_boltdir`): its modules, its bolt-project.yaml, its own plugin. */
  readonly projectDir: string
  /** More module directories, searched after the project's `modules/` and before its `.modules/`. */
  readonly modulepath?: ReadonlyArray<string>
  /** plait's own plugin modules (default: lib/bolt/ of the installed package). */
  readonly ownDir?: string
}

/** plait's own modules (env_var, yaml, pkcs7, ruby_task_helper): lib/bolt/ of the installed package. */
export const ownDir = nodePath.join(Installation.packageDir(import.meta.url), 'lib', 'bolt')

/** Plugins built into Bolt (plait's own in lib/bolt/ stand for them): no module of the same name replaces them. */
export const builtins: ReadonlyArray<string> = ['env_var']

/** Module names Bolt accepts. */
export const moduleName = /^[a-z][a-z0-9_]*$/

/** The files Bolt reads to know a project. */
export const projectFile = 'bolt-project.yaml'

// constructors

/** The Bolt project of a directory: the nearest one at or above it with a bolt-project.yaml or a Boltdir/, else the directory itself. */
export const projectOf = async (start: string): Promise<string> => (await projectAround(start)) ?? nodePath.resolve(start)

/** The nearest Bolt project at or above a directory (its Boltdir/, or the directory holding bolt-project.yaml), or undefined when there is none. */
export const projectAround = async (start: string): Promise<string | undefined> => {
  for (let dir = nodePath.resolve(start); ; dir = nodePath.dirname(dir)) {
    if (await isDir(nodePath.join(dir, 'Boltdir'))) return nodePath.join(dir, 'Boltdir')
    if (await exists(nodePath.join(dir, projectFile))) return dir
    if (nodePath.dirname(dir) === dir) return undefined
  }
}

/** Reads the project's bolt-project.yaml (none: an empty one): its name and module path. */
export const readProject = async (projectDir: string): Promise<E.Either<string, { readonly name?: string; readonly modulepath?: ReadonlyArray<string> }>> => {
  const file = nodePath.join(projectDir, projectFile)
  let text: string
  try {
    text = HostFile.readText(file)
  } catch (e) {
    const code = (e as { code?: string }).code
    return code === 'ENOENT' ? E.right({}) : E.left(`cannot read ${file}: ${(e as Error).message}`)
  }
  let raw: unknown
  try {
    raw = YamlKeys.parse(text, 100)
  } catch (e) {
    return E.left(`${file} is not YAML: ${(e as Error).message}`)
  }
  if (raw === null || raw === undefined) return E.right({})
  if (typeof raw !== 'object' || Array.isArray(raw)) return E.left(`${file} must hold a mapping`)
  const { name, modulepath } = raw as Record<string, unknown>
  if (name !== undefined && (typeof name !== 'string' || !moduleName.test(name))) return E.left(`${file}: name must be a module name (lower case letters, digits and _, starting with a letter), not ${JSON.stringify(name)}`)
  let path: string[] | undefined
  if (typeof modulepath === 'string') path = modulepath.split(nodePath.delimiter).filter((d) => d !== '')
  else if (Array.isArray(modulepath) && modulepath.every((d) => typeof d === 'string')) path = modulepath as string[]
  else if (modulepath !== undefined) return E.left(`${file}: modulepath must be a list of directories or a ${nodePath.delimiter}-separated string`)
  return E.right({ ...(name !== undefined ? { name } : {}), ...(path !== undefined ? { modulepath: path.map((d) => nodePath.resolve(projectDir, d)) } : {}) })
}

/** The module path, in order (see the top of this file). */
export const modulePath = (o: Options, projectPath?: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: string[] = []
  const add = (d: string): void => {
    const abs = nodePath.resolve(o.projectDir, d)
    if (!out.includes(abs)) out.push(abs)
  }
  for (const d of projectPath ?? [nodePath.join(o.projectDir, 'modules')]) add(d)
  for (const d of o.modulepath ?? []) add(nodePath.resolve(d))
  add(nodePath.join(o.projectDir, '.modules'))
  add(o.ownDir ?? ownDir)
  return out
}

/** Finds every module and plugin of a project. */
export const discover = async (o: Options): Promise<E.Either<string, Found>> => {
  const projectDir = nodePath.resolve(o.projectDir)
  if (!(await isDir(projectDir))) return E.left(`the Bolt project directory ${projectDir} does not exist or is not a directory`)
  const project = await readProject(projectDir)
  if (E.isLeft(project)) return project
  const modules = new Map<string, Module>()
  const plugins: Module[] = []
  const add = async (m: Module): Promise<void> => {
    if (modules.has(m.name)) return
    modules.set(m.name, m)
    if (await exists(nodePath.join(m.dir, 'bolt_plugin.json'))) plugins.push(m)
  }
  for (const name of builtins) {
    const dir = nodePath.join(o.ownDir ?? ownDir, name)
    if (await isDir(dir)) await add({ name, dir })
  }
  if (project.right.name !== undefined) await add({ name: project.right.name, dir: projectDir })
  for (const dir of modulePath({ ...o, projectDir }, project.right.modulepath)) {
    let names: string[]
    try {
      names = (await fs.readdir(dir)).sort()
    } catch {
      continue // as Bolt: a module directory that is missing holds no modules
    }
    for (const n of names) if (moduleName.test(n) && (await isDir(nodePath.join(dir, n)))) await add({ name: n, dir: nodePath.join(dir, n) })
  }
  return E.right({ projectDir, modules, plugins })
}

const exists = async (p: string): Promise<boolean> => {
  try {
    await fs.access(p)
    return true
  } catch {
    return false
  }
}

const isDir = async (p: string): Promise<boolean> => {
  try {
    return (await fs.stat(p)).isDirectory()
  } catch {
    return false
  }
}
