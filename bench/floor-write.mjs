#!/usr/bin/env node
// floor-write: the least work any tool must do to write N new managed files durably, the floor
// that `plait apply` of the same files is compared with. It writes the bench's workload (the same
// directories, paths, bytes and modes as bench/workload.mjs makes for plait) below a fresh root.
//
//   node bench/floor-write.mjs --root DIR --n N [--dirs 100] [--mode sync|seq|pool] [--pool 32]
//
// The guarantee it gives, the one plait gives each managed file:
//   - at every moment, whatever crashes (the process, or the machine losing power), each target
//     path is either as it was (here: absent) or holds its complete new bytes with its mode, never
//     a partial file: the bytes go to a temp file in the same directory, are fsynced, and only then
//     renamed over the target (rename is atomic, and the data it points to is already on disk);
//   - once it exits 0, every new file and directory survives a power loss: each directory it
//     created or renamed into is fsynced once, after the last rename into it (one fsync per
//     directory makes every entry in it durable; fsyncing after each rename adds nothing).
// It does nothing else: no journal (it cannot undo), no probe, no verification, no chmod or chown
// (umask 0 makes the open mode exact, and the files are the current user's, as the bench's are).
// Directories are created first (mkdir), files in list order. Modes:
//   sync  openSync/writeSync/fsyncSync/renameSync, one file after another
//   seq   fs/promises, awaited one file after another
//   pool  fs/promises, at most --pool files in flight (libuv runs 4 fsyncs at once; the disk's
//         journal commits concurrent fsyncs together)
// Prints one JSON line: {mode, files, dirs, bytes, dirSyncs}.
import { closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs'
import { mkdir, open, rename } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { contentOf, workload } from './workload.mjs'

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    n: { type: 'string' },
    dirs: { type: 'string', default: '100' },
    mode: { type: 'string', default: 'pool' },
    pool: { type: 'string', default: '32' },
  },
})
if (values.root === undefined || values.n === undefined) {
  process.stderr.write('usage: floor-write.mjs --root DIR --n N [--dirs D] [--mode sync|seq|pool] [--pool N]\n')
  process.exit(64)
}
const root = values.root.replace(/\/+$/, '')
const w = workload(Number(values.n), Number(values.dirs), { owner: 'unused', group: 'unused' })
const lines = w.list.split('\n').filter((l) => l.length > 2)
const dirs = lines.filter((l) => l[0] === 'd').map((l) => root + l.slice(2))
// workload.mjs lists file i (the bytes of contentOf(i)) as the i-th file line, as its manifest does
const files = lines.filter((l) => l[0] === 'f').map((l, i) => ({ path: root + l.slice(2), data: Buffer.from(contentOf(i)) }))
process.umask(0)

const createFlags = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW
const dirOf = (p) => p.slice(0, p.lastIndexOf('/')) || '/'
const tempOf = (p) => `${dirOf(p)}/.${p.slice(p.lastIndexOf('/') + 1)}.tmp-${process.pid}`
/** Every directory whose entries changed: each created directory's parent, and each file's directory. */
const touched = [...new Set([...dirs.map(dirOf), ...dirs, ...files.map((f) => dirOf(f.path))])]

const syncDirSync = (d) => {
  const fd = openSync(d, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
const syncDir = async (d) => {
  const fh = await open(d, constants.O_RDONLY | constants.O_DIRECTORY)
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
const writeOne = async (f) => {
  const temp = tempOf(f.path)
  const fh = await open(temp, createFlags, 0o644)
  try {
    await fh.writeFile(f.data)
    await fh.sync()
  } finally {
    await fh.close()
  }
  await rename(temp, f.path)
}

switch (values.mode) {
  case 'sync':
    for (const d of dirs) mkdirSync(d, { mode: 0o755 })
    for (const f of files) {
      const temp = tempOf(f.path)
      const fd = openSync(temp, createFlags, 0o644)
      try {
        writeSync(fd, f.data)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temp, f.path)
    }
    for (const d of touched) syncDirSync(d)
    break
  case 'seq':
    for (const d of dirs) await mkdir(d, { mode: 0o755 })
    for (const f of files) await writeOne(f)
    for (const d of touched) await syncDir(d)
    break
  case 'pool': {
    for (const d of dirs) await mkdir(d, { mode: 0o755 })
    const limit = Math.max(1, Number(values.pool))
    let next = 0
    const worker = async () => {
      while (next < files.length) await writeOne(files[next++])
    }
    await Promise.all(Array.from({ length: Math.min(limit, files.length) }, worker))
    await Promise.all(touched.map(syncDir))
    break
  }
  default:
    process.stderr.write(`unknown --mode ${values.mode}\n`)
    process.exit(64)
}

process.stdout.write(JSON.stringify({ mode: values.mode, files: files.length, dirs: dirs.length, bytes: files.reduce((n, f) => n + f.data.length, 0), dirSyncs: touched.length }) + '\n')
