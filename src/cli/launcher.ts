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
// do part of a plan, and show, which prints one, start with it too.
import { readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import * as vm from 'node:vm'

const bundle = new URL('./plait.cjs', import.meta.url)
/** The commands that start with the plan's cache: the plan, and those that do part of it (validate, compile) or show one. */
const planCache: ReadonlySet<string> = new Set(['plan', 'validate', 'compile', 'show'])
const command = process.argv[2]
const cacheFile = new URL(command !== undefined && planCache.has(command) ? './plait.plan.cache' : './plait.cjs.cache', import.meta.url)
const file = fileURLToPath(bundle)

const readCache = (): Buffer | undefined => {
  try {
    return readFileSync(cacheFile)
  } catch {
    return undefined
  }
}

// The bundle is one function expression, wrapped as Node wraps a CommonJS module, and ASCII only
// (scripts/bundle.mjs makes both so): read as latin1 it is compiled as it is, with no copy made.
const source = readFileSync(bundle, 'latin1')
const cachedData = readCache()
const script = new vm.Script(source, {
  filename: file,
  ...(cachedData !== undefined ? { cachedData } : {}),
})
// written straight to the descriptor, as all of plait's output is (src/cli/streams.ts)
if (process.env['PLAIT_DEBUG'] !== undefined) writeSync(2, `code cache: ${cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used'} (${nodePath.basename(fileURLToPath(cacheFile))})\n`)
// `npm run build` sets this for one representative run of each cache: what V8 compiled by the end
// of it is saved, as the cache of the command it ran.
// It is written beside and renamed into place, so that a plait starting meanwhile reads a whole one.
if (process.env['PLAIT_WRITE_CODE_CACHE'] === '1') {
  process.once('exit', () => {
    const temp = `${fileURLToPath(cacheFile)}.${process.pid}.tmp`
    writeFileSync(temp, script.createCachedData())
    renameSync(temp, cacheFile)
  })
}
const module = { exports: {} }
;(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, file, nodePath.dirname(file), bundle.href)
