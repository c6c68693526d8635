import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import type { Fault } from '../../../src/core/Fault.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import * as MachineFile from '../../../src/interpreters/memory/machineFile.js'
import type { Attrs } from '../../../src/interpreters/Machine.js'
import * as Snapshot from '../../../src/interpreters/Snapshot.js'
import { fails, ok } from '../../contract/machine.contract.js'

const start = (() => {
  const r = MachineFile.parse(`
files:
  /etc/motd: { content: "old\\n" }
  /etc/other: { content: "x" }
  /srv/data: { type: directory }
`)
  if (E.isLeft(r)) throw new Error(r.left)
  return r.right
})()
const bytes = (s: string) => new TextEncoder().encode(s)
const attrs: Attrs = { uid: 0, gid: 0, mode: 0o644 }

describe('memory machine: failAt', () => {
  it('fails the Nth mutation with the given tag and no effect, and counts every mutation', async () => {
    const m = Memory.make(start, { failAt: { mutation: 2, tag: 'PermissionDenied' } })
    await ok(m.mkdirp('/opt', attrs))
    const f = await fails(m.writeFileAtomic('/etc/motd', bytes('new\n'), attrs, '.motd.tmp'))
    expect([f._tag, f.module, f.op, f.subject]).toEqual(['PermissionDenied', 'memory', 'writeFileAtomic', '/etc/motd'])
    expect(Snapshot.text(m.snapshot(), '/etc/motd')).toBe('old\n')
    expect(await ok(m.readdir('/etc'))).toEqual(['motd', 'other'])
    await ok(m.writeFileAtomic('/etc/motd', bytes('new\n'), attrs, '.motd.tmp'))
    expect(Snapshot.text(m.snapshot(), '/etc/motd')).toBe('new\n')
    expect(m.mutations).toBe(3)
  })

  it('does not count observations', async () => {
    const m = Memory.make(start)
    await ok(m.probe('/etc/motd'))
    await ok(m.readFile('/etc/motd'))
    await ok(m.readdir('/'))
    expect(m.mutations).toBe(0)
    await ok(m.append('/etc/journal', bytes('x')))
    await ok(m.createExclusive('/etc/lock', bytes('x')))
    expect(m.mutations).toBe(2)
  })
})

describe('memory machine: crashAt', () => {
  it('leaves the temp file of a crashed atomic write, then answers every call with Crashed', async () => {
    const m = Memory.make(start, { crashAt: 2 })
    await ok(m.mkdirp('/opt', attrs))
    const f = await fails(m.writeFileAtomic('/etc/motd', bytes('new\n'), { uid: 1000, gid: 1000, mode: 0o600 }, '.motd.tmp'))
    expect(f._tag).toBe('Crashed')
    expect(m.crashed).toBe(true)
    const s = m.snapshot()
    expect(Snapshot.text(s, '/etc/motd')).toBe('old\n')
    expect(s.files['/etc/.motd.tmp']).toEqual(Snapshot.file('new\n', { uid: 1000, gid: 1000, mode: 0o600 }))
    const tags = [
      await fails(m.probe('/etc/motd')),
      await fails(m.readFile('/etc/motd')),
      await fails(m.readdir('/etc')),
      await fails(m.accounts()),
      await fails(m.processStart(m.pid())),
      await fails(m.mkdirp('/x', attrs)),
      await fails(m.append('/etc/j', bytes('x'))),
      await fails(m.remove('/etc/motd', { recursive: false })),
    ].map((x) => x._tag)
    expect(new Set(tags)).toEqual(new Set(['Crashed']))
    expect(m.snapshot()).toEqual(s)
  })

  it('gives a crashed mutation other than an atomic write no effect', async () => {
    const crashes: ReadonlyArray<(m: Memory.MemoryMachine) => TE.TaskEither<Fault, unknown>> = [
      (m: Memory.MemoryMachine) => m.remove('/etc/motd', { recursive: false }),
      (m: Memory.MemoryMachine) => m.rename('/etc/motd', '/etc/moved'),
      (m: Memory.MemoryMachine) => m.append('/etc/motd', bytes('more')),
      (m: Memory.MemoryMachine) => m.createExclusive('/etc/lock', bytes('x')),
      (m: Memory.MemoryMachine) => m.mkdirp('/a/b', attrs),
    ]
    for (const crash of crashes) {
      const m = Memory.make(start, { crashAt: 1 })
      expect((await fails(crash(m)))._tag).toBe('Crashed')
      expect(m.snapshot()).toEqual(start)
    }
  })

  it('revives as a new live process over the tree the crash left', async () => {
    const m = Memory.make(start, { crashAt: 1, processes: { 77: '500' } })
    await fails(m.writeFileAtomic('/etc/motd', bytes('new\n'), attrs, '.motd.tmp'))
    const r = m.revive()
    expect(r.crashed).toBe(false)
    expect(r.snapshot()).toEqual(m.snapshot())
    expect(r.pid()).not.toBe(m.pid())
    expect(await ok(r.processStart(m.pid()))).toBeNull()
    expect(await ok(r.processStart(r.pid()))).toMatch(/^[0-9]+$/)
    expect(await ok(r.processStart(77))).toBe('500')
    await ok(r.rename('/etc/.motd.tmp', '/etc/motd'))
    expect(Snapshot.text(r.snapshot(), '/etc/motd')).toBe('new\n')
    expect(r.mutations).toBe(1)
    expect((await fails(m.probe('/etc/motd')))._tag).toBe('Crashed')
  })
})

describe('memory machine: denied', () => {
  it('refuses every mutation at or below a denied path, and allows reads', async () => {
    const m = Memory.make(start, { denied: ['/etc'] })
    const tags = [
      await fails(m.writeFileAtomic('/etc/motd', bytes('x'), attrs, '.t')),
      await fails(m.setAttrs('/etc', attrs)),
      await fails(m.remove('/etc/other', { recursive: false })),
      await fails(m.rename('/etc/other', '/srv/other')),
      await fails(m.rename('/srv/data', '/etc/data')),
      await fails(m.copy('/srv/data', '/etc/data')),
      await fails(m.mkdirp('/etc/x', attrs)),
      await fails(m.append('/etc/j', bytes('x'))),
      await fails(m.createExclusive('/etc/j', bytes('x'))),
    ].map((f) => f._tag)
    expect(new Set(tags)).toEqual(new Set(['PermissionDenied']))
    expect(m.snapshot()).toEqual(start)
    expect(Snapshot.text(m.snapshot(), '/etc/motd')).toBe('old\n')
    await ok(m.readFile('/etc/motd'))
    await ok(m.copy('/etc/motd', '/srv/motd'))
    await ok(m.mkdirp('/etcetera', attrs))
  })
})

describe('memory machine: model', () => {
  it('always has "/" as a root-owned 0755 directory', () => {
    expect(Memory.make().snapshot().files['/']).toEqual(Snapshot.directory({ uid: 0, gid: 0, mode: 0o755 }))
  })

  it('gives snapshots that later mutations do not change', async () => {
    const m = Memory.make(start)
    const before = m.snapshot()
    expect(Object.isFrozen(before.files)).toBe(true)
    await ok(m.writeFileAtomic('/etc/motd', bytes('new\n'), attrs, '.t'))
    expect(before).toEqual(start)
  })

  it('does not share bytes with callers', async () => {
    const m = Memory.make(start)
    const data = bytes('abc')
    await ok(m.writeFileAtomic('/f', data, attrs, '.t'))
    data[0] = 120
    const read = await ok(m.readFile('/f'))
    read[1] = 120
    expect(Snapshot.text(m.snapshot(), '/f')).toBe('abc')
  })

  it('takes accounts from options, else from the snapshot', async () => {
    expect((await ok(Memory.make(start).accounts())).users.get('app')).toBe(1000)
    const custom = await ok(Memory.make(start, { users: { alice: 1001 }, groups: { staff: 50 } }).accounts())
    expect([custom.users.get('alice'), custom.groupNames.get(50), custom.users.get('root')]).toEqual([1001, 'staff', undefined])
  })

  it('knows the processes it is told of', async () => {
    const m = Memory.make(start, { pid: 10, start: '99', processes: new Map([[11, '5']]) })
    expect(m.pid()).toBe(10)
    expect(await ok(m.processStart(10))).toBe('99')
    expect(await ok(m.processStart(11))).toBe('5')
    expect(await ok(m.processStart(12))).toBeNull()
  })

  it('follows symlinks in the parent chain, absolute targets being machine paths', async () => {
    const r = MachineFile.parse(`
files:
  /real/f: { content: "x" }
  /abs: { type: symlink, target: /real }
  /rel: { type: symlink, target: ../real }
  /loop: { type: symlink, target: loop }
`)
    if (E.isLeft(r)) throw new Error(r.left)
    const m = Memory.make(r.right)
    for (const p of ['/abs/f', '/rel/f']) expect((await ok(m.probe(p)))._tag).toBe('File')
    expect((await fails(m.probe('/loop/x')))._tag).toBe('Failed')
  })
})
