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
