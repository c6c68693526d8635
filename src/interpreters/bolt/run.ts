// run: runs one Bolt task on the controller as Bolt's local transport does. The task and its
// `files` are laid out in a fresh `_installdir` (MODULE/tasks/FILE, MODULE/files/..., ...); the
// parameters, with the metaparameters `_task`, `_boltdir` and `_installdir`, go in by the task's
// input method; the copy runs by its interpreter line (a `.rb` task by Ruby, as Bolt runs it; no shell) through process.ts, with a
// timeout that kills its process group; the install directory is removed afterwards, and the
// output is read by protocol/Output.ts.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Processes from '../process.js'
import * as Input from './protocol/Input.js'
import * as Output from './protocol/Output.js'
import type * as Params from './protocol/Params.js'
import * as Shebang from './protocol/Shebang.js'
import type * as Discover from './discover.js'
import type * as Task from './task.js'

// model

export interface Context {
  readonly processes: Processes.Processes
  /** The environment of every task (Bolt's local transport gives its own; see docs/bolt.md), to which input variables are added. */
  readonly env: Readonly<Record<string, string>>
  readonly timeoutMs: number
  /** The project directory: `_boltdir`, and the directory tasks run in. */
  readonly boltdir: string
  /** Every module, for `files` of other modules. */
  readonly modules: ReadonlyMap<string, Discover.Module>
  /** Where install directories are made (default: the system's temporary directory). */
  readonly tmpdir?: string
}

/** How a `.rb` task runs: with the `ruby` of the task's PATH (Bolt runs them with its own Ruby). */
export const rubyInterpreter: Shebang.Shebang = Object.freeze({ interpreter: '/usr/bin/env', arg: 'ruby' })

/** A task's support file entry: `MODULE/(files|lib|tasks)/PATH`, a trailing `/` for a directory. */
export const fileEntry = /^([a-z][a-z0-9_]*)\/(files|lib|tasks)\/(.*)$/

// constructors

/** Runs a task with checked parameters for a hook: the result object, or the fault (op: the hook, subject: the plugin). */
export const run = async (ctx: Context, plugin: string, hook: string, task: Task.Task, params: Params.Params, needValue: boolean, secret = false): Promise<E.Either<Fault.Fault, Readonly<Record<string, unknown>>>> => {
  const fault = (tag: Fault.Tag, description: string): E.Either<Fault.Fault, never> => E.left(Fault.make(tag, 'bolt', hook, plugin, description))
  let installdir: string
  try {
    installdir = await fs.mkdtemp(nodePath.join(ctx.tmpdir ?? os.tmpdir(), 'plait-bolt-'))
  } catch (e) {
    return fault('Failed', `cannot make an install directory for task ${task.name}: ${(e as Error).message}`)
  }
  try {
    const copy = nodePath.join(installdir, task.module.name, 'tasks', nodePath.basename(task.file))
    const laid = await layOut(ctx, task, installdir, copy)
    if (laid !== undefined) return fault('Failed', laid)
    const input = Input.make(task.name, task.inputMethod, { ...params, _task: task.name, _boltdir: ctx.boltdir, _installdir: installdir })
    if (E.isLeft(input)) return fault('Failed', input.left)
    // As Bolt's localhost target (its `interpreters` default): a Ruby task runs with Ruby, whatever its first line says.
    const shebang = task.file.endsWith('.rb') ? E.right(rubyInterpreter) : Shebang.parse(task.name, await head(copy))
    if (E.isLeft(shebang)) return fault('Failed', shebang.left)
    const ran = await ctx.processes.run({
      file: shebang.right.interpreter,
      args: [...(shebang.right.arg !== undefined ? [shebang.right.arg] : []), copy],
      env: { ...ctx.env, ...input.right.env },
      input: input.right.stdin,
      timeoutMs: ctx.timeoutMs,
      subject: plugin,
      op: hook,
      module: 'bolt',
      cwd: ctx.boltdir,
    })
    if (E.isLeft(ran)) return fault(ran.left._tag, `task ${task.name} (${task.file}): ${ran.left.description}`)
    const read = Output.read({ plugin, hook, secret }, ran.right, needValue)
    return E.isLeft(read) ? fault(read.left._tag === 'Reported' ? 'Failed' : 'ProtocolViolation', read.left.message) : read
  } finally {
    await fs.rm(installdir, { recursive: true, force: true })
  }
}

/** Copies the task and its support files into the install directory; the problem, if any. */
const layOut = async (ctx: Context, task: Task.Task, installdir: string, copy: string): Promise<string | undefined> => {
  try {
    await fs.mkdir(nodePath.dirname(copy), { recursive: true })
    await fs.copyFile(task.file, copy)
    await fs.chmod(copy, 0o700)
  } catch (e) {
    return `cannot copy task ${task.name} (${task.file}) to ${installdir}: ${(e as Error).message}`
  }
  for (const entry of task.files) {
    const m = fileEntry.exec(entry)
    if (m === null || entry.split('/').some((s) => s === '..' || s === '.')) return `task ${task.name}: its file ${JSON.stringify(entry)} is not MODULE/files/..., MODULE/lib/... or MODULE/tasks/...`
    const module = ctx.modules.get(m[1]!)
    if (module === undefined) return `task ${task.name}: its file ${JSON.stringify(entry)} names the module ${m[1]}, which is not on the module path`
    const from = nodePath.join(module.dir, m[2]!, m[3]!)
    const to = nodePath.join(installdir, m[1]!, m[2]!, m[3]!)
    try {
      await fs.mkdir(nodePath.dirname(to), { recursive: true })
      if (entry.endsWith('/')) await fs.cp(from, to, { recursive: true })
      else await fs.copyFile(from, to)
    } catch (e) {
      return `task ${task.name}: cannot lay out its file ${entry}: ${(e as Error).message}`
    }
  }
  return undefined
}

/** The first bytes of a file (its interpreter line). */
const head = async (file: string): Promise<string> => {
  const h = await fs.open(file, 'r')
  try {
    const buf = Buffer.alloc(Shebang.maxLine)
    const { bytesRead } = await h.read(buf, 0, buf.length, 0)
    return buf.subarray(0, bytesRead).toString('utf8')
  } finally {
    await h.close()
  }
}
