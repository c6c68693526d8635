// plait's expressions against expr-lang itself: every case of table.json (made by tools/exprtable
// with expr-lang) must give the same value and type, or an error where expr-lang gave one; the
// listed divergences must give plait's documented answer instead.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Expr from '../../../src/manifest/expr/Expr.js'
import { divergences, type Expected } from './divergences.js'
import { encode, table, tableEnv, type Case } from './support.js'

const envs = { full: tableEnv('manifest'), hiera: tableEnv('hierarchy') }
const diverging = new Map(divergences.map((d) => [d.expr, d]))
const run = (c: Case): Expected => {
  const r = Expr.run(c.expr, envs[c.mode])
  return E.isLeft(r) ? 'error' : encode(r.right.value)
}
const said = (c: Case): Expected => (c.error !== undefined ? 'error' : c.result!)

describe('the expr-lang table', () => {
  it('has a few hundred cases, errors among them, from expr-lang', () => {
    expect(table.generator).toMatch(/expr/)
    expect(table.cases.length).toBeGreaterThan(300)
    expect(table.cases.filter((c) => c.error !== undefined).length).toBeGreaterThan(100)
  })

  const agreeing = table.cases.filter((c) => !diverging.has(c.expr))
  it.each(agreeing.map((c) => [`${c.group}: ${c.mode === 'hiera' ? '(hierarchy) ' : ''}${c.expr}`, c] as const))('%s', (_, c) => {
    expect(run(c)).toEqual(said(c))
  })

  it.each(divergences.map((d) => [d.expr, d] as const))('diverges on purpose: %s', (_, d) => {
    const c = table.cases.find((x) => x.expr === d.expr)
    expect(c, 'the divergence names a case of the table').toBeDefined()
    expect(said(c!), 'the table still says what the divergence records').toEqual(d.table)
    expect(run(c!)).toEqual(d.ours)
  })

  it('points errors at the same column as expr-lang for most failing cases', () => {
    const both = agreeing.filter((c) => c.error !== undefined && c.error.line === 1)
    const same = both.filter((c) => {
      const r = Expr.run(c.expr, envs[c.mode])
      return E.isLeft(r) && [...c.expr.slice(0, r.left.offset)].length === c.error!.column
    })
    expect(same.length / both.length).toBeGreaterThan(0.9)
  })
})
