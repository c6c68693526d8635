// lock: one apply at a time per state directory, on the memory machine (in process, so that
// mutation testing sees it): a live holder refuses, a dead or unknown one is taken over.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Lock from '../../src/executor/lock.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const path = '/state/lock'
const machine = (lock: string | undefined, options: Memory.Options = {}) => {
  const s = Snapshot.make({ '/state': Snapshot.directory(), ...(lock !== undefined ? { [path]: Snapshot.file(lock) } : {}) })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}
const held = (m: Memory.MemoryMachine) => Snapshot.text(m.snapshot(), path)

describe('Lock.acquire', () => {
  it('takes a free lock with its pid and start time, and release removes it', async () => {
    const m = machine(undefined, { pid: 7, start: '123' })
    const r = await Lock.acquire(m, path)
    expect(E.isRight(r) && r.right.tookOver).toBeUndefined()
    expect(held(m)).toBe('{"pid":7,"start":"123"}\n')
    if (E.isRight(r)) await r.right.release()
    expect(m.snapshot().files[path]).toBeUndefined()
  })

  it('refuses while the holder runs, naming it, and leaves its lock', async () => {
    const lock = '{"pid":99,"start":"555"}\n'
    const m = machine(lock, { processes: { 99: '555' } })
    const r = await Lock.acquire(m, path)
    expect(E.isLeft(r) && r.left).toMatchObject({ code: 'Locked', message: `another plait apply (pid 99) holds the run lock ${path}`, hint: expect.stringMatching(/^wait for it to finish/) })
    expect(held(m)).toBe(lock)
  })

  it('takes over the lock of a dead holder, of a reused pid, of one without a start time, and garbage', async () => {
    const cases: Array<[string, Memory.Options, Lock.Holder | undefined]> = [
      ['{"pid":99,"start":"555"}', {}, { pid: 99, start: '555' }],
      ['{"pid":99,"start":"555"}', { processes: { 99: '556' } }, { pid: 99, start: '555' }],
      ['{"pid":99}', { processes: { 99: '555' } }, { pid: 99, start: null }],
      ['{"pid":99,"start":555}', { processes: { 99: '556' } }, { pid: 99, start: '555' }],
      ['garbage', {}, undefined],
      ['{"start":"1"}', {}, undefined],
      ['null', {}, undefined],
    ]
    for (const [lock, options, holder] of cases) {
      const m = machine(lock, { ...options, pid: 7, start: '1' })
      const r = await Lock.acquire(m, path)
      expect(E.isRight(r), lock).toBe(true)
      if (E.isRight(r)) expect(r.right.tookOver, lock).toEqual(holder)
      expect(held(m), lock).toBe('{"pid":7,"start":"1"}\n')
    }
  })

  it('takes over a lock whose holder started at the same time as the number it wrote', async () => {
    const m = machine('{"pid":99,"start":555}', { processes: { 99: '555' } })
    expect(E.isLeft(await Lock.acquire(m, path))).toBe(true)
  })

  it('says why when the lock cannot be created at all', async () => {
    const m = machine(undefined, { denied: ['/state'] })
    const r = await Lock.acquire(m, path)
    expect(E.isLeft(r) && r.left.message).toMatch(new RegExp(`^cannot take the run lock ${path}: .*permission denied`, 'i'))
  })
})

describe('Lock.acquire on something that is not a lock file', () => {
  it('gives up after three tries when the lock path is a directory, and never removes what is in it', async () => {
    const s = Snapshot.make({ '/state': Snapshot.directory(), [path]: Snapshot.directory(), [`${path}/keep`]: Snapshot.file('mine') })
    if (E.isLeft(s)) throw new Error(s.left)
    const m = Memory.make(s.right)
    const r = await Lock.acquire(m, path)
    expect(E.isLeft(r) && r.left.message).toBe(`cannot take the run lock ${path}: it keeps being re-created`)
    expect(Snapshot.text(m.snapshot(), `${path}/keep`)).toBe('mine')
  })

  it('releases only the lock file: a directory put in its place is left alone', async () => {
    const m = machine(undefined)
    const r = await Lock.acquire(m, path)
    if (E.isLeft(r)) throw new Error(r.left.message)
    await m.remove(path, { recursive: false })()
    await m.mkdirp(path, { uid: 0, gid: 0, mode: 0o755 })()
    await m.writeFileAtomic(`${path}/keep`, new TextEncoder().encode('mine'), { uid: 0, gid: 0, mode: 0o644 }, '.keep.tmp')()
    await r.right.release()
    expect(Snapshot.text(m.snapshot(), `${path}/keep`)).toBe('mine')
  })

  it('records this process’s start time, or none when it cannot be read', async () => {
    const m = machine(undefined, { pid: 7, start: '99' })
    await Lock.acquire(m, path)
    expect(Lock.parseHolder(held(m) ?? '')).toEqual({ pid: 7, start: '99' })
  })
})

describe('Lock.parseHolder', () => {
  it('reads a pid and a start time, a numeric start as text, and nothing else', () => {
    expect(Lock.parseHolder('{"pid":1,"start":"2"}')).toEqual({ pid: 1, start: '2' })
    expect(Lock.parseHolder('{"pid":1,"start":2}')).toEqual({ pid: 1, start: '2' })
    expect(Lock.parseHolder('{"pid":1,"start":true}')).toEqual({ pid: 1, start: null })
    expect(Lock.parseHolder('{"pid":1}')).toEqual({ pid: 1, start: null })
    for (const bad of ['', 'x', 'null', '1', '"s"', '{"pid":"1"}', '[1]']) expect(Lock.parseHolder(bad), bad).toBeUndefined()
  })
})
