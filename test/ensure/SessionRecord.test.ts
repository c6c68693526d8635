import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as S from '../../src/ensure/SessionRecord.js'

const record = fc.record({
  id: fc.tuple(fc.constantFrom('file', 'service', 'exec'), fc.string({ minLength: 1, maxLength: 20 })).map(([t, n]) => `${t}#${n}`),
  outcome: fc.constantFrom<S.Outcome>('changed', 'stable', 'failed', 'skipped'),
  time: fc.constant('2026-11-25T10:00:00.000Z'),
  noop: fc.boolean(),
})

describe('SessionRecord', () => {
  fcTest.prop([fc.array(record, { maxLength: 10 })])('decodes the lines it encodes back to the same records', (rs) => {
    expect(S.decode(rs.map(S.encode).join(''))).toEqual(E.right(rs))
  })

  it('names a damaged line instead of guessing', () => {
    expect(S.decode('{"id":"file#/a","outcome":"changed","time":"t","noop":false}\nnope\n')).toEqual(E.left('line 2: not JSON'))
    expect(S.decode('{"id":"file#/a","outcome":"maybe","time":"t","noop":false}\n')).toMatchObject({ left: expect.stringContaining('outcome is not one of') })
  })

  const at = (id: string, outcome: S.Outcome, noop = false): S.SessionRecord => ({ id, outcome, time: 't', noop })

  it('says a subscribed resource changed when any real command changed it, never for a noop one', () => {
    expect(S.links([at('file#/a', 'changed'), at('file#/a', 'stable')]).changed('file#/a')).toBe(true)
    expect(S.links([at('file#/a', 'changed', true)]).changed('file#/a')).toBe(false)
    expect(S.links([at('file#/b', 'changed')]).changed('file#/a')).toBe(false)
  })

  it('meets a requirement by the last real outcome', () => {
    expect(S.links([]).unmet('file#/a')).toBe('file#/a was not ensured in this session')
    expect(S.links([at('file#/a', 'failed')]).unmet('file#/a')).toBe('file#/a failed')
    expect(S.links([at('file#/a', 'failed'), at('file#/a', 'changed')]).unmet('file#/a')).toBeUndefined()
    expect(S.links([at('file#/a', 'stable'), at('file#/a', 'failed', true)]).unmet('file#/a')).toBeUndefined()
  })

  const few = record.chain((r) => fc.constantFrom('file#/a', 'file#/b', 'package#x').map((id) => ({ ...r, id })))
  fcTest.prop([fc.array(few, { maxLength: 12 }), fc.constantFrom('file#/a', 'file#/b', 'package#x')])('answers each link as searching the records does', (rs, id) => {
    const links = S.links(rs)
    const real = rs.filter((r) => r.id === id && !(r.noop && rs.some((x) => x.id === id && !x.noop && rs.indexOf(x) < rs.indexOf(r))))
    const last = real.at(-1)
    expect(links.changed(id)).toBe(rs.some((r) => r.id === id && !r.noop && r.outcome === 'changed'))
    expect(links.unmet(id)).toBe(last === undefined ? `${id} was not ensured in this session` : last.outcome === 'failed' ? `${id} failed` : last.outcome === 'skipped' ? `${id} was skipped` : undefined)
  })

  fcTest.prop([fc.array(record, { maxLength: 12 })])('summarizes each resource once, and the counts add up to them', (rs) => {
    const s = S.summarize(rs)
    expect(new Set(s.resources.map((r) => r.id)).size).toBe(s.resources.length)
    expect(new Set(s.resources.map((r) => r.id))).toEqual(new Set(rs.map((r) => r.id)))
    expect(Object.values(s.counts).reduce((a, b) => a + b, 0)).toBe(s.resources.length)
  })
})
