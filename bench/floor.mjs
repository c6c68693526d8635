#!/usr/bin/env node
// floor: the least work any tool must do to learn that N managed files are unchanged: read the
// manifest (its bytes: no parsing), then for every file lstat + read + sha256, for every
// directory lstat, and nothing else. The bench spawns it exactly like plait, so Node's start-up is
// in both numbers.
//
//   node bench/floor.mjs --root DIR --list FILE [--manifest FILE [--parse]] [--mode sync|seq|pool] [--pool 32]
//
// --parse also parses the manifest with plait's own reader of the block subset (dist/manifest/
// YamlBlock.js, tsc's output: `npm run build` first), the least a tool that reads the manifest must
// add to the floor; its time in the process (`parseMs`) goes in the output. Not part of the floor
// the goal is measured against: it shows how much of the way to that goal parsing alone takes.
// FILE has one line per resource: "f /machine/path" or "d /machine/path". Modes:
//   sync  lstatSync, then open, readSync into one reused buffer, close, one after another
//         (15% faster than readFileSync, which makes a buffer per file and fstats each again)
//   seq   fs/promises lstat + readFile, awaited one after another
//   pool  fs/promises lstat + readFile, at most --pool in flight (plait's observe uses 32)
// Every mode hashes with crypto's one-shot `hash` (no Hash object per file).
// Prints one JSON line: {mode, files, dirs, bytes, digest} (digest: sha256 over all the hashes).
import { createHash, hash } from 'node:crypto'
import { closeSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { lstat, readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    list: { type: 'string' },
    manifest: { type: 'string' },
    mode: { type: 'string', default: 'pool' },
    parse: { type: 'boolean', default: false },
    pool: { type: 'string', default: '32' },
  },
})
if (values.root === undefined || values.list === undefined) {
  process.stderr.write('usage: floor.mjs --root DIR --list FILE [--mode sync|seq|pool] [--pool N]\n')
  process.exit(64)
}
const root = values.root.replace(/\/+$/, '')
// the manifest's bytes, read as plait reads them before anything else (their count goes in the output)
const manifest = values.manifest === undefined ? Buffer.alloc(0) : readFileSync(values.manifest)
const manifestBytes = manifest.length
let parseMs
if (values.parse) {
  const { block } = await import(new URL('../dist/manifest/YamlBlock.js', import.meta.url).href)
  const text = manifest.toString('utf8')
  const t0 = performance.now()
  const tree = block(values.manifest, text)
  parseMs = performance.now() - t0
  if (tree === undefined) {
    process.stderr.write(`floor: ${values.manifest} is outside the block subset plait's own reader reads\n`)
    process.exit(65)
  }
}
const items = readFileSync(values.list, 'utf8')
  .split('\n')
  .filter((l) => l.length > 2)
  .map((l) => ({ dir: l[0] === 'd', path: root + l.slice(2) }))

const sha = (data) => hash('sha256', data)
const hashes = new Array(items.length)

/** The sync mode's one buffer, grown to the largest file read. */
let buffer = Buffer.allocUnsafe(1 << 16)
/** Reads the whole file at path (lstat said `size` bytes) into `buffer` through one descriptor; gives its length. */
const readWhole = (path, size) => {
  if (size + 1 > buffer.length) buffer = Buffer.allocUnsafe(size + 1)
  const fd = openSync(path, 'r')
  try {
    let n = 0
    for (let r; (r = readSync(fd, buffer, n, buffer.length - n, null)) > 0; ) {
      n += r
      if (n === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)])
    }
    return n
  } finally {
    closeSync(fd)
  }
}
let bytes = 0

const one = async (i) => {
  const it = items[i]
  const st = await lstat(it.path)
  if (it.dir) {
    hashes[i] = `d${st.mode}`
    return
  }
  const data = await readFile(it.path)
  bytes += data.length
  hashes[i] = sha(data)
}

switch (values.mode) {
  case 'sync':
    for (let i = 0; i < items.length; i++) {
      const it = items[i]
      const st = lstatSync(it.path)
      if (it.dir) {
        hashes[i] = `d${st.mode}`
        continue
      }
      const length = readWhole(it.path, st.size)
      bytes += length
      hashes[i] = sha(buffer.subarray(0, length))
    }
    break
  case 'seq':
    for (let i = 0; i < items.length; i++) await one(i)
    break
  case 'pool': {
    const limit = Math.max(1, Number(values.pool))
    let next = 0
    const worker = async () => {
      while (next < items.length) await one(next++)
    }
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
    break
  }
  default:
    process.stderr.write(`unknown --mode ${values.mode}\n`)
    process.exit(64)
}

const digest = createHash('sha256')
for (const h of hashes) digest.update(h)
const dirs = items.filter((x) => x.dir).length
process.stdout.write(JSON.stringify({ mode: values.mode, manifestBytes, files: items.length - dirs, dirs, bytes, digest: digest.digest('hex'), ...(parseMs !== undefined ? { parseMs } : {}) }) + '\n')
