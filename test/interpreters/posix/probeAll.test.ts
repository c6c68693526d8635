// probeAll: the batch of probes observation makes. Whatever shortcuts it takes (one walk per parent,
// one listing of a directory whose many files are asked, a directory's emptiness known from that
// listing), each path must get exactly what `probe` gives it. Trees here are real (a temp root),
// with every kind of entry a batch can meet; the system calls are seen with strace.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Fault } from '../../../src/core/Fault.js'
import type { ProbeOptions } from '../../../src/interpreters/Machine.js'
import * as Listing from '../../../src/interpreters/posix/listing.js'
import * as Posix from '../../../src/interpreters/posix/posix.js'
import { ensureBuilt, repo } from '../../e2e/setup.js'

const tops: string[] = []
afterEach(() => {
  for (const t of tops.splice(0)) fs.rmSync(t, { recursive: true, force: true })
})
const tempDir = (): string => {
  const t = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'plait-probeall-'))
  tops.push(t)
  return t
}

const secret = 'the secret outside the root'
const secretSha = createHash('sha256').update(secret).digest('hex')

/** What a wide directory's entry is. */
type Kind = 'file' | 'empty file' | 'dir' | 'empty dir' | 'link in' | 'link to dir' | 'link out' | 'dangling' | 'fifo'
const kinds: ReadonlyArray<Kind> = ['file', 'file', 'file', 'empty file', 'dir', 'empty dir', 'link in', 'link to dir', 'link out', 'dangling', 'fifo']

/**
 * Makes below `root` a directory /w of entries e0, e1, ... of the given kinds (a "dir" holding files
 * f0..f2), a small directory /s, and a secret outside the root; returns the paths a batch may ask:
 * every entry, names below each (nested parents, through symlinks, below files), missing names.
 */
const build = (root: string, wide: ReadonlyArray<Kind>, texts: ReadonlyArray<string>): string[] => {
  fs.mkdirSync(`${root}/w`, { recursive: true })
  fs.mkdirSync(`${root}/s`)
  fs.writeFileSync(`${root}/s/one`, 'one')
  fs.writeFileSync(`${nodePath.dirname(root)}/secret`, secret)
  const fifos: string[] = []
  const paths = ['/', '/w', '/s', '/s/one', '/s/missing', '/missing/x']
  wide.forEach((kind, i) => {
    const host = `${root}/w/e${i}`
    const text = texts[i % texts.length]!
    switch (kind) {
      case 'file':
        fs.writeFileSync(host, text, { mode: 0o600 + (i % 0o100) })
        break
      case 'empty file':
        fs.writeFileSync(host, '')
        break
      case 'dir':
        fs.mkdirSync(host)
        for (let k = 0; k < 3; k++) fs.writeFileSync(`${host}/f${k}`, `${text}${k}`)
        break
      case 'empty dir':
        fs.mkdirSync(host)
        break
      case 'link in':
        fs.symlinkSync(`e${(i + 1) % wide.length}`, host)
        break
      case 'link to dir':
        fs.symlinkSync('../s', host)
        break
      case 'link out':
        fs.symlinkSync('../..', host)
        break
      case 'dangling':
        fs.symlinkSync('nowhere', host)
        break
      case 'fifo':
        fifos.push(host)
    }
    paths.push(`/w/e${i}`, `/w/e${i}/f0`, `/w/e${i}/f2`, `/w/e${i}/one`, `/w/e${i}/secret`)
  })
  if (fifos.length > 0) execFileSync('mkfifo', fifos)
  for (let i = 0; i < 4; i++) paths.push(`/w/missing${i}`)
  return paths
}

/** A probe's result with the fault's cause left out (it names host paths such as a handle's /proc path). */
const comparable = (r: E.Either<Fault, unknown>): unknown =>
  E.isRight(r) ? r : E.left({ tag: r.left._tag, op: r.left.op, subject: r.left.subject, description: r.left.description })

describe('probeAll', () => {
  fcTest.prop(
    [
      // a wide directory: enough entries asked to be listed (see Listing.list), of every kind
      fc.array(fc.constantFrom(...kinds), { minLength: 24, maxLength: 60 }),
      fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      fc.func(fc.nat()),
      fc.integer({ min: 0, max: 1000 }),
    ],
    { numRuns: 40 },
  )('gives every path what probe gives it, whatever the tree, the order and the options', async (wide, texts, confined, pick, seed) => {
    const top = tempDir()
    const root = `${top}/root`
    const all = build(root, wide, texts)
    // every path, some twice, in a random order, some asking for content
    const chosen = all.flatMap((p, i) => Array.from({ length: 1 + (pick(p) % 2) }, (_, k) => ({ p, key: (pick(`${p}${k}`) + i * 7919 + k * 104729 + seed) % 1009 })))
    chosen.sort((a, b) => a.key - b.key)
    const requests = chosen.map(({ p }, i): { path: string; options?: ProbeOptions } => {
      const path = confined ? p : p === '/' ? root : `${root}${p}`
      return i % 3 === 0 ? { path, options: { contentUnless: 'x'.repeat(64), contentLimit: 1 + (i % 30) } } : { path }
    })
    const machine = Posix.make(confined ? { root } : {})
    const each = await Promise.all(requests.map((r) => machine.probe(r.path, r.options)()))
    const batch = await machine.probeAll(requests)()
    expect(batch.map(comparable)).toStrictEqual(each.map(comparable))
    // confined, the secret beside the root is never read (unconfined, nothing is outside)
    if (confined) expect(JSON.stringify(batch)).not.toContain(secretSha)
  })

  it('hashes each file of a batch from its own bytes, whatever the sizes before it, and keeps asked contents apart', async () => {
    // small files are read into one buffer, reused: a file must never be hashed with bytes of the one before
    const root = tempDir()
    const sizes = [5000, 0, 1, 4095, 4096, 4097, 65535, 65536, 70000, 3, 20000, 2]
    const files = sizes.map((n, i) => {
      const bytes = Buffer.alloc(n, 97 + (i % 26))
      if (n > 0) bytes[n - 1] = 48 + (i % 10)
      fs.writeFileSync(`${root}/f${i}`, bytes)
      return { path: `/f${i}`, bytes }
    })
    const machine = Posix.make({ root })
    const batch = await machine.probeAll(files.map((f, i) => (i % 4 === 1 ? { path: f.path, options: { contentUnless: 'x'.repeat(64) } } : { path: f.path })))()
    batch.forEach((r, i) => {
      const sha = createHash('sha256').update(files[i]!.bytes).digest('hex')
      expect(E.isRight(r) && r.right._tag === 'File' && r.right.probe.sha256, `f${i}`).toBe(sha)
      if (i % 4 === 1 && E.isRight(r) && r.right._tag === 'File') expect(Buffer.from(r.right.probe.content ?? new Uint8Array()).equals(files[i]!.bytes), `content of f${i}`).toBe(true)
    })
  })

  it('gives Absent for every file of a missing directory, and each its own Escape for a directory outside', async () => {
    const top = tempDir()
    const root = `${top}/root`
    build(root, ['link out', 'file'], ['x'])
    const machine = Posix.make({ root })
    const requests = Array.from({ length: 6 }, (_, i) => ({ path: i % 2 === 0 ? `/gone/f${i}` : `/w/e0/f${i}` }))
    const batch = await machine.probeAll(requests)()
    expect(batch.filter((r, i) => i % 2 === 0)).toStrictEqual([E.right({ _tag: 'Absent' }), E.right({ _tag: 'Absent' }), E.right({ _tag: 'Absent' })])
    expect(batch.filter((r, i) => i % 2 === 1).map((r) => E.isLeft(r) && [r.left._tag, r.left.subject])).toStrictEqual([
      ['Escape', '/w/e0/f1'],
      ['Escape', '/w/e0/f3'],
      ['Escape', '/w/e0/f5'],
    ])
  })
})

describe('probeAll system calls', () => {
  beforeAll(() => ensureBuilt())

  /** The system calls (of `calls`) a batch of `paths` below `root` makes, as strace prints them. */
  const traced = (root: string, paths: ReadonlyArray<string>, calls: string): string => {
    const script = nodePath.join(tempDir(), 'batch.mjs')
    fs.writeFileSync(
      script,
      `import * as P from ${JSON.stringify(nodePath.join(repo, 'dist/interpreters/posix/posix.js'))}
const r = await P.make({ root: ${JSON.stringify(root)} }).probeAll(${JSON.stringify(paths.map((path) => ({ path })))})()
if (r.some((x) => x._tag !== 'Right')) process.exit(3)
`,
    )
    const r = spawnSync('strace', ['-f', '-e', `trace=${calls}`, process.execPath, script], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    return r.stderr
  }

  it('opens the many asked files of a directory on one listing of it, with no lstat of each, and reads it once even when the directory is probed too', () => {
    const root = tempDir()
    fs.mkdirSync(`${root}/many`)
    fs.mkdirSync(`${root}/few`)
    for (let i = 0; i < 40; i++) fs.writeFileSync(`${root}/many/file${i}`, `${i}`)
    for (let i = 0; i < 3; i++) fs.writeFileSync(`${root}/few/file${i}`, `${i}`)
    const paths = ['/many', ...Array.from({ length: 40 }, (_, i) => `/many/file${i}`), ...Array.from({ length: 3 }, (_, i) => `/few/file${i}`)]
    const out = traced(root, paths, 'statx,newfstatat,lstat,getdents64,openat')
    const lstats = out.split('\n').filter((l) => /(statx|newfstatat|lstat)\(.*\/file\d+"/.test(l))
    // the three files of /few, fewer than pay for a listing, are lstat'ed; none of /many's 40
    expect(lstats.map((l) => /\/(file\d+)"/.exec(l)![1]).sort()).toStrictEqual(['file0', 'file1', 'file2'])
    expect(out.match(/openat\(.*\/file\d+", O_RDONLY/g)).toHaveLength(43)
    // one listing: /many was read for its files, and its emptiness taken from that reading
    expect(out.match(/getdents64\(.*= [1-9]/g)).toHaveLength(1)
  })

  it('does not list a directory of 10,000 entries for a few files of it', () => {
    const root = tempDir()
    fs.mkdirSync(`${root}/big`)
    for (let i = 0; i < 10_000; i++) fs.writeFileSync(`${root}/big/e${i}`, '')
    const out = traced(root, ['/big/e1', '/big/e2', '/big/e3', '/big/e4', '/big/e5'], 'getdents64,statx,lstat,newfstatat')
    expect(out).not.toContain('getdents64')
    expect(out.match(/(statx|newfstatat|lstat)\(.*\/e\d"/g)).toHaveLength(5)
  })
})

describe('Listing.list', () => {
  it('names the regular files of a directory, says whether it is empty, and which directory it read', () => {
    const dir = tempDir()
    fs.writeFileSync(`${dir}/a`, 'a')
    fs.writeFileSync(`${dir}/b`, '')
    fs.mkdirSync(`${dir}/sub`)
    fs.symlinkSync('a', `${dir}/link`)
    execFileSync('mkfifo', [`${dir}/fifo`])
    const listing = Listing.list(dir, 200)
    const st = fs.statSync(dir)
    expect(listing).toStrictEqual({ files: new Set(['a', 'b']), empty: false, dev: st.dev, ino: st.ino })
    fs.mkdirSync(`${dir}/sub/none`)
    expect(Listing.list(`${dir}/sub/none`, 200)?.empty).toBe(true)
  })

  it('leaves out a name that does not decode cleanly, which may stand for another entry', () => {
    const dir = tempDir()
    fs.writeFileSync(Buffer.from(`${dir}/bad\xff`, 'latin1'), 'x')
    fs.writeFileSync(`${dir}/good`, 'x')
    expect(Listing.list(dir, 200)?.files).toStrictEqual(new Set(['good']))
  })

  it('does not list for fewer asked entries than pay, nor a directory far larger than what is asked, nor what cannot be listed', () => {
    const dir = tempDir()
    for (let i = 0; i < 2000; i++) fs.writeFileSync(`${dir}/f${i}`, '')
    expect(Listing.list(dir, Listing.minimumAsked - 1)).toBeUndefined()
    expect(Listing.list(dir, Listing.minimumAsked)).toBeUndefined()
    expect(Listing.list(dir, 2000)?.files.size).toBe(2000)
    expect(Listing.list(`${dir}/f1`, 2000)).toBeUndefined()
    expect(Listing.list(`${dir}/missing`, 2000)).toBeUndefined()
  })
})
