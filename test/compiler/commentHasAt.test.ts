import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { commentHasAt } from '../../src/compiler/compile.js'

describe('commentHasAt', () => {
  it('finds an @ after a # on the same line only', () => {
    expect(commentHasAt('a: 1 # @require\n')).toBe(true)
    expect(commentHasAt('a: x@y\n# note\n')).toBe(false)
    expect(commentHasAt('# a\nb: c@d')).toBe(false)
    expect(commentHasAt('@#')).toBe(false)
    expect(commentHasAt('x@ #@')).toBe(true)
    expect(commentHasAt('')).toBe(false)
  })

  fcTest.prop([fc.stringMatching(/^[#@\na ]{0,40}$/)])('answers exactly what /#[^\\n]*@/ answers', (text) => {
    expect(commentHasAt(text)).toBe(/#[^\n]*@/.test(text))
  })
})
