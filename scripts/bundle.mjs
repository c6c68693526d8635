#!/usr/bin/env node
// bundle: the plait command as it ships, in dist/bin/ (package.json's `bin`):
//   plait.cjs        every module of the command and its dependencies, one script
//   plait.js         the launcher (src/cli/launcher.ts): runs plait.cjs with V8's code cache
//   package.json     says that plait.js is CommonJS (the package is ES modules)
//   plait.cjs.cache  that cache, made here by one representative run (an apply: cacheTraining.mjs)
//   plait.plan.cache the cache of plan, validate, compile, show and --version, made by a plan of the same manifest (launcher.ts)
// so that starting plait reads three files and compiles almost nothing, instead of loading some
// 230 modules of tsc's output and 137 files of dependencies and compiling them every time.
// `npm run build` runs it after tsc, which type-checks and still emits dist/ module by module
// (bench/profile.mjs profiles that, phase by module; a test imports one module of it).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { prepare } from './cacheTraining.mjs'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Where the bundle's id stands in its first lines, and how many hex digits it has (below; the launcher is given both). */
const idMark = '/*plait-bundle '
const idLength = 16
const out = join(repo, 'dist', 'bin')

/**
 * fp-ts and io-ts as ES modules: the source imports their CommonJS `lib/` (plain Node needs it),
 * whose interop wrappers cost start-up time and keep the bundle from dropping what is unused;
 * their `es6/` builds are the same code as ES modules.
 */
const esModules = {
  name: 'fp-ts-es6',
  setup(b) {
    b.onResolve({ filter: /^(fp-ts|io-ts)\/lib\// }, (args) => b.resolve(args.path.replace('/lib/', '/es6/'), { kind: args.kind, resolveDir: args.resolveDir }))
  },
}

/**
 * Modules that most runs never use, loaded on first use. Node's own: every command registers at
 * start, so a bundle that required them at its top would load child_process (and net, dgram and
 * streams with it), crypto, worker_threads, readline and the like before `plait --version` prints
 * a line, some 5 ms of a 30 ms Node start. And the yaml library, which reads a manifest only where
 * plait's own reader of the block subset gives up (src/manifest/Yaml.ts), and a few files of other
 * commands: it is some 50 CommonJS modules, set up at every start before.
 *
 * Each import of one is served by a shim whose prototype has a getter per property of the real
 * module, which requires it when first read (a bundled dependency is then set up, a built-in
 * loaded), so code written against the real module runs unchanged. The shim itself has no
 * properties of its own: esbuild's __toESM makes an import's namespace object with the imported
 * module's prototype and copies its own properties, so a namespace import (`import * as os`) of a
 * shim costs one object, where copying the properties as getters, two dozen imports at every
 * start, took some 3 ms (test/e2e/bin.test.ts checks what each command loads). The names are
 * those of the module as installed here, read at build time: a name another Node lacks reads
 * undefined, as it would from the module itself.
 */
const lazyBuiltins = ['child_process', 'crypto', 'dgram', 'http', 'https', 'net', 'os', 'fs/promises', 'readline', 'v8', 'worker_threads', 'zlib']
const lazyDependencies = ['yaml']
/**
 * Node's modules that every start loads anyway (Node's own start-up has), imported as a namespace
 * (`import * as nodePath from 'node:path'`) by some forty of plait's modules: each import is served
 * by an object whose prototype is the module itself. esbuild would otherwise copy the module's own
 * properties onto every namespace object as getters, one closure each: a hundred for fs, some
 * fifteen for path, over a thousand at every start.
 */
const sharedBuiltins = ['fs', 'path']
const requireHere = createRequire(import.meta.url)
// The getters are a class's: V8 sets up a class body's accessors in one step, where
// Object.defineProperties defines them one at a time (crypto's 73: 0.45 ms against 0.04, and the
// five shims a plan sets up took some 0.9 ms of every start). A class cannot have an accessor
// named `constructor`; no module of Node's has one of its own.
const shim = (real, names) => {
  if (names.includes('constructor')) throw new Error(`bundle: ${real} has its own "constructor", which a class cannot have as a getter`)
  const getters = names.map((n) => `get ${n}(){return load().${n}}`).join(';')
  return `let m;const load=()=>m??=require(${JSON.stringify(real)});module.exports=Object.create(class{${getters}}.prototype)`
}
const identifiers = (mod) => Object.getOwnPropertyNames(mod).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n))
const lazy = {
  name: 'lazy-modules',
  setup(b) {
    const builtins = new RegExp(`^(node:)?(${lazyBuiltins.map((m) => m.replace('/', '\\/')).join('|')})$`)
    b.onResolve({ filter: builtins }, (args) =>
      // the shim's own require of the module is the real one
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' })
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({ contents: shim(`node:${args.path}`, identifiers(requireHere(`node:${args.path}`))), loader: 'js' }))
    const shared = new RegExp(`^(node:)?(${sharedBuiltins.join('|')})$`)
    b.onResolve({ filter: shared }, (args) => (args.namespace === 'shared-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'shared-builtin' }))
    b.onLoad({ filter: /.*/, namespace: 'shared-builtin' }, (args) => ({ contents: `module.exports=Object.create(require(${JSON.stringify(`node:${args.path}`)}))`, loader: 'js' }))
    const dependencies = new RegExp(`^(${lazyDependencies.join('|')})$`)
    // the shim's own require of the dependency is resolved as usual, and bundled (undefined: esbuild's own resolution)
    b.onResolve({ filter: dependencies }, (args) => (args.namespace === 'lazy-dependency' ? undefined : { path: args.path, namespace: 'lazy-dependency' }))
    b.onLoad({ filter: /.*/, namespace: 'lazy-dependency' }, (args) => ({ contents: shim(args.path, identifiers(requireHere(args.path))), loader: 'js', resolveDir: repo }))
  },
}

// Built in a folder of its own and moved into dist/bin/ a file at a time (each rename is atomic),
// so that a plait started meanwhile (tests building while others run) never finds a file missing
// or half written; a bundle and a cache that do not match (the old cache, until the new one is
// made) are only a cache the launcher does not use, by the bundle's id (below).
const staging = join(repo, 'dist', `.bin.${process.pid}`)
rmSync(staging, { recursive: true, force: true })

await build({
  absWorkingDir: repo,
  entryPoints: ['src/cli/main.ts'],
  outfile: join(staging, 'plait.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  mainFields: ['module', 'main'],
  plugins: [esModules, lazy],
  // A module's URL is the bundle's (the launcher passes it): paths below the package are found
  // from it by walking up to package.json (src/interpreters/installation.ts), at any depth.
  // The version is the package's as built: `plait --version` and every plan's `plait` field read
  // no package.json at start (installation.ts reads it where this is not defined: tsc's tree, tests).
  define: { 'import.meta.url': '__plaitUrl', __PLAIT_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version) },
  // fast-check serves only `plait provider test` and is a fifth of the bundle: left out, it is
  // required from node_modules when that command runs, and no other start reads or decodes it.
  external: ['fast-check'],
  // Wrapped as Node wraps a CommonJS module, so that the launcher compiles the file's text as it is
  // read, with no copy made to wrap it (the source map counts the wrapper's line). The wrapper's
  // line holds the bundle's id, filled in below.
  banner: { js: `(function (exports, require, module, __filename, __dirname, __plaitUrl) {${idMark}${'0'.repeat(idLength)}*/` },
  footer: { js: '})' },
  // ASCII only, checked below: the launcher reads it as latin1, the cheapest string V8 makes of a file.
  charset: 'ascii',
  minifyWhitespace: true,
  minifySyntax: true,
  // Short names make a smaller script to read and compile at every start (1.08 MB -> 0.78, some
  // 3 ms of a 60 ms start); an internal error's stack is mapped back through the source map
  // (src/cli/stack.ts), so it names the TypeScript lines rather than this script's.
  minifyIdentifiers: true,
  sourcemap: 'linked',
  logLevel: 'warning',
})

// esbuild escapes what is not ASCII in strings and identifiers, but not in regular expression
// literals: one there (write `\u00b5` for `µ`) would be misread by the launcher's latin1 read.
{
  const bytes = readFileSync(join(staging, 'plait.cjs'))
  const at = bytes.findIndex((b) => b > 0x7f)
  if (at >= 0) {
    rmSync(staging, { recursive: true, force: true })
    const line = bytes.subarray(0, at).toString('latin1').split('\n').length
    throw new Error(`bundle: dist/bin/plait.cjs line ${line} has a character that is not ASCII (a regular expression literal?); write it as a \\u escape in the source`)
  }
}

// The bundle's id: the first hex digits of the sha256 of its text as esbuild wrote it (the id's
// place still zeros), written over those zeros (same length: the source map's lines and columns
// stand). Every code cache starts with it, and the launcher uses a cache only with the id of the
// bundle it compiles: V8 checks no more than a cache's Node, flags and the length of the source,
// and accepted a cache of the bundle before an edit of the same length (a version 0.1.0 -> 9.9.9),
// running the old code.
const id = (() => {
  const path = join(staging, 'plait.cjs')
  const text = readFileSync(path, 'latin1')
  const at = text.indexOf(idMark)
  if (at < 0 || at > 200) throw new Error('bundle: the wrapper line with the id mark is missing')
  const made = createHash('sha256').update(text).digest('hex').slice(0, idLength)
  writeFileSync(path, text.slice(0, at + idMark.length) + made + text.slice(at + idMark.length + idLength), 'latin1')
  return made
})()

// The launcher is a CommonJS script (dist/bin/package.json says so for plait.js): started as an ES
// module, Node would first load its ES module loader, about 5 ms of a 30 ms start.
await build({
  absWorkingDir: repo,
  entryPoints: ['src/cli/launcher.ts'],
  outfile: join(staging, 'plait.js'),
  bundle: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // its directory, as Node gives an ES module (import.meta.dirname) and a CommonJS one (__dirname)
  define: { 'import.meta.dirname': '__dirname', __PLAIT_ID_MARK__: JSON.stringify(idMark), __PLAIT_ID_LENGTH__: String(idLength) },
  logLevel: 'warning',
})
writeFileSync(join(staging, 'package.json'), '{\n  "type": "commonjs"\n}\n')

mkdirSync(out, { recursive: true })
for (const f of readdirSync(staging)) renameSync(join(staging, f), join(out, f))
rmSync(staging, { recursive: true, force: true })

// The code caches: V8's compiled code after an apply of a small manifest below a temporary root
// (cacheTraining.mjs says what it covers and why), and after a plan of it, each saved by the
// launcher at exit as the cache of the command it ran. Built with this Node; another ignores them.
// the command each cache is trained by, and its file (src/cli/launcher.ts names the same two)
const caches = [
  ['apply', 'plait.cjs.cache'],
  ['plan', 'plait.plan.cache'],
]
for (const [command, name] of caches) {
  const training = mkdtempSync(join(tmpdir(), 'plait-bundle-'))
  try {
    const r = spawnSync(process.execPath, [join(out, 'plait.js'), ...prepare(training, command)], {
      cwd: training,
      env: { ...process.env, PLAIT_WRITE_CODE_CACHE: '1' },
      encoding: 'utf8',
    })
    if (r.status !== 0) throw new Error(`bundle: the cache run (${command}) of the bundled plait failed (exit ${r.status}):\n${r.stderr}${r.stdout}`)
    // the run's cache is there and is this bundle's (a launcher that found no id would write none)
    const cache = join(out, name)
    if (readFileSync(cache).toString('latin1', 0, idLength) !== id) throw new Error(`bundle: the cache run (${command}) left no cache of this bundle (${id}) in ${cache}`)
  } finally {
    rmSync(training, { recursive: true, force: true })
  }
}
