import { describe, expect, it } from 'vitest'
import * as Journal from '../../src/executor/Journal.js'

const step = (seq: number, id: string): Journal.Record => ({ t: 'step', seq, id, what: `step ${seq}`, undo: { _tag: 'Remove', paths: [`/p${seq}`] } })

const text = (rs: Journal.Record[]): string => rs.map(Journal.encode).join('')

describe('Journal.unfinished', () => {
  const run: Journal.Record = { t: 'run', plan: 'sha256:1', atomic: false, pid: 7 }

  it('a committed or empty journal is finished', () => {
    expect(Journal.unfinished('')).toBeUndefined()
    expect(Journal.unfinished(text([run, { t: 'resource', id: 'a' }, step(1, 'a'), { t: 'done', seq: 1 }, { t: 'end', id: 'a', ok: true }, { t: 'commit' }]))).toBeUndefined()
  })

  it('without --atomic, only the resource that did not end is undone', () => {
    const j = text([run, { t: 'resource', id: 'a' }, step(1, 'a'), { t: 'done', seq: 1 }, { t: 'end', id: 'a', ok: true }, { t: 'resource', id: 'b' }, step(2, 'b'), { t: 'done', seq: 2 }, step(3, 'b')])
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([2, 3])
  })

  it('with --atomic, every begun step is undone', () => {
    const j = text([{ ...run, atomic: true } as Journal.Record, { t: 'resource', id: 'a' }, step(1, 'a'), { t: 'end', id: 'a', ok: true }, { t: 'resource', id: 'b' }, step(2, 'b')])
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([1, 2])
  })

  it('ignores a torn last line', () => {
    const j = text([run, { t: 'resource', id: 'a' }, step(1, 'a')]) + '{"t":"do'
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([1])
  })
})
