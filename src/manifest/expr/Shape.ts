// Shape: how many elements and entries a value holds, at every level, and how deep it nests, counting a part each
// time it appears. An expression can build a value that shares itself (`reduce(1..k, [#acc,
// #acc], [1])` is 2^k leaves in some 4k steps); every walk of it (`string()`, `==`, `toJSON`, a
// data value's conversion) visits the shared parts each time, so that count, not the memory the
// value takes, is what a walk costs. Evaluate refuses a built value past Budget.maxItems of them or
// deeper than Depth.maxData (the recursive walks would overflow the stack).
import * as Value from './Value.js'

// model

/** A value's parts (its elements or entries and theirs, each time it appears: a scalar has none) and depth (a scalar's is 0). */
export interface Shape {
  readonly parts: number
  readonly depth: number
}

// constructors

const scalar: Shape = Object.freeze({ parts: 0, depth: 0 })

/** Lists and maps measured so far: values are frozen, so a shape never changes. */
const known = new WeakMap<object, Shape>()

/**
 * The shape of a value. Each list or map is measured once (a shared part is looked up, not walked
 * again), so a value built a step at a time costs its new parts only. Recursive: values reach here
 * either built by expressions, whose every part was measured as it was built, or from data and
 * facts, which nest at most Depth.maxData levels.
 */
export const of = (v: Value.Value): Shape => {
  if (typeof v !== 'object' || v === null || v instanceof Value.Time) return scalar
  const seen = known.get(v)
  if (seen !== undefined) return seen
  let parts = 0
  let depth = 0
  for (const x of Value.isArray(v) ? v : Object.values(v)) {
    const s = of(x)
    parts += 1 + s.parts
    if (s.depth > depth) depth = s.depth
  }
  const shape = { parts, depth: depth + 1 }
  known.set(v, shape)
  return shape
}
