// task: loads a Bolt task from the module path as Bolt does: `MODULE::NAME` is the file
// `tasks/NAME.*` of MODULE (`MODULE` alone is `MODULE::init`), `tasks/NAME.json` its metadata.
// With `implementations`, the first one this controller can run (it offers `shell`) is chosen;
// without, the task must have exactly one file.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import type * as Discover from './discover.js'
import * as Metadata from './protocol/Metadata.js'

// model

/** A task ready to run: its executable, its metadata, its input method and support files (of the chosen implementation). */
export interface Task {
  /** `module::name`, as Bolt names it (`_task`). */
  readonly name: string
  readonly module: Discover.Module
  /** The task's file (absolute). */
  readonly file: string
  readonly meta: Metadata.Metadata
  readonly inputMethod: Metadata.InputMethod
  readonly files: ReadonlyArray<string>
}

/** What the local transport offers a task's `requirements` on Linux. */
export const features: ReadonlyArray<string> = ['shell']

/** Task names Bolt accepts: `module` or `module::name`. */
export const taskName = /^[a-z][a-z0-9_]*(::[a-z][a-z0-9_]*)?$/

// constructors

/** Loads a task by name; undefined when there is no such task, else the task or why it cannot be used. */
export const load = async (modules: ReadonlyMap<string, Discover.Module>, name: string): Promise<E.Either<string, Task> | undefined> => {
  if (!taskName.test(name)) return E.left(`${JSON.stringify(name.slice(0, 200))} is not a task name (module or module::task)`)
  const [mod, short = 'init'] = name.split('::') as [string, string?]
  const module = modules.get(mod)
  if (module === undefined) return undefined
  const full = `${mod}::${short}`
  const dir = nodePath.join(module.dir, 'tasks')
  let entries: string[]
  try {
    entries = await fs.readdir(dir)
  } catch {
    return undefined
  }
  const mine = entries.filter((f) => f.split('.')[0] === short).sort()
  const metaFile = nodePath.join(dir, `${short}.json`)
  let meta: Metadata.Metadata = Metadata.empty
  if (mine.includes(`${short}.json`)) {
    let text: string
    try {
      text = HostFile.readText(metaFile)
    } catch (e) {
      return E.left(`task ${full}: cannot read ${metaFile}: ${(e as Error).message}`)
    }
    const parsed = Metadata.parse(metaFile, text)
    if (E.isLeft(parsed)) return parsed
    meta = parsed.right
  }
  if (meta.implementations !== undefined) {
    const impl = meta.implementations.find((i) => i.requirements.every((r) => features.includes(r)))
    if (impl === undefined) return E.left(`task ${full}: none of its implementations can run here (this controller offers ${features.join(', ')})`)
    if (nodePath.basename(impl.name) !== impl.name || !entries.includes(impl.name)) return E.left(`task ${full}: its implementation ${JSON.stringify(impl.name)} is not a file in ${dir}`)
    return E.right(Object.freeze({ name: full, module, file: nodePath.join(dir, impl.name), meta, inputMethod: impl.inputMethod ?? meta.inputMethod ?? 'both', files: [...meta.files, ...impl.files] }))
  }
  const executables = mine.filter((f) => !f.endsWith('.json') && !f.endsWith('.md'))
  if (executables.length === 0) return mine.length === 0 ? undefined : E.left(`task ${full} has metadata but no executable in ${dir}`)
  if (executables.length > 1) return E.left(`task ${full} has more than one executable (${executables.join(', ')}) and its metadata names no implementations`)
  return E.right(Object.freeze({ name: full, module, file: nodePath.join(dir, executables[0]!), meta, inputMethod: meta.inputMethod ?? 'both', files: meta.files }))
}
