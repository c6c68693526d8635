// Work: what an evaluation's steps cost beyond being steps. A step that builds a list of a million
// items, compares two long texts or runs a regular expression over one is a single step, so each
// step is also charged the work it does (Budget.maxWork), and a value a step builds is measured
// (Shape: its items, a shared one each time it appears, and its depth) and refused past the
// limits. Values read from data, facts or a variable are not measured: only what is built.
import * as E from 'fp-ts/lib/Either.js'
import * as Re2 from '../../re2/Re2.js'
import * as Budget from './Budget.js'
import type { State } from './EvalState.js'
import * as Shape from './Shape.js'
import * as Value from './Value.js'

/** The error of an evaluation past its work budget. */
export const limit = `the expression does more than the limit of ${Budget.maxWork} units of work (a character is one, a list's item or a map's entry ${Budget.partWork}, a regular expression's state visited one)`

const isComposite = (v: Value.Value): v is ReadonlyArray<Value.Value> | Value.ValueMap => typeof v === 'object' && v !== null && !(v instanceof Value.Time)

/** What building a value costs (its characters, or its top-level items or entries), or why it may not be built (too many items, too deep). */
export const ofBuilt = (v: Value.Value): E.Either<string, number> => {
  if (typeof v === 'string') return E.right(v.length)
  if (!isComposite(v)) return E.right(0)
  const shape = Shape.of(v)
  if (shape.depth > Budget.maxDepth) return E.left(`the value nests deeper than the limit of ${Budget.maxDepth} levels`)
  if (shape.parts > Budget.maxItems) return E.left(`the value holds more than the limit of ${Budget.maxItems} items (the elements and entries of its lists and maps at every level, a shared one each time it appears)`)
  return E.right(Budget.partWork * (Array.isArray(v) ? v.length : Object.keys(v).length))
}

/** What reading a value whole costs (an operator comparing or searching it): its characters, or its parts. */
export const ofRead = (v: Value.Value): number => (typeof v === 'string' ? v.length : isComposite(v) ? Budget.partWork * (1 + Shape.of(v).parts) : 0)

/** Charges work to an evaluation, refusing it past the budget. */
export const charge = (state: State, work: number): E.Either<string, void> => {
  state.work += work
  return state.work > Budget.maxWork ? E.left(limit) : E.right(undefined)
}

/** Runs a `matches`, its compiling and matching bounded by the work left and charged what they did (Re2.meter: a unit a state). */
export const metered = <A>(state: State, f: () => A): E.Either<string, A> => {
  Re2.meter.done = 0
  Re2.meter.limit = Budget.maxWork - state.work
  try {
    return E.right(f())
  } catch (e) {
    if (e instanceof Re2.Exhausted) return E.left(limit)
    throw e
  } finally {
    state.work += Re2.meter.done
    Re2.meter.done = 0
    Re2.meter.limit = Number.POSITIVE_INFINITY
  }
}
