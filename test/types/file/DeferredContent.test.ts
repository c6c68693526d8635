// Working out a deferred content at apply: each failure is a fault of its kind whose description is
// the sentence the report shows (the planner and the turn print it unchanged).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type * as Deferred from '../../../src/core/Deferred.js'
import * as DeferredContent from '../../../src/types/file/DeferredContent.js'

const content = (template: string): Deferred.Deferred => ({ property: 'content', at: 'm.yaml:7:22', after: ['file#/etc/a'], managed: { 'a.txt': '/etc/a' }, template })
const source: Deferred.Deferred = { property: 'source', at: 'm.yaml:7:21', after: ['file#/etc/a'], managed: { 'a.txt': '/etc/a' }, path: '/etc/a' }
const bytes = (text: string): Map<string, Uint8Array> => new Map([['a.txt', new TextEncoder().encode(text)]])

describe('DeferredContent.contentOf', () => {
  it('renders the template with the managed file', () => {
    const r = DeferredContent.contentOf(content("<{{ readFile('a.txt') }}>"), bytes('A'))
    expect(E.isRight(r) && r.right.content).toEqual({ _tag: 'Inline', text: '<A>' })
  })

  it('is NotFound for a source whose managed file was not read', () => {
    expect(DeferredContent.contentOf(source, new Map())).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound', subject: '/etc/a', description: '/etc/a was not read' })))
  })

  it('is Failed for a managed file that is not UTF-8 text, naming its machine path', () => {
    const r = DeferredContent.contentOf(content("{{ readFile('a.txt') }}"), new Map([['a.txt', new Uint8Array([0xc3])]]))
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'Failed', op: 'decode', subject: '/etc/a', description: '/etc/a is not UTF-8 text' })
  })

  it('is Failed for a template that fails, at the place it was written, caused by the template fault', () => {
    const r = DeferredContent.contentOf(content("{{ readFile('b.txt') }}"), bytes('A'))
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left).toMatchObject({ _tag: 'Failed', module: 'file', op: 'content', subject: 'm.yaml:7:22', cause: { _tag: 'Failed', op: 'render' } })
    expect(r.left.description).toMatch(/^content \(m\.yaml:7:22\): .*b\.txt was not read when the plan was made; make a new plan/)
    expect(r.left.description).toBe(`content (m.yaml:7:22): ${(r.left.cause as { description: string }).description}`)
  })
})

describe('DeferredContent.renderTemplate', () => {
  it('is Failed, saying so, for a template that gives a list where a string is expected', () => {
    expect(DeferredContent.renderTemplate('{{ [1, 2] }}', undefined, new Map())).toEqual(
      E.left(expect.objectContaining({ _tag: 'Failed', description: 'the template gives a list where a string is expected' })),
    )
  })
})
