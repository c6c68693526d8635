// Info: a plugin's metadata, and the version check against the host's API version 3.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Info from '../../../../src/interpreters/holo/protocol/Info.js'

describe('info', () => {
  it('reads key=value lines, ignoring lines without "=" and letting the last repeated key count', () => {
    const r = Info.parse('foo', 'MIN_API_VERSION=2\n\nnoise\nMAX_API_VERSION=4\nNAME=a=b\nMAX_API_VERSION=3\n', 3)
    expect(r).toEqual(E.right({ pairs: [['MIN_API_VERSION', '2'], ['MAX_API_VERSION', '4'], ['NAME', 'a=b'], ['MAX_API_VERSION', '3']], min: 2, max: 3 }))
  })

  it('refuses a plugin whose versions exclude 3, naming the plugin and both bounds', () => {
    expect(Info.parse('foo', 'MIN_API_VERSION=4\nMAX_API_VERSION=5\n', 3)).toEqual(E.left('plugin holo-foo is incompatible with this host (plugin min: 4, plugin max: 5, plait: 3)'))
    expect(Info.parse('foo', 'MIN_API_VERSION=1\nMAX_API_VERSION=2\n', 3)).toEqual(E.left('plugin holo-foo is incompatible with this host (plugin min: 1, plugin max: 2, plait: 3)'))
  })

  it('says which key is missing or malformed', () => {
    expect(Info.parse('foo', 'MAX_API_VERSION=3\n', 3)).toEqual(E.left('plugin holo-foo: info did not report MIN_API_VERSION'))
    expect(Info.parse('foo', 'MIN_API_VERSION=3\n', 3)).toEqual(E.left('plugin holo-foo: info did not report MAX_API_VERSION'))
    expect(Info.parse('foo', 'MIN_API_VERSION=three\nMAX_API_VERSION=3\n', 3)).toEqual(E.left('plugin holo-foo: info reported MIN_API_VERSION="three", which is not a positive integer'))
    expect(Info.parse('foo', 'MIN_API_VERSION=0\nMAX_API_VERSION=3\n', 3)).toEqual(E.left('plugin holo-foo: info reported MIN_API_VERSION="0", which is not a positive integer'))
    expect(Info.parse('foo', 'MIN_API_VERSION=3\nMAX_API_VERSION=2\n', 3)).toEqual(E.left('plugin holo-foo: info reported MIN_API_VERSION=3 above MAX_API_VERSION=2'))
  })

  test.prop([fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 })])('accepts exactly the intervals that hold 3', (min, max) => {
    const r = Info.parse('p', `MIN_API_VERSION=${min}\nMAX_API_VERSION=${max}\n`, 3)
    expect(E.isRight(r)).toBe(min <= 3 && 3 <= max)
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 300 })])('never throws on any output', (text) => {
    const r = Info.parse('p', text, 3)
    if (E.isLeft(r)) expect(r.left).toMatch(/^plugin holo-p/)
  })
})
