// Predicates: the meaning of expr-lang's built-ins that take a predicate (all, any, filter, map,
// count, sum, find, groupBy, sortBy, reduce, ...) over a list, given a way to run the predicate on
// one element. Evaluate supplies that (it counts every step against the budget); this module only
// walks the list, in order, stopping where expr-lang stops (any at the first match, ...).
import * as E from 'fp-ts/lib/Either.js'
import * as Budget from './Budget.js'
import * as Operators from './Operators.js'
import * as Value from './Value.js'

type V = Value.Value

/** Runs the predicate on an element: the element (`#`), its index (`#index`) and, in reduce, the accumulator (`#acc`). */
export type Test = (item: V, index: number, acc?: V) => V

/** Runs a predicate built-in on its evaluated list and other arguments; `test` is absent for `count(list)` and `sum(list)`. */
export const run = (name: string, list: V, test: Test | undefined, rest: ReadonlyArray<V>): E.Either<string, V> => {
  if (!Value.isArray(list)) return E.left(`builtin ${name} takes only array (got ${Value.goType(list)})`)
  const bool = (v: V): E.Either<string, boolean> => (typeof v === 'boolean' ? E.right(v) : E.left(`predicate should return boolean (got ${Value.goType(v)})`))
  const matches = (i: number): E.Either<string, boolean> => (test === undefined ? bool(list[i]!) : bool(test(list[i]!, i)))
  /** The index of the first element (or the last, from the end) for which the predicate gives `want`, or -1. */
  const first = (fromEnd: boolean, want = true): E.Either<string, number> => {
    for (let k = 0; k < list.length; k += 1) {
      const i = fromEnd ? list.length - 1 - k : k
      const m = matches(i)
      if (E.isLeft(m)) return m
      if (m.right === want) return E.right(i)
    }
    return E.right(-1)
  }
  const counted = (stopAt: number): E.Either<string, number> => {
    let n = 0
    for (let i = 0; i < list.length && n < stopAt; i += 1) {
      const m = matches(i)
      if (E.isLeft(m)) return m
      if (m.right) n += 1
    }
    return E.right(n)
  }
  switch (name) {
    case 'all':
      return E.map((i: number) => (i < 0) as V)(first(false, false))
    case 'any':
      return E.map((i: number) => (i >= 0) as V)(first(false))
    case 'none':
      return E.map((i: number) => (i < 0) as V)(first(false))
    case 'one':
      return E.map((n: number) => (n === 1) as V)(counted(2))
    case 'count':
      return E.map((n: number) => BigInt(n) as V)(counted(Infinity))
    case 'find':
    case 'findLast':
      return E.map((i: number) => (i < 0 ? null : list[i]!))(first(name === 'findLast'))
    case 'findIndex':
    case 'findLastIndex':
      return E.map((i: number) => BigInt(i) as V)(first(name === 'findLastIndex'))
    case 'filter': {
      const out: V[] = []
      for (let i = 0; i < list.length; i += 1) {
        const m = matches(i)
        if (E.isLeft(m)) return m
        if (m.right) out.push(list[i]!)
      }
      return E.right(Value.array(out))
    }
    case 'map':
      return E.right(Value.array(list.map((x, i) => test!(x, i))))
    case 'sum': {
      let acc: V = 0n
      for (let i = 0; i < list.length; i += 1) {
        const x = test === undefined ? list[i]! : test(list[i]!, i)
        if (!Value.isNumber(x)) return E.left(`invalid argument for sum (type ${Value.goType(x)})`)
        const next = Operators.binary('+', acc, x)
        if (E.isLeft(next)) return next
        acc = next.right
      }
      return E.right(acc)
    }
    case 'groupBy': {
      const groups = new Map<string, V[]>()
      list.forEach((x, i) => {
        const k = test!(x, i)
        const key = typeof k === 'string' ? k : Value.format(k)
        const group = groups.get(key)
        if (group === undefined) groups.set(key, [x])
        else group.push(x)
      })
      return E.right(Value.map([...groups].map(([k, xs]) => [k, Value.array(xs)] as const)))
    }
    case 'sortBy':
      return sortBy(list, test!, rest[0] ?? 'asc')
    case 'reduce': {
      const seeded = rest.length > 0
      if (!seeded && list.length === 0) return E.right(null)
      let acc: V = seeded ? rest[0]! : list[0]!
      for (let i = seeded ? 0 : 1; i < list.length; i += 1) acc = test!(list[i]!, i, acc)
      return E.right(acc)
    }
  }
  return E.left(`unknown func ${name}`)
}

/** Sorts by the predicate's key, stably: all keys numbers, or all strings (or all times); `order` "asc" or "desc". */
const sortBy = (list: ReadonlyArray<V>, test: Test, order: V): E.Either<string, V> => {
  if (order !== 'asc' && order !== 'desc') return E.left(`sortBy: unknown order ${typeof order === 'string' ? JSON.stringify(order) : Value.format(order)} (expected "asc" or "desc")`)
  const keyed = list.map((x, i) => ({ x, k: test(x, i), i }))
  const fits = Budget.items('sortBy', keyed.length)
  if (E.isLeft(fits)) return fits
  let problem: string | undefined
  const sorted = [...keyed].sort((a, b) => {
    const c = Operators.compare('<', a.k, b.k)
    if (E.isLeft(c)) {
      problem ??= `sortBy: cannot compare ${Value.goType(a.k)} and ${Value.goType(b.k)}`
      return 0
    }
    return (order === 'asc' ? c.right : -c.right) || a.i - b.i
  })
  if (keyed.length === 1) {
    const c = Operators.compare('<', keyed[0]!.k, keyed[0]!.k)
    if (E.isLeft(c)) problem = `sortBy: cannot sort by ${Value.goType(keyed[0]!.k)}`
  }
  return problem !== undefined ? E.left(problem) : E.right(Value.array(sorted.map((e) => e.x)))
}
