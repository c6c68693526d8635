import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { test as fcTest } from '@fast-check/vitest'
import type { Machine } from '../../../src/interpreters/Machine.js'
import * as Materialize from '../../../src/interpreters/posix/materialize.js'
import * as Posix from '../../../src/interpreters/posix/posix.js'
import * as Proc from '../../../src/interpreters/posix/proc.js'
import { fails, isRoot, ok } from '../../contract/machine.contract.js'
import * as Arb from '../arbitraries.js'

const roots: string[] = []
afterEach(async () => {
  for (const r of roots.splice(0)) await fs.rm(r, { recursive: true, force: true })
})
const tempRoot = async (): Promise<string> => {
  const r = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-posix-'))
  roots.push(r)
  return r
}
const me = { uid: process.getuid!(), gid: process.getgid!() }
const bytes = (s: string) => new TextEncoder().encode(s)

/** A temp root holding /real/f, /alias -> real (inside), /etclink -> /etc and /up -> .. (outside). */
const confinedMachine = async (): Promise<{ root: string; machine: Machine }> => {
  const root = await tempRoot()
  await fs.mkdir(`${root}/real`)
  await fs.writeFile(`${root}/real/f`, 'inside')
  await fs.symlink('real', `${root}/alias`)
  await fs.symlink('/etc', `${root}/etclink`)
  await fs.symlink('..', `${root}/up`)
  await fs.mkdir(`${root}/a/b`, { recursive: true })
  await fs.symlink('../../..', `${root}/a/b/out`)
  return { root, machine: Posix.make({ root }) }
}

describe('posix: confinement below a root', () => {
  it('refuses a path through a symlink to a directory outside the root, naming where it resolved', async () => {
    const { machine } = await confinedMachine()
    const f = await fails(machine.probe('/etclink/passwd'))
    expect([f._tag, f.module, f.op, f.subject]).toEqual(['Escape', 'posix', 'probe', '/etclink/passwd'])
    expect(f.description).toContain('/etclink resolves to /etc')
    const tags = [
      await fails(machine.readFile('/etclink/passwd')),
      await fails(machine.writeFileAtomic('/etclink/plait-test', bytes('x'), { ...me, mode: 0o644 }, '.t')),
      await fails(machine.mkdirp('/etclink/plait-test/x', { ...me, mode: 0o755 })),
      await fails(machine.setAttrs('/etclink/passwd', { ...me, mode: 0o600 })),
      await fails(machine.remove('/etclink/passwd', { recursive: false })),
      await fails(machine.copy('/etclink/passwd', '/stolen')),
      await fails(machine.rename('/real/f', '/etclink/f')),
      await fails(machine.append('/etclink/plait-test', bytes('x'))),
    ].map((x) => x._tag)
    expect(new Set(tags)).toEqual(new Set(['Escape']))
    await expect(fs.lstat('/etc/plait-test')).rejects.toThrow()
  })

  it('refuses a path through a relative symlink that climbs out of the root', async () => {
    const { machine } = await confinedMachine()
    expect((await fails(machine.probe('/up/x')))._tag).toBe('Escape')
    expect((await fails(machine.probe('/a/b/out/etc/passwd')))._tag).toBe('Escape')
    expect((await fails(machine.readdir('/up/tmp')))._tag).toBe('Escape')
  })

  it('never follows the final component, so the outward symlink itself can be observed and removed', async () => {
    const { root, machine } = await confinedMachine()
    const p = await ok(machine.probe('/etclink'))
    expect(p._tag === 'Symlink' && p.target).toBe('/etc')
    expect((await fails(machine.readdir('/etclink')))._tag).toBe('NotADirectory')
    await ok(machine.remove('/etclink', { recursive: true }))
    await expect(fs.lstat(`${root}/etclink`)).rejects.toThrow()
    await expect(fs.lstat('/etc/passwd')).resolves.toBeDefined()
  })

  it('allows a symlink that stays inside the root', async () => {
    const { machine } = await confinedMachine()
    const p = await ok(machine.probe('/alias/f'))
    expect(p._tag === 'File' && p.probe.sha256).toBe(createHash('sha256').update('inside').digest('hex'))
  })

  it('forgets cached directories that a remove or rename changed', async () => {
    const { root, machine } = await confinedMachine()
    expect((await ok(machine.probe('/alias/f')))._tag).toBe('File')
    await ok(machine.remove('/alias', { recursive: false }))
    await fs.symlink('/etc', `${root}/alias`)
    expect((await fails(machine.probe('/alias/passwd')))._tag).toBe('Escape')
    await ok(machine.remove('/alias', { recursive: false }))
    await ok(machine.mkdirp('/alias', { ...me, mode: 0o755 }))
    await ok(machine.writeFileAtomic('/alias/g', bytes('g'), { ...me, mode: 0o644 }, '.g.tmp'))
    expect(await fs.readFile(`${root}/alias/g`, 'utf8')).toBe('g')
    await expect(fs.lstat(`${root}/real/g`)).rejects.toThrow()
    await ok(machine.rename('/real', '/real2'))
    expect(await ok(machine.probe('/real/f'))).toEqual({ _tag: 'Absent' })
    expect((await ok(machine.probe('/real2/f')))._tag).toBe('File')
  })

  it('records the root it is confined to, and refuses a root that does not exist', async () => {
    const root = await tempRoot()
    expect(Posix.make({ root: root + '/' }).root).toBe(root)
    const f = await fails(Posix.make({ root: root + '/missing' }).probe('/x'))
    expect(f._tag).toBe('NotFound')
  })
})

describe('posix: unconfined (root "/")', () => {
  it('works on host paths directly', async () => {
    const root = await tempRoot()
    await fs.writeFile(`${root}/f`, 'host')
    const machine = Posix.make()
    expect(machine.root).toBe('/')
    const p = await ok(machine.probe(`${root}/f`))
    expect(p._tag === 'File' && p.probe.entry.size).toBe(4)
    expect((await fails(machine.probe('relative')))._tag).toBe('Escape')
  })

  it('reads the host accounts', async () => {
    const accounts = await ok(Posix.make().accounts())
    expect(accounts.users.get('root')).toBe(0)
    expect(accounts.groupNames.get(0)).toBe('root')
  })

  it('reads its own start time from /proc', async () => {
    const machine = Posix.make()
    const own = Proc.startTime(await fs.readFile('/proc/self/stat', 'utf8'))
    expect(await ok(machine.processStart(process.pid))).toBe(E.isRight(own) ? own.right : 'unreadable')
    expect(await ok(machine.processStart(-1))).toBeNull()
  })
})

describe('posix: probe', () => {
  it('reports a fifo as Other', async () => {
    const root = await tempRoot()
    execFileSync('mkfifo', [`${root}/fifo`])
    const p = await ok(Posix.make({ root }).probe('/fifo'))
    expect(p._tag === 'Other' && p.entry.kind).toBe('other')
  })

  it('hashes a file larger than it reads at once', async () => {
    const root = await tempRoot()
    const data = Buffer.alloc(17 * 1024 * 1024 + 3, 7)
    await fs.writeFile(`${root}/big`, data)
    const p = await ok(Posix.make({ root }).probe('/big', { contentUnless: 'x' }))
    expect(p._tag === 'File' && p.probe.sha256).toBe(createHash('sha256').update(data).digest('hex'))
    expect(p._tag === 'File' && p.probe.content).toBeUndefined()
  })
})

describe('posix: materialize and capture', () => {
  describe.skipIf(!isRoot)('as root (chown to any owner)', () => {
    fcTest.prop([Arb.snapshot({ size: 10 })], { numRuns: 40 })('capture(materialize(s)) equals s', async (s) => {
    const root = await tempRoot()
    const written = await Materialize.materialize(s, root)()
    expect(written).toEqual(E.right(undefined))
    expect(await Materialize.capture(root, s)()).toEqual(E.right(s))
    })
  })

  it('refuses to write over an existing entry', async () => {
    const root = await tempRoot()
    await fs.writeFile(`${root}/f`, 'x')
    const s = (await Materialize.capture(root)()) as E.Right<never>
    const again = await Materialize.materialize(s.right, root)()
    expect(E.isLeft(again) && again.left._tag).toBe('Exists')
  })
})
