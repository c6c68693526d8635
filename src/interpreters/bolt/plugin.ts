// plugin: a plugin module loaded as Bolt loads it: its bolt_plugin.json read, then its hooks
// found, the `hooks` mapping first (a task it names must exist), then for every other hook a task
// of the module named after it (`MODULE::resolve_reference`).
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import type * as Discover from './discover.js'
import * as PluginData from './protocol/PluginData.js'
import * as Task from './task.js'

// model

export interface Plugin {
  readonly name: string
  readonly dir: string
  /** Hook → the task that serves it. */
  readonly hooks: ReadonlyMap<string, Task.Task>
}

// constructors

/** Loads a plugin module, or the error in Bolt's words ("Invalid Plugin Data for NAME: ..."). */
export const load = async (modules: ReadonlyMap<string, Discover.Module>, module: Discover.Module): Promise<E.Either<string, Plugin>> => {
  const file = nodePath.join(module.dir, 'bolt_plugin.json')
  let text: string
  try {
    text = HostFile.readText(file)
  } catch (e) {
    return E.left(`Invalid Plugin Data for ${module.name}: cannot read ${file}: ${(e as Error).message}`)
  }
  const data = PluginData.parse(module.name, text)
  if (E.isLeft(data)) return data
  const hooks = new Map<string, Task.Task>()
  for (const [hook, name] of data.right.hooks) {
    const task = await Task.load(modules, name)
    if (task === undefined) return E.left(`Invalid Plugin Data for ${module.name}: Plugin ${module.name} specified an unknown task '${name}' for a hook`)
    if (E.isLeft(task)) return E.left(`Invalid Plugin Data for ${module.name}: Plugin ${module.name} could not load task '${name}': ${task.left}`)
    hooks.set(hook, task.right)
  }
  for (const hook of PluginData.knownHooks) {
    if (hooks.has(hook)) continue
    const task = await Task.load(modules, `${module.name}::${hook}`)
    if (task === undefined) continue
    if (E.isLeft(task)) return task
    hooks.set(hook, task.right)
  }
  return E.right(Object.freeze({ name: module.name, dir: module.dir, hooks }))
}
