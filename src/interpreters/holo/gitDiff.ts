// gitDiff: the difference of two files as Holo shows it. Each path is checked first: a file that
// does not exist is diffed as /dev/null, a regular file or a symlink as it is, anything else is an
// error ("file PATH has wrong file type"). Then `git diff --no-index -- FROM TO` runs (exit 1 means
// "they differ"; git's own configuration is not read, so that no setting changes the text), and
// its output is rewritten into Holo's form (protocol/GitDiff.ts).
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as GoErrors from './goErrors.js'
import * as Git from './protocol/GitDiff.js'
import * as Output from './protocol/Output.js'
import * as Spawn from './spawn.js'

export interface Context {
  readonly cwd: string
  readonly path: string
  readonly timeoutMs: number
}

/** The files compared and Holo's diff text; or the fault (its description in Holo's words). */
export const render = async (
  ctx: Context,
  d: { readonly from: string; readonly to: string; readonly fromShown: string; readonly toShown: string },
): Promise<E.Either<Fault.Fault, { readonly fromFile: string; readonly toFile: string; readonly text: string }>> => {
  const fromFile = await check(ctx.cwd, d.from)
  if (E.isLeft(fromFile)) return fromFile
  const toFile = await check(ctx.cwd, d.to)
  if (E.isLeft(toFile)) return toFile
  const env = { PATH: ctx.path, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: '/nonexistent', LC_ALL: 'C' }
  const ran = await Spawn.run({ file: 'git', args: ['diff', '--no-index', '--no-color', '--', fromFile.right, toFile.right], env, cwd: ctx.cwd, timeoutMs: ctx.timeoutMs, op: 'diff', subject: `${d.from} ${d.to}`, maxOutput: 64 * 1024 * 1024, maxFd3: 0 })
  if (E.isLeft(ran)) return E.left(Fault.make(ran.left._tag, 'holo', 'diff', `${d.from} ${d.to}`, `git diff: ${ran.left.description}`))
  if (ran.right.code !== 0 && ran.right.code !== 1) {
    const stderr = Output.of(ran.right.output, 2).trim()
    return E.left(Fault.make('Failed', 'holo', 'diff', `${d.from} ${d.to}`, `git diff ${ran.right.signal !== undefined ? `was killed by ${ran.right.signal}` : `exited with status ${ran.right.code}`}${stderr !== '' ? `: ${stderr}` : ''}`))
  }
  return E.right({ fromFile: fromFile.right, toFile: toFile.right, text: Git.rewrite(Output.of(ran.right.output, 1), d.fromShown, d.toShown) })
}

/** The file to diff for a path a plugin named. */
const check = async (cwd: string, path: string): Promise<E.Either<Fault.Fault, string>> => {
  if (path === '/dev/null') return E.right(path)
  try {
    const st = await fs.lstat(nodePath.resolve(cwd, path))
    return st.isFile() || st.isSymbolicLink() ? E.right(path) : E.left(Fault.make('Failed', 'holo', 'diff', path, `file ${path} has wrong file type`))
  } catch (e) {
    if (Errno.codeOf(e) === 'ENOENT' || Errno.codeOf(e) === 'ENOTDIR') return E.right('/dev/null')
    return E.left(Fault.make(Errno.tag(Errno.codeOf(e)), 'holo', 'diff', path, GoErrors.describe('lstat', path, e), e))
  }
}
