// Journal.read of a batch's records: step records marked `batch` (written ahead of their steps)
// count as begun only once a `begin` record names them; the others are the unbegun steps that
// recovery undoes without telling them.
import { describe, expect, it } from 'vitest'
import * as Journal from '../../src/executor/Journal.js'

const text = (rs: ReadonlyArray<unknown>): string => rs.map((r) => JSON.stringify(r) + '\n').join('')
const run = (atomic: boolean) => ({ _tag: 'run', plan: 'sha256:1', atomic, pid: 7 })
const step = (seq: number, id: string) => ({ _tag: 'step', seq, id, what: `write ${id}`, undo: { _tag: 'Remove', paths: [id] }, temp: `/.${seq}`, batch: true })

describe('Journal.read of a batch', () => {
  const batch = [{ _tag: 'resource', id: '/a' }, step(1, '/a'), { _tag: 'resource', id: '/b' }, step(2, '/b'), { _tag: 'resource', id: '/c' }, step(3, '/c')]

  it('a batch step is begun once its begin record follows; the others are unbegun', () => {
    const r = Journal.read(text([run(false), ...batch, { _tag: 'begin', seq: 1 }, { _tag: 'begin', seq: 2 }]))
    expect(r._tag === 'Unfinished' && [r.steps.map((s) => s.seq), r.unbegun?.map((s) => s.seq)]).toEqual([[1, 2], [3]])
  })

  it('no begin record at all: every step of the batch is unbegun, and none counts as begun', () => {
    const r = Journal.unfinished(text([run(true), ...batch]))
    expect([r?.steps.length, r?.unbegun?.map((s) => s.seq)]).toEqual([0, [1, 2, 3]])
  })

  it('a resource that ended is not undone in a default run, but is with --atomic', () => {
    const ended = [...batch, { _tag: 'begin', seq: 1 }, { _tag: 'begin', seq: 2 }, { _tag: 'begin', seq: 3 }, { _tag: 'done', seq: 1 }, { _tag: 'end', id: '/a', ok: true }]
    expect(Journal.unfinished(text([run(false), ...ended]))?.steps.map((s) => s.id)).toEqual(['/b', '/c'])
    expect(Journal.unfinished(text([run(true), ...ended]))?.steps.map((s) => s.id)).toEqual(['/a', '/b', '/c'])
    expect(Journal.unfinished(text([run(true), ...ended]))?.unbegun).toBeUndefined()
  })

  it('a committed batch is clean', () => {
    expect(Journal.read(text([run(false), ...batch, { _tag: 'begin', seq: 1 }, { _tag: 'commit' }]))).toEqual({ _tag: 'Clean' })
  })

  it('refuses a batch field that is not true, and a begin record without its seq', () => {
    expect(Journal.read(text([run(false), { ...step(1, '/a'), batch: false }, { _tag: 'commit' }]))).toEqual({ _tag: 'Damaged', line: 2, reason: 'not a journal record' })
    expect(Journal.read(text([run(false), step(1, '/a'), { _tag: 'begin' }, { _tag: 'commit' }]))).toEqual({ _tag: 'Damaged', line: 3, reason: 'not a journal record' })
  })

  it('encodes a batch step record with its batch mark, and reads it back', () => {
    const s = step(4, '/d') as Journal.Record
    const r = Journal.read(Journal.encode(run(false) as Journal.Record) + Journal.encode(s) + Journal.encode({ _tag: 'begin', seq: 4 }))
    expect(r._tag === 'Unfinished' && r.steps).toEqual([s])
  })
})
