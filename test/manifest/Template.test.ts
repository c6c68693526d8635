import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Template from '../../src/manifest/Template.js'

const scope = { data: { app: 'hello', port: 8080, nested: { list: ['a', 'b'] }, empty: '' } }

describe('Template.render', () => {
  it.each([
    ["name = {{ lookup('data.app') }}", 'name = hello'],
    ['port = ${ Data.port }', 'port = 8080'],
    ["{{ lookup('data.nested.list.1') }}", 'b'],
    ["{{ lookup('data.nested.list.#') }}", 2],
    ["{{ lookup('data.missing', 'dflt') }}", 'dflt'],
    ["${ Data['app'] }", 'hello'],
    ['${ Data.port }', 8080],
    ['cost: ${{ x }}', undefined],
  ])('renders %s', (src, want) => {
    const r = Template.render(src, scope)
    if (want === undefined) {
      // `${{` is a literal `$` followed by a `{{ }}` hole.
      expect(E.isLeft(r)).toBe(true)
      return
    }
    expect(r).toEqual(E.right(want))
  })

  it('treats ${{ as a literal dollar then a hole', () => {
    expect(Template.render("price: ${{ lookup('data.port') }}", scope)).toEqual(E.right('price: $8080'))
  })

  it.each([
    ["{{ lookup('data.nope') }}", /no such key/],
    ["{{ lookup('facts.host') }}", /only data/],
    ['{{ nosuch(1) }}', /unknown function/],
    ['{{ Data. }}', /expected a name/],
    ['{{ Data.app', /unterminated/],
    ['{{ Data.app ) }}', /unexpected/],
  ])('reports %s as an error with an offset', (src, why) => {
    const r = Template.render(src, scope)
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left.message).toMatch(why)
    expect(r.left.offset).toBeGreaterThanOrEqual(0)
    expect(r.left.offset).toBeLessThanOrEqual(src.length)
  })

  fcTest.prop([fc.string().filter((s) => !s.includes('{{') && !s.includes('${'))])('a string without holes renders as itself', (s) => {
    expect(Template.render(s, scope)).toEqual(E.right(s))
  })
})
