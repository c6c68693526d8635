#!/usr/bin/env node
// launcher: the `plait` command as it ships (dist/bin/plait.js, made by scripts/bundle.mjs). It
// runs the bundled command (plait.cjs beside it) with V8's code cache (made by `npm run build`),
// so that a start does not parse and compile plait's code again: Node 20 has no compile cache for
// ES modules, and compiling them was most of a small plan's time. A cache V8 does not accept
// (another Node, other flags) is ignored, and the code is compiled as usual.
//
// V8 deserializes all of a cache at the start, so a cache costs time for what it holds that the
// run does not use. `plait plan`, the command run most, has a cache of its own (plait.plan.cache,
// made by a plan), without the executor's code that every other command's (plait.cjs.cache, made
// by an apply, which plans first) holds: some 2 ms of a plan's start. validate and compile, which
// do part of a plan, and show, which prints one, start with it too, and so does `--version`, which
// runs no more than the start every plan runs (about 0.9 ms less than with the apply's cache).
//
// V8 accepts a cache made for any source of the same length (it checks no more than that, the
// Node and the flags), and then runs the code the cache holds: a bundle edited to the same length
// would run as it was before. So the build writes the bundle's id (its sha256's first digits) into
// its first line and at the head of every cache, and a cache is used only with its bundle's id.
//
// It runs only as the CommonJS script the build makes of it (its `require` is CommonJS's). Its
// files are named by plain paths from its directory (`import.meta.dirname`, which the build makes
// `__dirname`), and Node's modules imported by name: URLs for them, and esbuild's copy of every
// property of a module imported whole, took some 1 ms of `--version`'s 16.
import { closeSync, fstatSync, openSync, readSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Script } from 'node:vm'

const dir = import.meta.dirname
/** The bundled command. */
const file = join(dir, 'plait.cjs')
/** The commands that start with the plan's cache: the plan, those that do part of it (validate, compile) or show one, and the version. */
const planCache: ReadonlySet<string> = new Set(['plan', 'validate', 'compile', 'show', '--version', '-V'])
const command = process.argv[2]
const general = join(dir, 'plait.cjs.cache')
const cacheFile = command !== undefined && planCache.has(command) ? join(dir, 'plait.plan.cache') : general
/** The build's run that makes a cache (below): it starts from no cache, so that its cache holds only what it compiled. */
const training = process.env['PLAIT_WRITE_CODE_CACHE'] === '1'

/** The size of a file, or 0 when it cannot be read. */
const sizeOf = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

// Both files are read into one buffer: the bundle first, copied out as a string, then the cache
// over it. Memory a process touches for the first time costs a fault a page (some 4 ms a MiB on
// the virtual machines plait is measured on), and a buffer of each touched 1.5 MiB where one
// touches the larger file's size: 180 faults fewer, and 5 to 7 ms of every start (docs/performance.md).
let buffer = Buffer.allocUnsafeSlow(Math.max(sizeOf(file), sizeOf(cacheFile), 1))

/** Reads the whole file at `path` into `buffer` (grown if the file has grown), giving how many bytes it read; throws what open throws. */
const readWhole = (path: string): number => {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size > buffer.length) buffer = Buffer.allocUnsafeSlow(size)
    let n = 0
    for (let r; n < size && (r = readSync(fd, buffer, n, size - n, n)) > 0; ) n += r
    return n
  } finally {
    closeSync(fd)
  }
}

// The bundle is one function expression, wrapped as Node wraps a CommonJS module, and ASCII only
// (scripts/bundle.mjs makes both so): read as latin1 it is compiled as it is, with no copy made.
const source = buffer.toString('latin1', 0, readWhole(file))

/** The bundle's id (scripts/bundle.mjs defines where it stands): undefined for a bundle without one, which gets no cache. */
declare const __PLAIT_ID_MARK__: string
declare const __PLAIT_ID_LENGTH__: number
const idAt = source.indexOf(__PLAIT_ID_MARK__)
const id = idAt >= 0 && idAt < 200 ? source.slice(idAt + __PLAIT_ID_MARK__.length, idAt + __PLAIT_ID_MARK__.length + __PLAIT_ID_LENGTH__) : undefined

/** A cache file's code, when it starts with this bundle's id ('stale': made for another bundle; undefined: none). */
const readCache = (path: string): Buffer | 'stale' | undefined => {
  let length: number
  try {
    length = readWhole(path)
  } catch {
    return undefined
  }
  return id !== undefined && length > id.length && buffer.toString('latin1', 0, id.length) === id ? buffer.subarray(id.length, length) : 'stale'
}

/**
 * The cache this start uses and the file it came from: the command's own; without a plan's cache
 * for this bundle (an install that lost the file, a build under way), the general one, which holds
 * all the plan's code too. The build's runs start from none.
 */
const chosen = ((): { readonly file: string; readonly read: Buffer | 'stale' | undefined } => {
  if (training) return { file: cacheFile, read: undefined }
  const own = readCache(cacheFile)
  return own instanceof Buffer || cacheFile === general ? { file: cacheFile, read: own } : { file: general, read: readCache(general) }
})()
const read = chosen.read
const cachedData = read instanceof Buffer ? read : undefined
const script = new Script(source, {
  filename: file,
  ...(cachedData !== undefined ? { cachedData } : {}),
})
// written straight to the descriptor, as all of plait's output is (src/cli/streams.ts)
if (process.env['PLAIT_DEBUG'] !== undefined) writeSync(2, `code cache: ${read === undefined ? 'none' : read === 'stale' ? 'stale' : script.cachedDataRejected === true ? 'rejected' : 'used'} (${basename(chosen.file)})\n`)
// `npm run build` sets this for one representative run of each cache: what V8 compiled by the end
// of it is saved, after the bundle's id, as the cache of the command it ran. It is written beside
// and renamed into place, so that a plait starting meanwhile reads a whole one.
if (training && id !== undefined) {
  process.once('exit', () => {
    const temp = `${cacheFile}.${process.pid}.tmp`
    writeFileSync(temp, Buffer.concat([Buffer.from(id, 'latin1'), script.createCachedData()]))
    renameSync(temp, cacheFile)
  })
}
const module = { exports: {} }
// The bundle requires Node's modules and fast-check, which resolve from its directory: the
// launcher's own `require` (it is a CommonJS script beside the bundle) resolves them the same way,
// where one made for the bundle's path (`createRequire`) cost 0.3 to 0.8 ms of every start.
;(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, file, dir, pathToFileURL(file).href)
