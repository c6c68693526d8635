import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Check from '../../../src/manifest/expr/Check.js'
import * as Checked from '../../../src/manifest/expr/Checked.js'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Parser from '../../../src/manifest/expr/Parser.js'
import * as Template from '../../../src/manifest/expr/Template.js'
import * as Value from '../../../src/manifest/expr/Value.js'

const parse = (src: string) => {
  const n = Parser.parse(src)
  if (E.isLeft(n)) throw new Error(n.left.message)
  return n.right
}

/** What the check says, with the extras' names made afresh as before the memo. */
const fresh = (src: string, e: Evaluate.Env) =>
  Check.check(parse(src), e.mode, { variables: new Set(e.extra?.variables?.keys() ?? []), functions: new Set(e.extra?.functions?.keys() ?? []) })

const withValue = (mode: Evaluate.Env['mode']): Evaluate.Env => Evaluate.env({ mode, extra: { variables: new Map([['value', Value.fromJS(1)]]) } })
const envs: ReadonlyArray<Evaluate.Env> = [Evaluate.env({ mode: 'manifest' }), Evaluate.env({ mode: 'hierarchy' }), Evaluate.env({ mode: 'policy' }), withValue('policy'), withValue('manifest')]
const sources = ['Data.service', 'facts.host', 'value + 1', 'lookup("a")', 'now()', 'Data.x + 1 > 2', 'upper(Environ.HOME)', 'nosuch', 'value']

describe('Checked.check', () => {
  fcTest.prop([fc.array(fc.tuple(fc.nat({ max: sources.length - 1 }), fc.nat({ max: envs.length - 1 })), { minLength: 1, maxLength: 30 })])(
    'gives what a fresh check gives, for one tree checked against environments in any order',
    (steps) => {
      // one tree per source, shared by every step (as TemplateSyntax shares a hole's tree)
      const trees = sources.map(parse)
      for (const [s, e] of steps) {
        const got = Checked.check(trees[s]!, envs[e]!)
        const want = fresh(sources[s]!, envs[e]!)
        expect(E.isRight(got)).toBe(E.isRight(want))
        expect(got).toEqual(want)
      }
    },
  )

  it('does not carry a check over to an environment whose extras name other things', () => {
    const tree = parse('value + 1')
    expect(E.isRight(Checked.check(tree, withValue('policy')))).toBe(true)
    expect(E.isLeft(Checked.check(tree, Evaluate.env({ mode: 'policy' })))).toBe(true)
    expect(E.isRight(Checked.check(tree, withValue('policy')))).toBe(true)
  })

  it('leaves a template rendered many times against copies of one environment rendering as before', () => {
    const base = Evaluate.env({ mode: 'manifest', data: { service: 'web' } })
    for (let i = 0; i < 50; i++) {
      const r = Template.render(`line ${i}: {{ Data.service }}\n`, { ...base, readFile: () => E.right('') })
      expect(r).toEqual(E.right({ value: `line ${i}: web\n`, reads: { values: [{ root: 'data', path: ['service'] }], files: [], clock: false }, matched: true }))
    }
    expect(E.isLeft(Template.render('{{ Nope.x }}', base))).toBe(true)
  })
})
