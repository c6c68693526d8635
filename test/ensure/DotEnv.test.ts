import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as DotEnv from '../../src/ensure/DotEnv.js'

const vars = fc.array(fc.tuple(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/), fc.string({ maxLength: 30 })), { maxLength: 8 })

describe('DotEnv', () => {
  fcTest.prop([vars])('parses what it prints back to the same variables (any value, quotes, #, newlines and spaces included)', (v) => {
    expect(DotEnv.parse(DotEnv.print(v))).toEqual(E.right(v))
  })

  it('reads comments, blank lines, export, quotes and inline comments as CCM users write them', () => {
    const text = '# a comment\n\nexport A=1\nB = two words # note\nC="x\\ny" # quoted\nD=\'$HOME #1\'\nE=\n'
    expect(DotEnv.parse(text)).toEqual(E.right([['A', '1'], ['B', 'two words'], ['C', 'x\ny'], ['D', '$HOME #1'], ['E', '']]))
  })

  it('names the line of a bad entry', () => {
    expect(DotEnv.parse('A=1\nnot a line\n')).toEqual(E.left('line 2: expected KEY=value'))
    expect(DotEnv.parse('1A=x')).toEqual(E.left('line 1: "1A" is not a variable name (letters, digits and _, not starting with a digit)'))
    expect(DotEnv.parse('A="open')).toEqual(E.left('line 1: an unterminated "quoted" value'))
  })

  fcTest.prop([vars, fc.dictionary(fc.stringMatching(/^[A-Z]{1,3}$/), fc.string())])('joins into an environment where a variable already set keeps its value', (v, env) => {
    const joined = DotEnv.join(env, v)
    for (const [k, value] of Object.entries(env)) expect(joined[k]).toBe(value)
    for (const [k] of v) expect(k in joined).toBe(true)
  })
})
