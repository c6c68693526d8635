// security: races. A separate process swaps a directory inside the root for a symlink to a
// directory outside, and back, as fast as it can, while the posix machine writes, chmods, creates
// and removes below it. Whatever interleaving happens, nothing outside the root changes, no temp
// file is left on either side, and every outcome reported as done is true inside the root.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Posix from '../../src/interpreters/posix/posix.js'
import { cleanup, snapshot, tempDir } from '../e2e/helpers.js'

afterAll(cleanup)

const me = { uid: process.getuid!(), gid: process.getgid!() }
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

/** Starts a process that swaps ROOT/d and a symlink to OUTSIDE in a tight loop; returns a stop function. */
const swapper = (root: string, outside: string): (() => Promise<void>) => {
  const script = `
const fs = require('node:fs')
const [root, outside] = process.argv.slice(1)
const d = root + '/d', saved = root + '/d.saved'
const spin = (us) => { const end = process.hrtime.bigint() + BigInt(us) * 1000n; while (process.hrtime.bigint() < end); }
for (;;) {
  try { fs.renameSync(d, saved) } catch { spin(50); continue }
  try { fs.symlinkSync(outside, d); spin(300); fs.unlinkSync(d) } catch {}
  try { fs.renameSync(saved, d) } catch {}
  spin(300)
}`
  const child = spawn(process.execPath, ['-e', script, root, outside], { stdio: 'ignore' })
  return () =>
    new Promise((resolve) => {
      child.on('exit', () => resolve())
      child.kill('SIGKILL')
    })
}

/** Puts ROOT/d back as the real directory, whichever state the swapper was killed in. */
const settle = (root: string): void => {
  const d = path.join(root, 'd')
  const saved = path.join(root, 'd.saved')
  // the machine may have made a real d while the swapper had moved it away: then both stay
  const link = fs.lstatSync(d, { throwIfNoEntry: false })
  if (fs.existsSync(saved) && (link === undefined || link.isSymbolicLink())) {
    fs.rmSync(d, { force: true })
    fs.renameSync(saved, d)
  }
}

describe('a directory swapped for an outward symlink while the machine acts', () => {
  // held: as an apply batch holds the machine (Machine.hold), a hold at a time over ten files,
  // whose operations share the directory handles walked to in it
  it.each([
    ['one operation at a time', false],
    ['under holds, as apply batches run', true],
  ])('never lets a write, chmod, mkdir or removal act outside the root: %s', async (_, held) => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const outside = path.join(base, 'outside')
    fs.mkdirSync(path.join(root, 'd'), { recursive: true })
    fs.mkdirSync(path.join(outside, 'sub'), { recursive: true })
    for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(outside, `f${i}`), 'outside\n', { mode: 0o600 })
    fs.writeFileSync(path.join(outside, 'sub', 'keep'), 'keep\n')
    const before = snapshot(outside)
    const machine = Posix.make({ root })
    const stop = swapper(root, outside)
    const done: { op: string; path: string }[] = []
    let refused = 0
    let release = (): void => undefined
    try {
      for (let i = 0; i < 300; i++) {
        if (held && i % 10 === 0) {
          release()
          release = machine.hold()
        }
        const p = `/d/f${i}`
        const steps: Array<[string, () => Promise<E.Either<unknown, unknown>>]> = [
          ['write', machine.writeFileAtomic(p, bytes(`inside ${i}\n`), { ...me, mode: 0o644 }, `.f${i}.plait-tmp`)],
          ['chmod', machine.setAttrs(p, { ...me, mode: 0o640 })],
          ['mkdir', machine.mkdirp(`/d/sub${i}/x`, { ...me, mode: 0o755 })],
          ['remove', machine.remove(`/d/sub${i}`, { recursive: true })],
          ['remove-sub', machine.remove('/d/sub', { recursive: true })],
        ]
        for (const [op, run] of steps) {
          const r = await run()
          if (E.isRight(r)) done.push({ op, path: p })
          else refused++
        }
      }
    } finally {
      release()
      await stop()
    }
    settle(root)
    // nothing outside changed: the same files, bytes, modes and owners
    expect(snapshot(outside)).toEqual(before)
    // no temp file on either side
    const temps = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map(String).filter((n) => n.includes('plait-tmp'))
    expect(temps(outside)).toEqual([])
    expect(temps(root)).toEqual([])
    // what was reported written is there, inside
    for (const x of done.filter((d) => d.op === 'write')) {
      // a write reported done landed inside: in d, or in d as the swapper had renamed it
      const name = path.basename(x.path)
      expect(fs.existsSync(path.join(root, 'd', name)) || fs.existsSync(path.join(root, 'd.saved', name)), x.path).toBe(true)
    }
    // the race was real: some steps ran and some met the symlink
    expect(done.length).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  }, 120_000)
})

describe('a directory swapped for an outward symlink while a batch observes', () => {
  it('never lets a batched probe read a file outside the root', async () => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const outside = path.join(base, 'outside')
    fs.mkdirSync(path.join(root, 'd'), { recursive: true })
    fs.mkdirSync(outside, { recursive: true })
    for (let i = 0; i < 200; i++) {
      fs.writeFileSync(path.join(root, 'd', `f${i}`), 'inside\n')
      fs.writeFileSync(path.join(outside, `f${i}`), 'outside\n')
    }
    const outsideSha = createHash('sha256').update('outside\n').digest('hex')
    const machine = Posix.make({ root })
    const stop = swapper(root, outside)
    const seen = { inside: 0, refused: 0, absent: 0 }
    try {
      for (let round = 0; round < 60; round++) {
        const results = await machine.probeAll(Array.from({ length: 200 }, (_, i) => ({ path: `/d/f${i}` })))()
        for (const r of results) {
          if (E.isLeft(r)) seen.refused++
          else if (r.right._tag === 'File') {
            expect(r.right.probe.sha256).not.toBe(outsideSha)
            seen.inside++
          } else seen.absent++
        }
      }
    } finally {
      await stop()
    }
    settle(root)
    // the race was real: some probes read the file inside, some met the symlink or a missing d
    expect(seen.inside).toBeGreaterThan(0)
    expect(seen.refused + seen.absent).toBeGreaterThan(0)
  }, 120_000)
})
