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

describe('Journal.read refuses records of the wrong shape, saying at which line', () => {
  const run = '{"_tag":"run","plan":"sha256:1","atomic":false,"pid":7}'
  const bad = [
    '{"_tag":"run","plan":"sha256:1","atomic":"no","pid":7}',
    '{"_tag":"run","plan":1,"atomic":false,"pid":7}',
    '{"_tag":"run","plan":"p","atomic":false,"pid":"7"}',
    '{"_tag":"resource"}',
    '{"_tag":"step","seq":"1","id":"a","what":"w","undo":{"_tag":"Remove","paths":["/a"]}}',
    '{"_tag":"step","seq":1,"id":2,"what":"w","undo":{"_tag":"Remove","paths":["/a"]}}',
    '{"_tag":"step","seq":1,"id":"a","what":3,"undo":{"_tag":"Remove","paths":["/a"]}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Remove","paths":"/a"}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Remove","paths":["/a",1]}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Restore","path":"/a"}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Restore","backup":"/b"}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Attrs","path":"/a","uid":0,"gid":0}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Attrs","uid":0,"gid":0,"mode":420}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Irreversible"}}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":"Remove"}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":null}',
    '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Remove","paths":["/a"]},"temp":5}',
    '{"_tag":"done"}',
    '{"_tag":"end","id":"a"}',
    '{"_tag":"end","ok":true}',
    '{"_tag":"explode"}',
    '[1,2]',
    '7',
    'null',
    '{}',
  ]
  it.each(bad)('%s', (line) => {
    expect(Journal.read([run, line, '{"_tag":"commit"}', ''].join('\n'))).toEqual({ _tag: 'Damaged', line: 2, reason: 'not a journal record' })
  })

  it('takes each record of the right shape, blank lines between them, and an old record tagged t', () => {
    const good = [
      run,
      '',
      '{"_tag":"resource","id":"a"}',
      '   ',
      '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Attrs","path":"/a","uid":0,"gid":0,"mode":420},"temp":"/.a.tmp"}',
      '{"_tag":"step","seq":2,"id":"a","what":"w","undo":{"_tag":"Restore","path":"/a","backup":"/b"}}',
      '{"t":"step","seq":3,"id":"a","what":"w","undo":{"_tag":"Irreversible","reason":"r"}}',
      '{"_tag":"done","seq":1}',
      '',
    ].join('\n')
    const r = Journal.read(good)
    expect(r._tag === 'Unfinished' && r.steps.map((s) => [s.seq, s.undo._tag])).toEqual([
      [1, 'Attrs'],
      [2, 'Restore'],
      [3, 'Irreversible'],
    ])
    // a record tagged both ways is read by its _tag
    expect(Journal.read(`${run}\n{"_tag":"commit","t":"step"}\n`)._tag).toBe('Clean')
  })

  it('is damaged when the first record is not the run header, and clean with no records', () => {
    expect(Journal.read('{"_tag":"resource","id":"a"}\n' + run + '\n')).toEqual({ _tag: 'Damaged', line: 1, reason: 'the first record is not the run header' })
    expect(Journal.read('\n\n')).toEqual({ _tag: 'Clean' })
  })

  it('ignores only an unfinished last line: one ending the text without a newline', () => {
    expect(Journal.read(`${run}\n{"_tag":"resource"}`)).toMatchObject({ _tag: 'Unfinished', steps: [] })
    expect(Journal.read(`${run}\n{"_tag":"resource"}\n`)).toEqual({ _tag: 'Damaged', line: 2, reason: 'not a journal record' })
  })

  it('undoes, in a run that is not atomic, only the steps of resources that did not end', () => {
    const text = [
      run,
      '{"_tag":"step","seq":1,"id":"a","what":"w","undo":{"_tag":"Remove","paths":["/a"]}}',
      '{"_tag":"end","id":"a","ok":true}',
      '{"_tag":"step","seq":2,"id":"b","what":"w","undo":{"_tag":"Remove","paths":["/b"]}}',
      '',
    ].join('\n')
    expect(Journal.unfinished(text)?.steps.map((s) => s.id)).toEqual(['b'])
    expect(Journal.unfinished(text.replace('"atomic":false', '"atomic":true'))?.steps.map((s) => s.id)).toEqual(['a', 'b'])
  })
})
