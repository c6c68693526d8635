// Predicates: expr-lang's built-ins that take a predicate (`{ ... }` with `#`, `.field`, `#index`,
// `#acc`), their type check, their laws, and the evaluation budget bounding them.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Budget from '../../../src/manifest/expr/Budget.js'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Expr from '../../../src/manifest/expr/Expr.js'
import * as Template from '../../../src/manifest/expr/Template.js'
import * as Value from '../../../src/manifest/expr/Value.js'

const envWith = (data: unknown): Evaluate.Env => Evaluate.env({ data })
const plan = envWith({
  resources: [
    { type: 'package', name: 'nginx', action: 'delete' },
    { type: 'file', name: '/etc/motd', action: 'create' },
    { type: 'package', name: 'curl', action: 'none' },
  ],
})
const value = (src: string, e: Evaluate.Env = plan): Value.Value => {
  const r = Expr.run(src, e)
  if (E.isLeft(r)) throw new Error(`${src}: ${r.left.message}`)
  return r.right.value
}
const error = (src: string, e: Evaluate.Env = plan): { message: string; offset: number; stage: string } => {
  const r = Expr.run(src, e)
  if (E.isRight(r)) throw new Error(`${src} evaluated to ${Value.format(r.right.value)}`)
  return r.left
}

describe('predicate built-ins', () => {
  it.each<[string, unknown]>([
    ['any(Data.resources, {.type == "package" && .action == "delete"})', true],
    ['any(Data.resources, {.type == "service"})', false],
    ['all(Data.resources, {.name != ""})', true],
    ['none(Data.resources, {.action == "update"})', true],
    ['one(Data.resources, {.type == "file"})', true],
    ['one(Data.resources, {.type == "package"})', false],
    ['count(Data.resources, {.type == "package"})', 2n],
    ['count([true, false, true])', 2n],
    ['map(filter(Data.resources, {.type == "package"}), {.name})', ['nginx', 'curl']],
    ['Data.resources | filter(.action != "none") | map(#.name)', ['nginx', '/etc/motd']],
    ['find(Data.resources, {.type == "package"}).name', 'nginx'],
    ['findLast(Data.resources, {.type == "package"}).name', 'curl'],
    ['find(Data.resources, {.type == "user"})', null],
    ['findIndex(Data.resources, {.type == "file"})', 1n],
    ['findLastIndex([1, 2, 1], {# == 1})', 2n],
    ['findIndex([1, 2], {# == 3})', -1n],
    ['map([10, 20], {#index})', [0n, 1n]],
    ['sum([1, 2, 3])', 6n],
    ['sum([1, 2.5])', 3.5],
    ['sum([1, 2, 3], {# * 2})', 12n],
    ['sortBy([3, 1, 2], {#})', [1n, 2n, 3n]],
    ['sortBy(["b", "a", "c"], {#}, "desc")', ['c', 'b', 'a']],
    ['map(sortBy(Data.resources, {.name}), {.name})', ['/etc/motd', 'curl', 'nginx']],
    ['keys(groupBy(Data.resources, {.type}))', ['file', 'package']],
    ['len(groupBy(Data.resources, {.type}).package)', 2n],
    ['reduce([1, 2, 3], {#acc + #})', 6n],
    ['reduce([1, 2, 3], {#acc + #}, 10)', 16n],
    ['reduce([], {#acc + #}, 7)', 7n],
    ['filter([1, 2, 3, 4], # % 2 == 0)', [2n, 4n]],
    ['all([[1, 2], [3]], {all(#, {# > 0})})', true],
    ['map([[1, 2], [3]], {map(#, {# * 10})})', [[10n, 20n], [30n]]],
    ['map([1], {{"v": #}})', [{ v: 1n }]],
    ['any([], {# > 1})', false],
    ['all([], {# > 1})', true],
  ])('%s gives what expr-lang gives', (src, want) => {
    expect(value(src)).toEqual(want)
  })

  it('stops at the first match, as expr-lang does: any does not run its predicate past it', () => {
    expect(value('any([1, "a"], {# > 0})')).toBe(true)
    expect(value('all([0, "a"], {# > 0})')).toBe(false)
    expect(value('none([1, "a"], {# > 0})')).toBe(false)
    expect(value('one([1, 2, "a"], {# > 0})')).toBe(false)
    expect(value('find([1, "a"], {# > 0})')).toBe(1n)
    expect(error('all([1, "a"], {# > 0})').message).toBe('invalid operation: string > int')
  })

  it.each([
    ['all(Data.resources)', 'invalid number of arguments for all (expected 2, got 1)', 'Type'],
    ['all(1, {true})', 'builtin all takes only array (got int)', 'Type'],
    ['all([1], {1})', 'predicate should return boolean (got int)', 'Type'],
    ['filter([1], {#acc})', 'unknown pointer #acc (only reduce has an accumulator)', 'Type'],
    ['all(Data.missing, {true})', 'builtin all takes only array (got <nil>)', 'Runtime'],
    ['all([1, "a"], {#})', 'predicate should return boolean (got int)', 'Runtime'],
    ['sortBy([1, "a"], {#})', 'sortBy: cannot compare', 'Runtime'],
    ['sortBy([1], {#}, "up")', 'sortBy: unknown order "up" (expected "asc" or "desc")', 'Runtime'],
    ['sum(["a"])', 'invalid argument for sum (type string)', 'Runtime'],
  ])('refuses %s: %s', (src, message, stage) => {
    const e = error(src)
    expect(e.message).toContain(message)
    expect(e.stage).toBe(stage)
  })

  it('bounds a predicate nested in predicates by the evaluation budget (steps), in milliseconds', () => {
    const started = Date.now()
    const e = error('count(0..999, {count(0..999, {count(0..999, {# > #index}) > 0}) > 0})')
    expect(e.message).toBe(`the expression takes more than ${Budget.maxSteps} steps`)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('records what a predicate read: the list it walked', () => {
    const r = Expr.run('any(Facts.tags, {# == "web"})', Evaluate.env({ facts: { tags: ['db', 'web'] } }))
    expect(E.isRight(r) && r.right.reads.values.map((v) => [v.root, ...v.path].join('.'))).toEqual(['facts.tags'])
    expect(E.isRight(r) && r.right.value).toBe(true)
  })
})

describe('predicates in manifests', () => {
  it('work inside template holes, braces and all, keeping a lone hole\'s type', () => {
    const env = Evaluate.env({ data: { users: [{ name: 'ann', admin: true }, { name: 'bob', admin: false }] } })
    const render = (src: string): Value.Value => {
      const r = Template.render(src, env)
      if (E.isLeft(r)) throw new Error(r.left.message)
      return r.right.value
    }
    expect(render('{{ Data.users | filter(.admin) | map(.name) }}')).toEqual(['ann'])
    expect(render('admins: {{ join(map(filter(Data.users, {.admin}), {.name}), ",") }}')).toBe('admins: ann')
    expect(render('${ count(Data.users, {# .name == "}}"}) }')).toBe(0n)
    expect(render('{{ map([1], {{"a": #}}) }}')).toEqual([{ a: 1n }])
  })
})

describe('predicate laws', () => {
  const ints = fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 30 })
  const threshold = fc.integer({ min: -20, max: 20 })
  const run = (src: string, xs: ReadonlyArray<number>, t: number): Value.Value => value(src, envWith({ xs, t }))

  fcTest.prop([ints, threshold])('any(xs, p) == !none(xs, p)', (xs, t) => {
    expect(run('any(Data.xs, {# > Data.t})', xs, t)).toBe(run('!none(Data.xs, {# > Data.t})', xs, t))
  })

  fcTest.prop([ints, threshold])('count(xs, p) == len(filter(xs, p))', (xs, t) => {
    expect(run('count(Data.xs, {# > Data.t})', xs, t)).toBe(run('len(filter(Data.xs, {# > Data.t}))', xs, t))
  })

  fcTest.prop([ints, threshold])('all(xs, p) == !any(xs, !p) and one(xs, p) == (count(xs, p) == 1)', (xs, t) => {
    expect(run('all(Data.xs, {# > Data.t})', xs, t)).toBe(run('!any(Data.xs, {!(# > Data.t)})', xs, t))
    expect(run('one(Data.xs, {# > Data.t})', xs, t)).toBe(run('count(Data.xs, {# > Data.t}) == 1', xs, t))
  })

  fcTest.prop([ints])('sortBy orders as a sort of the keys, and keeps every element', (xs) => {
    expect(Value.toJS(run('sortBy(Data.xs, {#})', xs, 0))).toEqual([...xs].sort((a, b) => a - b))
  })

  fcTest.prop([ints])('reduce with + is sum; map(xs, {#}) is xs', (xs) => {
    expect(run('reduce(Data.xs, {#acc + #}, 0)', xs, 0)).toEqual(run('sum(Data.xs)', xs, 0))
    expect(Value.toJS(run('map(Data.xs, {#})', xs, 0))).toEqual(xs)
  })
})
