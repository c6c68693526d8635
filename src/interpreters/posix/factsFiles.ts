// factsFiles: reads the facts files of plait's configuration directories (facts.json,
// facts.yaml, facts.d/*) and `--facts FILE`. A symlink or a non-file in a configuration directory
// is refused; every problem is reported, with the file's path.
import * as fs from 'node:fs'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type * as Facts from '../../facts/Facts.js'
import * as FactsFile from '../../facts/FactsFile.js'
import * as Errno from '../Errno.js'
import * as HostFile from './hostFile.js'
import * as Append from '../../core/Append.js'

// node:fs's callbacks, not node:fs/promises: that module (and the readline and stream modules it
// loads) would cost some 3 ms of the start of every plan that reads facts.
const lstat = (path: string): Promise<fs.Stats> => new Promise((resolve, reject) => fs.lstat(path, (e, st) => (e === null ? resolve(st) : reject(e))))
const readdir = (path: string): Promise<string[]> => new Promise((resolve, reject) => fs.readdir(path, (e, names) => (e === null ? resolve(names) : reject(e))))

/** The configuration directories facts files are read from, lowest precedence first: /etc/plait, then the user's. */
export const defaultDirs = (env: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> => {
  const xdg = env['XDG_CONFIG_HOME']
  const home = env['HOME']
  const user = xdg !== undefined && nodePath.isAbsolute(xdg) ? xdg : home !== undefined && nodePath.isAbsolute(home) ? nodePath.join(home, '.config') : undefined
  return user === undefined ? ['/etc/plait'] : ['/etc/plait', nodePath.join(user, 'plait')]
}

export type Read = E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Facts.Facts>

const io = (message: string, hint?: string): ReadonlyArray<Diagnostic.Diagnostic> => [Diagnostic.make('Io', message, { hint })]

const readText = async (path: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, string>> => {
  let bytes: Uint8Array
  try {
    bytes = HostFile.read(path) // a regular file of bounded size: a FIFO is refused, not waited on
  } catch (e) {
    return E.left(io(`cannot read facts file ${path}: ${e instanceof HostFile.InputError ? e.message : Errno.describe(HostFile.codeOf(e))}`))
  }
  try {
    return E.right(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return E.left(io(`cannot read facts file ${path}: not UTF-8 text`))
  }
}

const refuseSymlink = (path: string): ReadonlyArray<Diagnostic.Diagnostic> =>
  io(`facts file ${path} is a symbolic link; plait reads facts only from regular files`, 'copy the file in place of the link')

// One facts file of a configuration directory: absent is no facts; a symlink or a non-file is refused.
const configFile = async (path: string, format: FactsFile.Format): Promise<Read | undefined> => {
  let st: fs.Stats
  try {
    st = await lstat(path)
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    return E.left(io(`cannot read facts file ${path}: ${Errno.describe(code)}`))
  }
  if (st.isSymbolicLink()) return E.left(refuseSymlink(path))
  if (!st.isFile()) return E.left(io(`facts file ${path} is not a regular file`))
  const text = await readText(path)
  return E.isLeft(text) ? text : FactsFile.parse(path, text.right, format)
}

// Go sorts names by their UTF-8 bytes.
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))

const factsDir = async (dir: string): Promise<ReadonlyArray<Read>> => {
  let st: fs.Stats
  try {
    st = await lstat(dir)
  } catch (e) {
    const code = Errno.codeOf(e)
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : [E.left(io(`cannot read facts directory ${dir}: ${Errno.describe(code)}`))]
  }
  if (st.isSymbolicLink()) return [E.left(io(`facts directory ${dir} is a symbolic link; plait reads facts only from a real directory`))]
  if (!st.isDirectory()) return [E.left(io(`${dir} is not a directory`))]
  let names: string[]
  try {
    names = (await readdir(dir)).sort(byteOrder)
  } catch (e) {
    return [E.left(io(`cannot read facts directory ${dir}: ${Errno.describe(Errno.codeOf(e))}`))]
  }
  const out: Read[] = []
  for (const name of names) {
    const format = FactsFile.formatOf(name)
    const path = nodePath.join(dir, name)
    let entry: fs.Stats
    try {
      entry = await lstat(path)
    } catch (e) {
      out.push(E.left(io(`cannot read facts file ${path}: ${Errno.describe(Errno.codeOf(e))}`)))
      continue
    }
    if (entry.isDirectory()) continue
    if (entry.isSymbolicLink()) {
      out.push(E.left(refuseSymlink(path)))
      continue
    }
    if (format === undefined) continue
    const r = await configFile(path, format)
    if (r !== undefined) out.push(r)
  }
  return out
}

/**
 * Reads the facts files of configuration directories, lowest precedence first: in each,
 * facts.json, facts.yaml, then facts.d/*.json|yaml|yml in name order. Every problem is reported.
 */
export const factsFiles = async (dirs: ReadonlyArray<string>): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ReadonlyArray<Facts.Facts>>> => {
  const results: Read[] = []
  for (const dir of dirs) {
    if (!nodePath.isAbsolute(dir)) {
      results.push(E.left(io(`facts directory ${dir} is not an absolute path`)))
      continue
    }
    for (const [name, format] of [['facts.json', 'json'], ['facts.yaml', 'yaml']] as const) {
      const r = await configFile(nodePath.join(dir, name), format)
      if (r !== undefined) results.push(r)
    }
    Append.append(results, await factsDir(nodePath.join(dir, 'facts.d')))
  }
  const problems = results.flatMap((r) => (E.isLeft(r) ? r.left : []))
  return problems.length > 0 ? E.left(problems) : E.right(results.flatMap((r) => (E.isRight(r) ? [r.right] : [])))
}

/** Reads `--facts FILE` (named explicitly, so a symlink is followed): JSON by a .json name, YAML otherwise. */
export const factsFile = async (path: string): Promise<Read> => {
  const text = await readText(path)
  if (E.isLeft(text)) return text
  return FactsFile.parse(path, text.right, FactsFile.formatOf(path) === 'json' ? 'json' : 'yaml')
}
