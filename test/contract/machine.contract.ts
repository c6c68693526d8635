// The contract every Machine interpreter passes: the same behaviours, faults and resulting machine,
// whichever interpreter runs them (posix under a temp root, memory, ...).
import { createHash } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { Fault } from '../../src/core/Fault.js'
import type { Attrs, Machine } from '../../src/interpreters/Machine.js'
import * as MachineFile from '../../src/interpreters/memory/machineFile.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

export interface Harness {
  readonly machine: Machine
  readonly snapshot: () => Promise<Snapshot.Snapshot>
  readonly cleanup: () => Promise<void>
}

/** Whether this process may chown to other users (root); otherwise every owner is this process's. */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
const uid = isRoot ? 0 : process.getuid!()
const gid = isRoot ? 0 : process.getgid!()
/** The "other" user of the fixture: 1000 as root, else this process's own ids. */
export const app = { uid: isRoot ? 1000 : uid, gid: isRoot ? 1000 : gid }

/** The machine every contract test starts from. */
export const fixture: Snapshot.Snapshot = (() => {
  const text = `
users: { root: ${uid}, app: ${app.uid} }
groups: { root: ${gid}, app: ${app.gid} }
files:
  /: { type: directory, owner: root, group: root, mode: "0755" }
  /etc: { type: directory, owner: root, group: root, mode: "0755" }
  /etc/motd: { content: "hello\\n", owner: root, group: root, mode: "0644" }
  /etc/app.conf: { content: "a=1\\n", owner: app, group: app, mode: "0640" }
  /etc/logo.bin: { base64: "AAEC/w==", owner: root, group: root, mode: "0600" }
  /etc/current: { type: symlink, target: motd, owner: root, group: root }
  /etc/empty: { type: directory, owner: root, group: root, mode: "0700" }
  /srv: { type: directory, owner: root, group: root, mode: "0755" }
  /srv/data: { type: directory, owner: app, group: app, mode: "0750" }
  /srv/data/a.txt: { content: "a", owner: app, group: app, mode: "0644" }
  /srv/data/sub: { type: directory, owner: app, group: app, mode: "0755" }
  /srv/data/sub/b.txt: { content: "b", owner: root, group: app, mode: "0664" }
  /srv/link: { type: symlink, target: data, owner: root, group: root }
`
  const parsed = MachineFile.parse(text)
  if (E.isLeft(parsed)) throw new Error(parsed.left)
  return parsed.right
})()

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)
const text = (b: Uint8Array): string => new TextDecoder().decode(b)
const sha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex')
const attrs = (mode: number, who: { uid: number; gid: number } = app): Attrs => ({ uid: who.uid, gid: who.gid, mode })

/** Runs a task that must succeed and returns its value. */
export const ok = async <A>(task: TE.TaskEither<Fault, A>): Promise<A> => {
  const r = await task()
  if (E.isLeft(r)) throw new Error(`expected success, got ${r.left._tag}: ${r.left.op} ${r.left.subject}: ${r.left.description}`)
  return r.right
}

/** Runs a task that must fail and returns its fault. */
export const fails = async <A>(task: TE.TaskEither<Fault, A>): Promise<Fault> => {
  const r = await task()
  if (E.isRight(r)) throw new Error(`expected a fault, got success: ${JSON.stringify(r.right)}`)
  return r.left
}

/** Runs `body` with a restrictive umask, which no primitive may let through. */
const withUmask = async <A>(mask: number, body: () => Promise<A>): Promise<A> => {
  const old = process.umask(mask)
  try {
    return await body()
  } finally {
    process.umask(old)
  }
}

/** Registers the contract suite for one interpreter. */
export const describeMachineContract = (name: string, factory: (snapshot: Snapshot.Snapshot) => Promise<Harness>): void => {
  describe(`Machine contract: ${name}`, () => {
    const open: Harness[] = []
    afterEach(async () => {
      for (const h of open.splice(0)) await h.cleanup()
    })
    const start = async (snapshot: Snapshot.Snapshot = fixture): Promise<Harness> => {
      const h = await factory(snapshot)
      open.push(h)
      return h
    }
    const unchanged = async (h: Harness): Promise<void> => expect(await h.snapshot()).toEqual(fixture)

    describe('snapshot', () => {
      it('starts from the snapshot it was given', async () => {
        await unchanged(await start())
      })
    })

    describe('probe', () => {
      it('reports a missing path, and a path below a file, as Absent', async () => {
        const { machine } = await start()
        expect(await ok(machine.probe('/nope'))).toEqual({ _tag: 'Absent' })
        expect(await ok(machine.probe('/nope/deeper'))).toEqual({ _tag: 'Absent' })
        expect(await ok(machine.probe('/etc/motd/x'))).toEqual({ _tag: 'Absent' })
      })

      it('reports a regular file with its entry and the sha256 of its bytes', async () => {
        const { machine } = await start()
        const p = await ok(machine.probe('/etc/app.conf'))
        expect(p).toEqual({ _tag: 'File', probe: { entry: { kind: 'file', uid: app.uid, gid: app.gid, mode: 0o640, size: 4 }, sha256: sha('a=1\n') } })
        const bin = await ok(machine.probe('/etc/logo.bin'))
        expect(bin._tag === 'File' && bin.probe.sha256).toBe(sha(new Uint8Array([0, 1, 2, 255])))
        expect(bin._tag === 'File' && bin.probe.sha256).toMatch(/^[0-9a-f]{64}$/)
      })

      it('returns content only when asked, when the hash differs and the file is within the limit', async () => {
        const { machine } = await start()
        const content = async (options: { contentUnless?: string; contentLimit?: number }) => {
          const p = await ok(machine.probe('/etc/motd', options))
          if (p._tag !== 'File') throw new Error('not a file')
          return p.probe.content === undefined ? undefined : text(p.probe.content)
        }
        expect(await content({})).toBeUndefined()
        expect(await content({ contentUnless: sha('hello\n') })).toBeUndefined()
        expect(await content({ contentUnless: sha('other') })).toBe('hello\n')
        expect(await content({ contentUnless: sha('other'), contentLimit: 6 })).toBe('hello\n')
        expect(await content({ contentUnless: sha('other'), contentLimit: 5 })).toBeUndefined()
      })

      it('limits content to 1 MiB by default', async () => {
        const { machine } = await start()
        const mib = 1024 * 1024
        await ok(machine.writeFileAtomic('/etc/big', new Uint8Array(mib + 1).fill(97), attrs(0o644), '.big.tmp'))
        await ok(machine.writeFileAtomic('/etc/fits', new Uint8Array(mib).fill(97), attrs(0o644), '.fits.tmp'))
        const big = await ok(machine.probe('/etc/big', { contentUnless: 'x' }))
        const fits = await ok(machine.probe('/etc/fits', { contentUnless: 'x' }))
        expect(big._tag === 'File' && big.probe.content).toBeUndefined()
        expect(big._tag === 'File' && big.probe.entry.size).toBe(mib + 1)
        expect(fits._tag === 'File' && fits.probe.content?.length).toBe(mib)
      })

      it('reports directories with whether they are empty', async () => {
        const { machine } = await start()
        const etc = await ok(machine.probe('/etc'))
        const empty = await ok(machine.probe('/etc/empty'))
        const root = await ok(machine.probe('/'))
        expect(etc._tag === 'Directory' && etc.empty).toBe(false)
        expect(empty._tag === 'Directory' && empty.empty).toBe(true)
        expect(empty._tag === 'Directory' && [empty.entry.kind, empty.entry.uid, empty.entry.mode]).toEqual(['directory', uid, 0o700])
        expect(root._tag).toBe('Directory')
      })

      it('reports a symlink as a Symlink with its target, never following it', async () => {
        const { machine } = await start()
        const p = await ok(machine.probe('/etc/current'))
        expect(p._tag).toBe('Symlink')
        if (p._tag !== 'Symlink') return
        expect(p.target).toBe('motd')
        expect([p.entry.kind, p.entry.uid, p.entry.size]).toEqual(['symlink', uid, 4])
      })

      it('follows a symlinked directory in the parent chain', async () => {
        const { machine } = await start()
        const p = await ok(machine.probe('/srv/link/a.txt'))
        expect(p._tag === 'File' && p.probe.sha256).toBe(sha('a'))
      })
    })

    describe('probeAll', () => {
      const paths = ['/etc/motd', '/etc/app.conf', '/nope', '/nope/deeper', '/etc/motd/x', '/etc/current', '/srv/link/a.txt', '/', '/etc', '/etc/logo.bin', '/etc/motd', 'etc/relative', '/etc/../etc/motd']

      it('gives every path, in order, what probe gives it (absent paths, symlinked parents, repeats, bad paths)', async () => {
        const { machine } = await start()
        const requests = paths.map((path, i) => ({ path, ...(i % 2 === 0 ? { options: { contentUnless: sha('other') } } : {}) }))
        const each = await Promise.all(requests.map((r) => machine.probe(r.path, r.options)()))
        expect(await machine.probeAll(requests)()).toEqual(each)
        expect(each.filter(E.isLeft).map((f) => f.left._tag)).toEqual(['Escape', 'Escape'])
      })

      it('answers an empty batch with nothing, and changes nothing', async () => {
        const h = await start()
        expect(await h.machine.probeAll([])()).toEqual([])
        await h.machine.probeAll(paths.map((path) => ({ path })))()
        await unchanged(h)
      })
    })

    describe('path validation', () => {
      const bad = ['etc/motd', '', '/etc/../etc/motd', '/etc/./motd', '//etc', '/etc/', '/etc//motd', '/..']
      it.each(bad)('refuses %j with an Escape fault, in every primitive', async (path) => {
        const { machine, snapshot } = await start()
        const a = attrs(0o644)
        const faults = [
          await fails(machine.probe(path)),
          await fails(machine.readFile(path)),
          await fails(machine.readdir(path)),
          await fails(machine.writeFileAtomic(path, bytes('x'), a, '.t')),
          await fails(machine.mkdirp(path, a)),
          await fails(machine.setAttrs(path, a)),
          await fails(machine.remove(path, { recursive: true })),
          await fails(machine.rename(path, '/x')),
          await fails(machine.rename('/etc/motd', path)),
          await fails(machine.copy(path, '/x')),
          await fails(machine.copy('/etc/motd', path)),
          await fails(machine.createExclusive(path, bytes('x'))),
          await fails(machine.append(path, bytes('x'))),
        ]
        expect(faults.map((f) => f._tag)).toEqual(faults.map(() => 'Escape'))
        expect(await snapshot()).toEqual(fixture)
      })

      it('refuses a temp name that is not a plain file name', async () => {
        const h = await start()
        for (const t of ['', '.', '..', '../x', 'a/b']) {
          expect((await fails(h.machine.writeFileAtomic('/etc/motd', bytes('x'), attrs(0o644), t)))._tag).toBe('Escape')
        }
        await unchanged(h)
      })
    })

    describe('writeFileAtomic', () => {
      it('creates a file with the exact mode (whatever the umask) and owner', async () => {
        const h = await start()
        await withUmask(0o077, () => ok(h.machine.writeFileAtomic('/etc/new.conf', bytes('new\n'), attrs(0o664), '.new.conf.plait-tmp')))
        const s = await h.snapshot()
        expect(s.files['/etc/new.conf']).toEqual(Snapshot.file('new\n', attrs(0o664)))
        expect(Object.keys(s.files).filter((p) => p.includes('plait-tmp'))).toEqual([])
      })

      it('replaces an existing file and leaves no temp file', async () => {
        const h = await start()
        await ok(h.machine.writeFileAtomic('/etc/motd', bytes('bye\n'), attrs(0o600, { uid, gid }), '.motd.tmp'))
        const s = await h.snapshot()
        expect(s.files['/etc/motd']).toEqual(Snapshot.file('bye\n', { uid, gid, mode: 0o600 }))
        expect(await ok(h.machine.readdir('/etc'))).toEqual(['app.conf', 'current', 'empty', 'logo.bin', 'motd'])
      })

      it('replaces a symlink at the target rather than following it', async () => {
        const h = await start()
        await ok(h.machine.writeFileAtomic('/etc/current', bytes('own\n'), attrs(0o644), '.current.tmp'))
        const s = await h.snapshot()
        expect(s.files['/etc/current']).toEqual(Snapshot.file('own\n', attrs(0o644)))
        expect(s.files['/etc/motd']).toEqual(fixture.files['/etc/motd'])
      })

      it('writes through a symlinked parent directory', async () => {
        const h = await start()
        await ok(h.machine.writeFileAtomic('/srv/link/c.txt', bytes('c'), attrs(0o644), '.c.tmp'))
        expect(Snapshot.text(await h.snapshot(), '/srv/data/c.txt')).toBe('c')
      })

      it('fails with NotFound naming a missing parent directory', async () => {
        const h = await start()
        const f = await fails(h.machine.writeFileAtomic('/nope/x.conf', bytes('x'), attrs(0o644), '.x.tmp'))
        expect([f._tag, f.op, f.subject]).toEqual(['NotFound', 'writeFileAtomic', '/nope/x.conf'])
        expect(f.description).toBe('parent directory /nope does not exist')
        await unchanged(h)
      })

      it('fails with NotADirectory when the parent is a file', async () => {
        const h = await start()
        expect((await fails(h.machine.writeFileAtomic('/etc/motd/x', bytes('x'), attrs(0o644), '.x.tmp')))._tag).toBe('NotADirectory')
        await unchanged(h)
      })

      it('leaves the target untouched and no temp file when the rename fails', async () => {
        const h = await start()
        expect((await fails(h.machine.writeFileAtomic('/etc/empty', bytes('x'), attrs(0o644), '.empty.tmp')))._tag).toBe('IsADirectory')
        await unchanged(h)
      })

      it('refuses a temp name that exists, leaving that file alone', async () => {
        const h = await start()
        expect((await fails(h.machine.writeFileAtomic('/etc/motd', bytes('x'), attrs(0o644), 'app.conf')))._tag).toBe('Exists')
        await unchanged(h)
      })
    })

    describe('mkdirp', () => {
      it('creates missing directories outermost first, each with the exact attrs', async () => {
        const h = await start()
        const created = await withUmask(0o077, () => ok(h.machine.mkdirp('/opt/a/b', attrs(0o751))))
        expect(created).toEqual(['/opt', '/opt/a', '/opt/a/b'])
        const s = await h.snapshot()
        for (const p of created) expect(s.files[p]).toEqual(Snapshot.directory(attrs(0o751)))
      })

      it('creates only what is missing and leaves existing ancestors alone', async () => {
        const h = await start()
        expect(await ok(h.machine.mkdirp('/etc/empty/x/y', attrs(0o700)))).toEqual(['/etc/empty/x', '/etc/empty/x/y'])
        expect((await h.snapshot()).files['/etc/empty']).toEqual(fixture.files['/etc/empty'])
        expect(await ok(h.machine.mkdirp('/etc/empty/x/y/z', attrs(0o700)))).toEqual(['/etc/empty/x/y/z']) // the parent there: one level
        expect((await h.snapshot()).files['/etc/empty/x/y']).toEqual(Snapshot.directory(attrs(0o700)))
      })

      it('applies the attrs to an existing directory and creates nothing', async () => {
        const h = await start()
        expect(await ok(h.machine.mkdirp('/etc/empty', attrs(0o711)))).toEqual([])
        expect((await h.snapshot()).files['/etc/empty']).toEqual(Snapshot.directory(attrs(0o711)))
      })

      it('follows a symlinked ancestor', async () => {
        const h = await start()
        expect(await ok(h.machine.mkdirp('/srv/link/new', attrs(0o755)))).toEqual(['/srv/link/new'])
        expect((await h.snapshot()).files['/srv/data/new']).toEqual(Snapshot.directory(attrs(0o755)))
      })

      it('fails with Exists for a non-directory at the path and NotADirectory for one above it', async () => {
        const h = await start()
        expect((await fails(h.machine.mkdirp('/etc/motd', attrs(0o755))))._tag).toBe('Exists')
        expect((await fails(h.machine.mkdirp('/etc/current', attrs(0o755))))._tag).toBe('Exists')
        expect((await fails(h.machine.mkdirp('/etc/motd/x/y', attrs(0o755))))._tag).toBe('NotADirectory')
        expect((await fails(h.machine.mkdirp('/etc/motd/x', attrs(0o755))))._tag).toBe('NotADirectory') // the parent itself
        await unchanged(h)
      })
    })

    describe('setAttrs', () => {
      it('changes owner, group and mode of a file and a directory', async () => {
        const h = await start()
        await ok(h.machine.setAttrs('/etc/motd', attrs(0o600)))
        await ok(h.machine.setAttrs('/srv/data', attrs(0o700, { uid, gid })))
        const s = await h.snapshot()
        expect(s.files['/etc/motd']).toEqual(Snapshot.file('hello\n', attrs(0o600)))
        expect(s.files['/srv/data']).toEqual(Snapshot.directory({ uid, gid, mode: 0o700 }))
      })

      it('changes only the owner of a symlink, never its target', async () => {
        const h = await start()
        await ok(h.machine.setAttrs('/etc/current', attrs(0o600)))
        const s = await h.snapshot()
        expect(s.files['/etc/current']).toEqual(Snapshot.symlink('motd', app))
        expect(s.files['/etc/motd']).toEqual(fixture.files['/etc/motd'])
      })

      it('fails with NotFound for a missing path', async () => {
        const h = await start()
        expect((await fails(h.machine.setAttrs('/nope', attrs(0o600))))._tag).toBe('NotFound')
      })
    })

    describe('remove', () => {
      it('removes a file, a symlink (not its target) and an empty directory', async () => {
        const h = await start()
        await ok(h.machine.remove('/etc/motd', { recursive: false }))
        await ok(h.machine.remove('/srv/link', { recursive: false }))
        await ok(h.machine.remove('/etc/empty', { recursive: false }))
        const s = await h.snapshot()
        expect(Object.keys(s.files).filter((p) => ['/etc/motd', '/srv/link', '/etc/empty'].includes(p))).toEqual([])
        expect(s.files['/srv/data']).toEqual(fixture.files['/srv/data'])
      })

      it('refuses a non-empty directory without recursive, and removes the tree with it', async () => {
        const h = await start()
        expect((await fails(h.machine.remove('/srv/data', { recursive: false })))._tag).toBe('NotEmpty')
        await unchanged(h)
        await ok(h.machine.remove('/srv/data', { recursive: true }))
        expect(Object.keys(await h.snapshot().then((s) => s.files)).filter((p) => p.startsWith('/srv/data'))).toEqual([])
      })

      it('fails with NotFound for a missing path and refuses the root', async () => {
        const h = await start()
        expect((await fails(h.machine.remove('/nope', { recursive: true })))._tag).toBe('NotFound')
        expect((await fails(h.machine.remove('/', { recursive: true })))._tag).toBe('Failed')
        await unchanged(h)
      })
    })

    describe('rename', () => {
      it('moves a file, replacing a file at the destination', async () => {
        const h = await start()
        await ok(h.machine.rename('/etc/motd', '/etc/app.conf'))
        const s = await h.snapshot()
        expect(s.files['/etc/motd']).toBeUndefined()
        expect(s.files['/etc/app.conf']).toEqual(fixture.files['/etc/motd'])
      })

      it('moves a directory with its whole tree', async () => {
        const h = await start()
        await ok(h.machine.rename('/srv/data', '/moved'))
        const s = await h.snapshot()
        expect(s.files['/moved/sub/b.txt']).toEqual(fixture.files['/srv/data/sub/b.txt'])
        expect(s.files['/moved']).toEqual(fixture.files['/srv/data'])
        expect(s.files['/srv/data']).toBeUndefined()
      })

      it('fails as rename(2) does', async () => {
        const h = await start()
        const tag = async (from: string, to: string) => (await fails(h.machine.rename(from, to)))._tag
        expect(await tag('/nope', '/x')).toBe('NotFound')
        expect(await tag('/etc/motd', '/nope/x')).toBe('NotFound')
        expect(await tag('/etc/motd', '/etc/empty')).toBe('IsADirectory')
        expect(await tag('/srv/data', '/etc/motd')).toBe('NotADirectory')
        expect(await tag('/etc/empty', '/srv/data')).toBe('NotEmpty')
        expect(await tag('/srv/data', '/srv/data/sub/x')).toBe('Failed')
        await unchanged(h)
      })
    })

    describe('copy', () => {
      it('copies a file with its owner, group and mode', async () => {
        const h = await start()
        await ok(h.machine.copy('/etc/app.conf', '/etc/app.conf.bak'))
        expect((await h.snapshot()).files['/etc/app.conf.bak']).toEqual(fixture.files['/etc/app.conf'])
      })

      it('copies a tree with its symlinks and attributes', async () => {
        const h = await start()
        await ok(h.machine.copy('/srv', '/backup'))
        const s = await h.snapshot()
        for (const [p, n] of Object.entries(fixture.files)) {
          if (p.startsWith('/srv')) expect([p, s.files[p.replace(/^\/srv/, '/backup')]]).toEqual([p, n])
        }
      })

      it('copies files of every size around its chunk of 1 MiB byte for byte (the buffer is sized to the file)', async () => {
        const h = await start()
        const mib = 1024 * 1024
        const sizes = [0, 1, mib - 1, mib, mib + 1, 2 * mib + 3]
        const bytesOf = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) % 251)
        for (const n of sizes) await ok(h.machine.writeFileAtomic(`/srv/size${n}`, bytesOf(n), attrs(0o644), `.size${n}.tmp`))
        await ok(h.machine.copy('/srv', '/sized'))
        for (const n of sizes) expect(Buffer.from(await ok(h.machine.readFile(`/sized/size${n}`))).equals(Buffer.from(bytesOf(n)))).toBe(true)
      })

      it('copies a symlink as a symlink', async () => {
        const h = await start()
        await ok(h.machine.copy('/etc/current', '/etc/current2'))
        expect((await h.snapshot()).files['/etc/current2']).toEqual(fixture.files['/etc/current'])
      })

      it('refuses an existing destination, a missing source or parent, and a copy into itself', async () => {
        const h = await start()
        const tag = async (from: string, to: string) => (await fails(h.machine.copy(from, to)))._tag
        expect(await tag('/etc/motd', '/etc/app.conf')).toBe('Exists')
        expect(await tag('/etc/motd', '/etc/empty')).toBe('Exists')
        expect(await tag('/nope', '/x')).toBe('NotFound')
        expect(await tag('/etc/motd', '/nope/x')).toBe('NotFound')
        expect(await tag('/srv', '/srv/data/inside')).toBe('Failed')
        await unchanged(h)
      })
    })

    describe('state files', () => {
      it('createExclusive writes a new file and refuses an existing one', async () => {
        const h = await start()
        await ok(h.machine.mkdirp('/var/lib/plait', attrs(0o700, { uid, gid })))
        await ok(h.machine.createExclusive('/var/lib/plait/lock', bytes('4242 1000\n')))
        expect(text(await ok(h.machine.readFile('/var/lib/plait/lock')))).toBe('4242 1000\n')
        const again = await fails(h.machine.createExclusive('/var/lib/plait/lock', bytes('other')))
        expect([again._tag, again.op, again.subject]).toEqual(['Exists', 'createExclusive', '/var/lib/plait/lock'])
        expect(text(await ok(h.machine.readFile('/var/lib/plait/lock')))).toBe('4242 1000\n')
        expect((await fails(h.machine.createExclusive('/nope/lock', bytes('x'))))._tag).toBe('NotFound')
        const probe = await ok(h.machine.probe('/var/lib/plait/lock'))
        expect(probe._tag === 'File' && probe.probe.entry.mode).toBe(0o600)
      })

      it('append creates a file and appends records in order', async () => {
        const h = await start()
        await ok(h.machine.append('/etc/journal', bytes('one\n')))
        await ok(h.machine.append('/etc/journal', bytes('two\n')))
        expect(text(await ok(h.machine.readFile('/etc/journal')))).toBe('one\ntwo\n')
        expect((await fails(h.machine.append('/etc/empty', bytes('x'))))._tag).toBe('IsADirectory')
        expect((await fails(h.machine.append('/nope/journal', bytes('x'))))._tag).toBe('NotFound')
      })
    })

    describe('readFile and readdir', () => {
      it('readFile returns the bytes, and fails on a missing path, a directory and a symlink', async () => {
        const h = await start()
        expect([...(await ok(h.machine.readFile('/etc/logo.bin')))]).toEqual([0, 1, 2, 255])
        expect((await fails(h.machine.readFile('/nope')))._tag).toBe('NotFound')
        expect((await fails(h.machine.readFile('/etc')))._tag).toBe('IsADirectory')
        expect((await fails(h.machine.readFile('/etc/current')))._tag).toBe('Failed')
      })

      it('readdir lists names sorted, and fails on a missing path, a file and a symlink', async () => {
        const h = await start()
        for (const name of ['zeta', 'Alpha', 'beta', '_x', '10', '9']) await ok(h.machine.mkdirp(`/etc/empty/${name}`, attrs(0o755)))
        expect(await ok(h.machine.readdir('/etc/empty'))).toEqual(['10', '9', 'Alpha', '_x', 'beta', 'zeta'])
        expect(await ok(h.machine.readdir('/'))).toEqual(['etc', 'srv'])
        expect((await fails(h.machine.readdir('/nope')))._tag).toBe('NotFound')
        expect((await fails(h.machine.readdir('/etc/motd')))._tag).toBe('NotADirectory')
        expect((await fails(h.machine.readdir('/srv/link')))._tag).toBe('NotADirectory')
      })
    })

    describe('host', () => {
      it('reads the accounts', async () => {
        const { machine } = await start()
        const accounts = await ok(machine.accounts())
        expect(accounts.users.get('app')).toBe(app.uid)
        expect(accounts.groups.get('app')).toBe(app.gid)
        expect(accounts.users.get('root')).toBe(uid)
        if (isRoot) expect(accounts.userNames.get(0)).toBe('root')
      })

      it('knows its own process start and no start for a process that does not run', async () => {
        const { machine } = await start()
        expect(Number.isSafeInteger(machine.pid()) && machine.pid() > 0).toBe(true)
        expect(await ok(machine.processStart(machine.pid()))).toMatch(/^[0-9]+$/)
        expect(await ok(machine.processStart(99_999_999))).toBeNull()
      })
    })

    describe('a run of mutations', () => {
      it('leaves exactly the expected machine', async () => {
        const h = await start()
        await ok(h.machine.mkdirp('/etc/app.d', attrs(0o750)))
        await ok(h.machine.writeFileAtomic('/etc/app.d/x.conf', bytes('x=1\n'), attrs(0o640), '.x.conf.tmp'))
        await ok(h.machine.copy('/etc/motd', '/etc/motd.orig'))
        await ok(h.machine.writeFileAtomic('/etc/motd', bytes('changed\n'), attrs(0o644, { uid, gid }), '.motd.tmp'))
        await ok(h.machine.remove('/srv', { recursive: true }))
        const { '/srv': _a, '/srv/data': _b, '/srv/data/a.txt': _c, '/srv/data/sub': _d, '/srv/data/sub/b.txt': _e, '/srv/link': _f, ...kept } = fixture.files
        const expected = Snapshot.make(
          {
            ...kept,
            '/etc/app.d': Snapshot.directory(attrs(0o750)),
            '/etc/app.d/x.conf': Snapshot.file('x=1\n', attrs(0o640)),
            '/etc/motd': Snapshot.file('changed\n', { uid, gid, mode: 0o644 }),
            '/etc/motd.orig': fixture.files['/etc/motd']!,
          },
          fixture,
        )
        if (E.isLeft(expected)) throw new Error(expected.left)
        expect(await h.snapshot()).toEqual(expected.right)
      })
    })
  })
}
