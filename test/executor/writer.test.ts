// writer: the journal's group commit: noted records reach the disk only at a durable point, all
// together, in order, in one append (one fsync), on the memory machine.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Journal from '../../src/executor/Journal.js'
import * as Writer from '../../src/executor/writer.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const path = '/state/journal'
const machine = (options: Memory.Options = {}) => {
  const s = Snapshot.make({ '/state': Snapshot.directory() })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

/** A machine that records each append's text. */
const counting = (m: Machine): { machine: Machine; appends: string[] } => {
  const appends: string[] = []
  return {
    appends,
    machine: { ...m, append: (p, data) => (appends.push(new TextDecoder().decode(data)), m.append(p, data)) },
  }
}

const text = async (m: Machine): Promise<string | undefined> => {
  const r = await m.readFile(path)()
  return E.isRight(r) ? new TextDecoder().decode(r.right) : undefined
}

const run: Journal.Record = { _tag: 'run', plan: 'sha256:x', atomic: false, pid: 7 }
const step: Journal.Record = { _tag: 'step', seq: 1, id: 'file#/a', what: 'write /a', undo: { _tag: 'Remove', paths: ['/a'] } }

describe('journal writer', () => {
  it('writes nothing for a noted record until a durable point', async () => {
    const m = machine()
    const c = counting(m)
    const w = Writer.make(c.machine, path)
    w.note(run)
    w.note({ _tag: 'resource', id: 'file#/a' })
    expect(c.appends).toEqual([])
    expect(await text(m)).toBeUndefined()
    expect(w.written()).toBe(false)
  })

  it('appends every noted record and the synced one together, in order, in one append', async () => {
    const m = machine()
    const c = counting(m)
    const w = Writer.make(c.machine, path)
    w.note(run)
    w.note({ _tag: 'resource', id: 'file#/a' })
    await w.sync(step)
    const expected = [run, { _tag: 'resource', id: 'file#/a' }, step].map((r) => Journal.encode(r as Journal.Record)).join('')
    expect(c.appends).toEqual([expected])
    expect(await text(m)).toBe(expected)
    expect(w.written()).toBe(true)
    w.note({ _tag: 'done', seq: 1 })
    w.note({ _tag: 'end', id: 'file#/a', ok: true })
    await w.sync({ _tag: 'commit' })
    expect(c.appends).toHaveLength(2)
    expect(Journal.read((await text(m))!)).toEqual({ _tag: 'Clean' })
  })

  it('flushes the noted records when asked, and does nothing when none are noted', async () => {
    const m = machine()
    const c = counting(m)
    const w = Writer.make(c.machine, path)
    await w.flush()
    expect(c.appends).toEqual([])
    w.note(run)
    await w.flush()
    await w.flush()
    expect(c.appends).toEqual([Journal.encode(run)])
  })

  it('throws a JournalError naming the fault when the append fails, and keeps no record for a later append', async () => {
    const m = machine({ failAt: { mutation: 1 } })
    const w = Writer.make(m, path)
    w.note(run)
    const e = await w.sync(step).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(Writer.JournalError)
    expect((e as Error).message).toMatch(/^cannot write the journal: .*injected failure at mutation 1/)
    expect(w.written()).toBe(false)
  })
})
