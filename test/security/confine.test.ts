// security: --root keeps every effect below the root. Each case here escaped on an earlier plait:
// a directory replaced by an outward symlink between steps, a sibling whose name extends the
// root's, files over 2 GiB that could not be backed up, and fsyncs that no test missed.
import { execFileSync, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as fsp from 'node:fs/promises'
import * as path from 'node:path'
import type { FileHandle } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok, fails } from '../contract/machine.contract.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import * as Confine from '../../src/interpreters/posix/confine.js'
import * as Write from '../../src/interpreters/posix/write.js'
import { binary, cleanup, ensureBuilt, plait, repo, sandbox, show, snapshot, tempDir } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const me = { uid: process.getuid!(), gid: process.getgid!() }
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)
const attrs = `            owner: root\n            group: root\n            mode: "0644"\n`

describe('a directory replaced by an outward symlink during the run', () => {
  it('makes the later file step fail as an escape, never write outside (item 1)', async () => {
    const s = sandbox()
    const outside = tempDir()
    fs.writeFileSync(path.join(outside, 'keep'), 'outside\n')
    fs.mkdirSync(s.at('/etc/app'), { recursive: true })
    // the exec runs first (manifest order) and swaps /etc/app for a symlink to the outside
    const swap = `/bin/sh -c 'rm -rf ${s.at('/etc/app')} && ln -s ${outside} ${s.at('/etc/app')}'`
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - swap:
            command: ${JSON.stringify(swap)}
    - file:
        - /etc/app/x.conf:
            content: "inside\\n"
${attrs}`)
    const before = snapshot(outside)
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout + r.stderr).toMatch(/outside the root/)
    expect(snapshot(outside)).toEqual(before)
  })
})

describe('a hold (one apply batch keeps the parent handles it walked to)', () => {
  const openHandles = (): number => fs.readdirSync('/proc/self/fd').length

  it('acts in the directory it reached even once that directory is swapped for an outward symlink, and a later walk refuses the symlink', async () => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const outside = tempDir()
    fs.mkdirSync(path.join(root, 'd'), { recursive: true })
    fs.writeFileSync(path.join(outside, 'keep'), 'outside\n')
    const before = snapshot(outside)
    const machine = Posix.make({ root })
    const release = machine.hold()
    await ok(machine.writeTemp('/d/a', bytes('a'), { ...me, mode: 0o644 }, '.a.tmp'))
    // /d is moved aside and a symlink to the outside put in its place, mid-hold
    fs.renameSync(path.join(root, 'd'), path.join(root, 'moved'))
    fs.symlinkSync(outside, path.join(root, 'd'))
    await ok(machine.renameTemp('/d/a', '.a.tmp'))
    await ok(machine.writeFileAtomic('/d/b', bytes('b'), { ...me, mode: 0o644 }, '.b.tmp'))
    release()
    expect(snapshot(outside)).toEqual(before)
    expect(fs.readdirSync(path.join(root, 'moved')).sort()).toEqual(['a', 'b'])
    // the hold is over: the next operation walks again, and the symlink leads out
    expect((await fails(machine.writeFileAtomic('/d/c', bytes('c'), { ...me, mode: 0o644 }, '.c.tmp')))._tag).toBe('Escape')
    expect(snapshot(outside)).toEqual(before)
  })

  it('walks again when a directory it holds is moved out of the root, so the rest of the batch never follows it out', async () => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const outside = path.join(base, 'outside') // the same file system: a rename can move d there
    fs.mkdirSync(path.join(root, 'd'), { recursive: true })
    fs.mkdirSync(outside)
    const machine = Posix.make({ root })
    const release = machine.hold()
    await ok(machine.writeFileAtomic('/d/a', bytes('a'), { ...me, mode: 0o644 }, '.a.tmp'))
    fs.renameSync(path.join(root, 'd'), path.join(outside, 'd'))
    expect((await fails(machine.writeFileAtomic('/d/b', bytes('b'), { ...me, mode: 0o644 }, '.b.tmp')))._tag).toBe('NotFound')
    expect((await fails(machine.writeTemp('/d/c', bytes('c'), { ...me, mode: 0o644 }, '.c.tmp')))._tag).toBe('NotFound')
    // a directory made in its place is the one used from then on
    fs.mkdirSync(path.join(root, 'd'))
    await ok(machine.writeFileAtomic('/d/e', bytes('e'), { ...me, mode: 0o644 }, '.e.tmp'))
    release()
    expect(fs.readdirSync(path.join(outside, 'd'))).toEqual(['a'])
    expect(fs.readdirSync(path.join(root, 'd'))).toEqual(['e'])
  })

  it('lets no batch of probes read through a directory moved out of the root after it was walked to', () => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const outside = path.join(base, 'outside')
    fs.mkdirSync(path.join(root, 'd'), { recursive: true })
    fs.mkdirSync(outside)
    fs.writeFileSync(path.join(root, 'd', 'f'), 'inside')
    const batch = Confine.make(root).batch()
    try {
      expect(batch.atSync('probe', '/d/f', ({ entry }) => fs.readFileSync(entry, 'utf8'))).toBe('inside')
      fs.renameSync(path.join(root, 'd'), path.join(outside, 'd'))
      fs.writeFileSync(path.join(outside, 'd', 'secret'), 'outside')
      expect(() => batch.atSync('probe', '/d/secret', ({ entry }) => fs.readFileSync(entry, 'utf8'))).toThrow()
    } finally {
      batch.close()
    }
  })

  it('keeps nothing for a batch of probes used after the hold it was made in is released', async () => {
    const root = tempDir()
    fs.mkdirSync(path.join(root, 'd'))
    fs.writeFileSync(path.join(root, 'd', 'f'), 'f')
    const confine = Confine.make(root)
    const baseline = openHandles()
    const release = confine.hold()
    const batch = confine.batch()
    release()
    const taken: number[] = []
    try {
      for (let i = 0; i < 3; i++) {
        // each use walks and closes its own handle: none refers to a closed (and reused) descriptor
        expect(batch.atSync('probe', '/d/f', ({ entry }) => fs.readFileSync(entry, 'utf8'))).toBe('f')
        taken.push(fs.openSync('/dev/null', 'r')) // the lowest free descriptor, as a stale number would be reused
      }
      batch.close()
      expect(openHandles() - baseline).toBe(3)
    } finally {
      for (const fd of taken) fs.closeSync(fd)
    }
  })

  it('never closes a handle an operation is using, however many directories it holds, and closes them all when released', async () => {
    const root = tempDir()
    const n = 300 // more directories than a hold keeps handles for
    for (let i = 0; i < n; i++) {
      fs.mkdirSync(path.join(root, `d${i}`))
      fs.writeFileSync(path.join(root, `d${i}`, `mark${i}`), '')
    }
    const confine = Confine.make(root)
    const baseline = openHandles()
    const release = confine.hold()
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    // every operation is in flight at once, each waiting inside its body while it holds its directory
    const seen = Promise.all(
      Array.from({ length: n }, (_, i) =>
        confine.at('test', `/d${i}/f`, async ({ dir }) => {
          await gate
          return fs.readdirSync(dir)
        }),
      ),
    )
    open()
    const listings = await seen
    listings.forEach((names, i) => expect(names).toEqual([`mark${i}`]))
    // idle handles past the limit were closed; the rest are kept until the release
    expect(openHandles() - baseline).toBeLessThanOrEqual(256)
    expect(openHandles() - baseline).toBeGreaterThan(0)
    release()
    expect(openHandles()).toBe(baseline)
  })

  it('lends its handles to a batch of probes made meanwhile, which leaves them open for the rest of the hold', async () => {
    const root = tempDir()
    for (const d of ['a', 'b']) {
      fs.mkdirSync(path.join(root, d))
      fs.writeFileSync(path.join(root, d, 'f'), d)
    }
    const machine = Posix.make({ root })
    const baseline = openHandles()
    const release = machine.hold()
    const probes = await machine.probeAll([{ path: '/a/f' }, { path: '/b/f' }])()
    expect(probes.every((p) => p._tag === 'Right')).toBe(true)
    expect(openHandles() - baseline).toBe(2)
    await ok(machine.writeFileAtomic('/a/g', bytes('g'), { ...me, mode: 0o644 }, '.g.tmp'))
    expect(openHandles() - baseline).toBe(2)
    release()
    expect(openHandles()).toBe(baseline)
    // without a hold, a batch closes what it opened
    await machine.probeAll([{ path: '/a/f' }, { path: '/b/f' }])()
    expect(openHandles()).toBe(baseline)
  })

  it('lets an apply walk to each directory of a batch once, not twice a file (seen by strace)', async () => {
    const s = sandbox()
    const dirs = ['one', 'two', 'three']
    for (const d of dirs) fs.mkdirSync(s.at(`/srv/${d}`), { recursive: true })
    // the files take their directories in turn, as the bench's do
    const files = Array.from({ length: 60 }, (_, i) => `        - /srv/${dirs[i % 3]}/f${i}:\n            content: "${i}\\n"\n${attrs}`).join('')
    const m = s.manifest(`ccm:\n  resources:\n    - file:\n${files}`)
    const r = spawnSync('strace', ['-f', '-e', 'trace=openat', process.execPath, binary, 'apply', m, '--root', s.root], { encoding: 'utf8' })
    expect(r.status, r.stderr.slice(-2000)).toBe(0)
    for (const d of dirs) expect(fs.readdirSync(s.at(`/srv/${d}`))).toHaveLength(20)
    // a walk opens each directory on the way with O_PATH; before holds, each file's two halves walked (120 walks)
    const walks = r.stderr.split('\n').filter((l) => /openat\(.*\/(one|two|three)", .*O_PATH/.test(l))
    expect(walks.length).toBeGreaterThan(0)
    expect(walks.length).toBeLessThan(30)
  })
})

describe('the prefix check', () => {
  it('treats a sibling whose name extends the root (ROOT-evil) as outside', async () => {
    const base = tempDir()
    const root = path.join(base, 'root')
    const evil = root + '-evil'
    fs.mkdirSync(root)
    fs.mkdirSync(evil)
    fs.symlinkSync(evil, path.join(root, 'x'))
    fs.symlinkSync('../root-evil', path.join(root, 'y'))
    const machine = Posix.make({ root })
    for (const p of ['/x/f', '/y/f']) {
      const f = await fails(machine.writeFileAtomic(p, bytes('escaped'), { ...me, mode: 0o644 }, '.t'))
      expect(f._tag).toBe('Escape')
      expect((await fails(machine.mkdirp(p, { ...me, mode: 0o755 })))._tag).toBe('Escape')
      expect((await fails(machine.probe(p)))._tag).toBe('Escape')
    }
    expect(fs.readdirSync(evil)).toEqual([])
  })

  it('follows a symlink that stays inside, absolute (as a host path) or relative', async () => {
    const root = tempDir()
    fs.mkdirSync(path.join(root, 'usr/lib'), { recursive: true })
    fs.symlinkSync(path.join(root, 'usr/lib'), path.join(root, 'lib'))
    fs.symlinkSync('usr/lib', path.join(root, 'lib2'))
    const machine = Posix.make({ root })
    await ok(machine.writeFileAtomic('/lib/a', bytes('a'), { ...me, mode: 0o644 }, '.t'))
    await ok(machine.writeFileAtomic('/lib2/b', bytes('b'), { ...me, mode: 0o644 }, '.t'))
    expect(fs.readdirSync(path.join(root, 'usr/lib')).sort()).toEqual(['a', 'b'])
  })

  it('refuses a symlink loop with a clear error, not a hang', async () => {
    const root = tempDir()
    fs.symlinkSync('b', path.join(root, 'a'))
    fs.symlinkSync('a', path.join(root, 'b'))
    const f = await fails(Posix.make({ root }).writeFileAtomic('/a/f', bytes('x'), { ...me, mode: 0o644 }, '.t'))
    expect(f._tag).toBe('Failed')
  })
})

describe('durability', () => {
  const counting = (): { calls: string[]; durability: Write.Durability } => {
    const calls: string[] = []
    return {
      calls,
      durability: {
        syncFile: async (fh: FileHandle) => {
          calls.push('file')
          await Write.durable.syncFile(fh)
        },
        syncDirectory: async (host: string) => {
          calls.push(`dir ${host.startsWith('/proc/self/fd/') ? 'handle' : host}`)
          await Write.durable.syncDirectory(host)
        },
      },
    }
  }

  it('fsyncs the file before the rename and its directory after it', async () => {
    const root = tempDir()
    const confine = Confine.make(root)
    const c = counting()
    await Write.writeFileAtomic(confine, '/f', bytes('data'), { ...me, mode: 0o644 }, '.f.tmp', c.durability)
    expect(c.calls).toEqual(['file', 'dir handle'])
    const s = counting()
    await Write.createExclusive(confine, '/lock', bytes('1'), s.durability)
    await Write.append(confine, '/journal', bytes('line\n'), s.durability)
    expect(s.calls).toEqual(['file', 'dir handle', 'file'])
  })

  it('makes the real fsync system calls (seen by strace), for the file and the directory', () => {
    const root = tempDir()
    const script = path.join(tempDir(), 'write.mjs')
    fs.writeFileSync(
      script,
      `import * as P from ${JSON.stringify(path.join(repo, 'dist/interpreters/posix/posix.js'))}
const m = P.make({ root: ${JSON.stringify(root)} })
const r = await m.writeFileAtomic('/f', new TextEncoder().encode('x'), { uid: ${me.uid}, gid: ${me.gid}, mode: 0o644 }, '.f.tmp')()
if (r._tag !== 'Right') process.exit(3)
`,
    )
    expect(binary).toContain('dist')
    const r = spawnSync('strace', ['-f', '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2', process.execPath, script], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const calls = r.stderr.split('\n').filter((l) => /\b(fsync|fdatasync|rename|renameat2?)\(/.test(l)).map((l) => l.replace(/^\[pid\s+\d+\]\s*/, '').replace(/\(.*$/, ''))
    // fsync of the temp file, the rename, then fsync of the directory
    expect(calls).toEqual(['fsync', calls[1], 'fsync'])
    expect(calls[1]).toMatch(/^rename/)
  })
})

describe('files over 2 GiB (item 8)', () => {
  it('are backed up by a streaming copy and hashed in chunks', async () => {
    const root = tempDir()
    const big = path.join(root, 'big')
    const size = 2 ** 31 + 1
    const fd = fs.openSync(big, 'w')
    fs.ftruncateSync(fd, size - 1)
    fs.writeSync(fd, 'z', size - 1)
    fs.closeSync(fd)
    const machine = Posix.make({ root })
    await ok(machine.copy('/big', '/big.bak'))
    const st = fs.statSync(path.join(root, 'big.bak'))
    expect(st.size).toBe(size)
    const tail = Buffer.alloc(1)
    const cfd = fs.openSync(path.join(root, 'big.bak'), 'r')
    fs.readSync(cfd, tail, 0, 1, size - 1)
    fs.closeSync(cfd)
    expect(tail.toString()).toBe('z')
    fs.rmSync(path.join(root, 'big.bak'))
    const p = await ok(machine.probe('/big'))
    expect(p._tag === 'File' && p.probe.entry.size).toBe(size)
    await ok(machine.writeFileAtomic('/big', bytes('small now'), { ...me, mode: 0o644 }, '.big.tmp'))
    expect(fs.readFileSync(big, 'utf8')).toBe('small now')
  }, 120_000)
})

describe('a FIFO or device where a file is read', () => {
  it('is refused by readFile, not waited on', async () => {
    const root = tempDir()
    execFileSync('mkfifo', [path.join(root, 'fifo')])
    const f = await fails(Posix.make({ root }).readFile('/fifo'))
    expect(f.description).toMatch(/not a regular file/)
    await fsp.rm(path.join(root, 'fifo'))
  })
})
