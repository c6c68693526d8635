// security: bounded evaluation. Expressions cannot build unbounded strings or lists or run without
// end, and YAML cannot nest deep enough to exhaust the stack: each is a clear error, found fast.
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Budget from '../../src/manifest/expr/Budget.js'
import * as Expr from '../../src/manifest/expr/Expr.js'
import * as Yaml from '../../src/manifest/Yaml.js'
import { tableEnv } from '../manifest/expr/support.js'
import { cleanup, ensureBuilt, plait, sandbox, stackFrame } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const env = tableEnv('manifest')

const timed = <A>(f: () => A): { value: A; ms: number } => {
  const t0 = performance.now()
  const value = f()
  return { value, ms: performance.now() - t0 }
}

const refused = (src: string): string => {
  const r = Expr.run(src, env)
  if (E.isRight(r)) throw new Error(`${src}: evaluated`)
  return r.left.message
}

describe('expression budgets', () => {
  it('refuse nine nested replace calls before they allocate, naming the limit', () => {
    let src = "'xxxxxxxxxx'"
    for (let i = 0; i < 9; i++) src = `replace(${src}, 'x', 'xxxxxxxxxx')`
    const { value, ms } = timed(() => refused(src))
    expect(value).toContain(`longer than the limit of ${Budget.maxString} characters`)
    expect(ms).toBeLessThan(2_000)
  })

  it('refuse split and join past the limits, fast', () => {
    const big = `replace(replace(replace(replace(replace(replace('xxxxxxxxxx', 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx')`
    // 10^7 characters is within the string limit; split into 10^7 items is not within the list limit
    const { value, ms } = timed(() => refused(`split(${big}, '')`))
    expect(value).toContain(`more than the limit of ${Budget.maxItems} items`)
    expect(refused(`join([${big}, ${big}], 'y')`)).toContain('longer than the limit')
    expect(refused(`${big} + ${big}`)).toContain('longer than the limit')
    expect(ms).toBeLessThan(2_000)
  })

  it('accept a flat sum of 257 and of 3000 terms', () => {
    for (const n of [257, 3000]) {
      const r = Expr.run(Array.from({ length: n }, () => '1').join(' + '), env)
      expect(E.isRight(r) && r.right.value).toBe(BigInt(n))
    }
    const s = Expr.run(Array.from({ length: 3000 }, () => "'a'").join(' + '), env)
    expect(E.isRight(s) && s.right.value).toBe('a'.repeat(3000))
  })

  it('refuse an expression nested beyond the depth limit with a clear error', () => {
    expect(refused('('.repeat(300) + '1' + ')'.repeat(300))).toMatch(/nests too deeply/)
    expect(refused('-'.repeat(3000) + '1')).toMatch(/nests too deeply/)
  })

  it('count steps', () => {
    // a list of 10^6 items each evaluated is within the steps budget only once
    const r = Expr.run('len(1..1000000) + len(1..1000000)', env)
    expect(E.isRight(r)).toBe(true)
  })
})

describe('YAML nesting and aliases', () => {
  const blockNest = (n: number): string => {
    let text = 'data:\n'
    let pad = '  '
    for (let i = 0; i < n; i++) {
      text += `${pad}k:\n`
      pad += '  '
    }
    return text + `${pad}v\n`
  }
  const cases: Record<string, string> = {
    block: blockNest(3000),
    flow: `data: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
    sequences: `data:\n${Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i)}-`).join('\n')} x\n`,
    mixed: `data: ${'{a: ['.repeat(1500)}1${'] }'.repeat(1500)}\n`,
  }
  for (const [name, text] of Object.entries(cases)) {
    it(`3,000 nested ${name} levels are a clear error, not a crash`, () => {
      const r = Yaml.parse('m.yaml', text)
      expect(E.isLeft(r)).toBe(true)
      if (E.isLeft(r)) expect(r.left[0]!.message).toBe(`document nests deeper than ${Yaml.maxDepth} levels`)
    })
  }

  it('a billion-laughs document is refused', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 9; i++) lines.push(`${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(10).fill(`*${'abcdefghij'[i - 1]}`).join(', ')}]`)
    const { value: r, ms } = timed(() => Yaml.parse('m.yaml', lines.join('\n') + '\n'))
    expect(E.isLeft(r)).toBe(true)
    expect(ms).toBeLessThan(3_000)
  })

  it('through the CLI: a manifest with a 3,000-term template compiles', async () => {
    const s = sandbox()
    const sum = Array.from({ length: 3000 }, () => '1').join(' + ')
    const r = await plait(['compile', s.manifest(`ccm:\n  resources:\n    - exec:\n        - sum:\n            command: "/bin/echo {{ ${sum} }}"\n`)])
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('/bin/echo 3000')
  })

  it('through the CLI: a deep manifest gives the error with its position, exit 1, no stack trace', async () => {
    const s = sandbox()
    const r = await plait(['validate', s.manifest(cases['flow']!)])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/manifest\.yaml:\d+:\d+: document nests deeper than 200 levels/)
    expect(r.stderr).not.toMatch(stackFrame)
    expect(r.stderr).not.toContain('internal error')
  })
})
