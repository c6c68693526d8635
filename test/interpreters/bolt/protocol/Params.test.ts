// Params: parameters are checked against the task's metadata before it runs: defaults filled in,
// every unknown, missing or ill-typed parameter reported at once naming the task; never throws.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Metadata from '../../../../src/interpreters/bolt/protocol/Metadata.js'
import * as Params from '../../../../src/interpreters/bolt/protocol/Params.js'

const meta = (parameters: object): Metadata.Metadata => {
  const m = Metadata.parse('t.json', JSON.stringify({ parameters }))
  if (E.isLeft(m)) throw new Error(m.left)
  return m.right
}

const m = meta({ var: { type: 'String' }, default: { type: 'Optional[String]' }, count: { type: 'Integer', default: 3 }, any: {} })

describe('parameter checking', () => {
  it('gives the parameters with defaults applied', () => {
    expect(Params.validate('env_var::resolve_reference', m, { var: 'HOME' })).toEqual(E.right({ var: 'HOME', count: 3 }))
    expect(Params.validate('env_var::resolve_reference', m, { var: 'HOME', count: 5, any: [1] })).toEqual(E.right({ var: 'HOME', count: 5, any: [1] }))
  })

  it('reports every unknown, missing and ill-typed parameter, naming the task', () => {
    expect(Params.validate('env_var::resolve_reference', m, { vra: 'HOME', count: 'x' })).toEqual(
      E.left("Task env_var::resolve_reference: parameter 'count' expects an Integer value, got String; has no parameter named 'vra'; expects a value for parameter 'var'"),
    )
  })

  it('shows control characters of an unknown name as escapes', () => {
    expect(Params.validate('m::t', m, { var: 'x', 'a\u001b[2Jb': 1 })).toEqual(E.left("Task m::t: has no parameter named 'a\\u001b[2Jb'"))
  })

  it('checks nothing for a task whose metadata declares no parameters, as Bolt', () => {
    expect(Params.validate('m::t', Metadata.empty, { anything: [1] })).toEqual(E.right({ anything: [1] }))
  })

  test.prop([fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 })])('never throws, and a valid answer holds only declared parameters that fit (law)', (given) => {
    const r = Params.validate('m::t', m, given)
    if (E.isRight(r)) {
      for (const k of Object.keys(r.right)) expect(m.parameters?.has(k)).toBe(true)
      expect(typeof r.right['var']).toBe('string')
    } else expect(r.left).toMatch(/^Task m::t: /)
  })
})
