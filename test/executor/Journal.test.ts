import { describe, expect, it } from 'vitest'
import * as Journal from '../../src/executor/Journal.js'

const step = (seq: number, id: string): Journal.Record => ({ _tag: 'step', seq, id, what: `step ${seq}`, undo: { _tag: 'Remove', paths: [`/p${seq}`] } })

const text = (rs: Journal.Record[]): string => rs.map(Journal.encode).join('')

describe('Journal.unfinished', () => {
  const run: Journal.Record = { _tag: 'run', plan: 'sha256:1', atomic: false, pid: 7 }

  it('a committed or empty journal is finished', () => {
    expect(Journal.unfinished('')).toBeUndefined()
    expect(Journal.unfinished(text([run, { _tag: 'resource', id: 'a' }, step(1, 'a'), { _tag: 'done', seq: 1 }, { _tag: 'end', id: 'a', ok: true }, { _tag: 'commit' }]))).toBeUndefined()
  })

  it('without --atomic, only the resource that did not end is undone', () => {
    const j = text([run, { _tag: 'resource', id: 'a' }, step(1, 'a'), { _tag: 'done', seq: 1 }, { _tag: 'end', id: 'a', ok: true }, { _tag: 'resource', id: 'b' }, step(2, 'b'), { _tag: 'done', seq: 2 }, step(3, 'b')])
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([2, 3])
  })

  it('with --atomic, every begun step is undone', () => {
    const j = text([{ ...run, atomic: true } as Journal.Record, { _tag: 'resource', id: 'a' }, step(1, 'a'), { _tag: 'end', id: 'a', ok: true }, { _tag: 'resource', id: 'b' }, step(2, 'b')])
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([1, 2])
  })

  it('ignores a torn last line', () => {
    const j = text([run, { _tag: 'resource', id: 'a' }, step(1, 'a')]) + '{"_tag":"do'
    expect(Journal.unfinished(j)?.steps.map((s) => s.seq)).toEqual([1])
  })

  it('reads a journal written before records were tagged with _tag (its records say t), so recovery survives an upgrade', () => {
    const old = ['{"t":"run","plan":"sha256:1","atomic":false,"pid":7}', '{"t":"resource","id":"a"}', '{"t":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Remove","paths":["/a"]}}', ''].join('\n')
    expect(Journal.read(old)).toEqual({ _tag: 'Unfinished', plan: 'sha256:1', atomic: false, pid: 7, steps: [{ _tag: 'step', seq: 1, id: 'a', what: 'w', undo: { _tag: 'Remove', paths: ['/a'] } }] })
    expect(Journal.read(old + '{"t":"commit"}\n')._tag).toBe('Clean')
  })
})
