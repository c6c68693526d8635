// The memory runner the laws' exec resources run on (src/interpreters/memory/runner.ts): each
// command's declared effect on the memory machine, its exit, and faults of the machine reaching it.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/core/Command.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Runner from '../../src/interpreters/memory/runner.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const command = (...argv: string[]): Command => ({ argv, environment: [], timeoutMs: 1000 })

const machineWith = (files: Readonly<Record<string, Snapshot.Node>>) => {
  const s = Snapshot.make({ '/': Snapshot.directory({ uid: 0, gid: 0, mode: 0o755 }), ...files })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right)
}

/** Runs one command; its exit code, or the fault's tag. */
const run = async (m: Memory.MemoryMachine, ...argv: string[]): Promise<number | string | undefined> => {
  const r = await Runner.make(m).run(command(...argv))
  return E.isLeft(r) ? r.left._tag : r.right.exitCode
}

describe('memory runner', () => {
  it('true and false exit 0 and 1 and change nothing', async () => {
    const m = machineWith({})
    expect([await run(m, 'true'), await run(m, 'false')]).toEqual([0, 1])
    expect(m.mutations).toBe(0)
  })

  it('test -e answers whether the path exists, without a mutation', async () => {
    const m = machineWith({ '/x': Snapshot.file('') })
    expect([await run(m, 'test', '-e', '/x'), await run(m, 'test', '-e', '/y')]).toEqual([0, 1])
    expect(m.mutations).toBe(0)
  })

  it('touch creates an absent file in one mutation and leaves an existing one as it is', async () => {
    const m = machineWith({ '/old': Snapshot.file('kept\n') })
    expect(await run(m, 'touch', '/new')).toBe(0)
    expect(m.mutations).toBe(1)
    expect(await run(m, 'touch', '/old')).toBe(0)
    expect(m.mutations).toBe(1)
    expect(m.snapshot().files['/new']?.kind).toBe('file')
    expect(m.snapshot().files['/old']).toEqual(Snapshot.file('kept\n'))
  })

  it('write creates the file with its text, accepts the same text, refuses other content', async () => {
    const m = machineWith({ '/other': Snapshot.file('else\n') })
    expect(await run(m, 'write', '/w', 'hello')).toBe(0)
    expect(Buffer.from(Snapshot.bytes(m.snapshot().files['/w'] as Snapshot.Node & { kind: 'file' })).toString()).toBe('hello')
    expect(await run(m, 'write', '/w', 'hello')).toBe(0)
    const r = await Runner.make(m).run(command('write', '/other', 'hello'))
    expect(E.isRight(r) && [r.right.exitCode, r.right.stderr]).toEqual([1, '/other: holds other content'])
  })

  it('rm removes a file and exits 1 for an absent path or a directory', async () => {
    const m = machineWith({ '/f': Snapshot.file(''), '/d': Snapshot.directory({ uid: 0, gid: 0, mode: 0o755 }) })
    expect([await run(m, 'rm', '/f'), await run(m, 'rm', '/f'), await run(m, 'rm', '/d')]).toEqual([0, 1, 1])
    expect(Object.keys(m.snapshot().files).sort()).toEqual(['/', '/d'])
  })

  fcTest.prop([fc.integer({ min: 0, max: 255 }), fc.boolean()])('mark makes its path whether or not it exists, then exits with its code', async (code, there) => {
    const m = machineWith(there ? { '/m': Snapshot.file('') } : {})
    expect(await run(m, 'mark', '/m', String(code))).toBe(code)
    expect(m.snapshot().files['/m']?.kind).toBe('file')
  })

  it('a command it does not know, or with the wrong words, cannot start', async () => {
    const m = machineWith({})
    for (const argv of [['make'], ['touch'], ['touch', '/a', '/b'], ['mark', '/m', '256'], ['mark', '/m', 'x'], ['test', '-f', '/x'], ['true', 'x']]) expect(await run(m, ...argv)).toBe('NotFound')
    const r = await Runner.make(m).run(command())
    expect(E.isLeft(r) && r.left.description).toBe('no command specified')
  })

  it('touch below a missing directory exits 1 and says why', async () => {
    const m = machineWith({})
    const r = await Runner.make(m).run(command('touch', '/no/such'))
    expect(E.isRight(r) && r.right.exitCode).toBe(1)
    expect(E.isRight(r) && r.right.stderr.startsWith('/no/such: ')).toBe(true)
  })

  it('a crash or an injected failure of the machine is the fault of the command, with no effect', async () => {
    const crashing = Memory.make(Snapshot.empty, { crashAt: 1 })
    expect(await run(crashing, 'touch', '/x')).toBe('Crashed')
    expect(crashing.snapshot().files['/x']).toBeUndefined()
    const failing = Memory.make(Snapshot.empty, { failAt: { mutation: 1 } })
    expect(await run(failing, 'touch', '/x')).toBe('Failed')
    expect(failing.snapshot().files['/x']).toBeUndefined()
  })

  it('keeps every command line in its log, shared by runners given the same log', async () => {
    const log: string[] = []
    await Runner.make(machineWith({}), log).run(command('test', '-e', '/x'))
    const second = Runner.make(machineWith({}), log)
    await second.run(command('touch', '/x'))
    expect(second.calls()).toEqual(['test -e /x', 'touch /x'])
  })
})
