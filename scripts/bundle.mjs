#!/usr/bin/env node
// bundle: the plait command as it ships, one file (dist/bin/plait.js, package.json's `bin`) plus
// the chunks it loads on demand (dist/bin/chunks/), so that starting plait reads a handful of files
// instead of some 230 modules. `npm run build` runs it after tsc, which type-checks and still emits
// dist/ module by module (bench/profile.mjs profiles that, phase by module; a test imports one).
// dist/bin/ sits at the depth of dist/cli/, so paths relative to a module's URL (package.json,
// lib/libral from a chunk) resolve as they do from tsc's output; an e2e test checks both.
import { build } from 'esbuild'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')

await build({
  absWorkingDir: repo,
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/bin',
  entryNames: 'plait',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Dependencies written as CommonJS (fp-ts, io-ts, commander) call require() for Node's own modules.
  banner: { js: "import { createRequire as __plaitRequire } from 'node:module'; const require = __plaitRequire(import.meta.url);" },
  logLevel: 'warning',
})
