// EvalStop: how an evaluation fails (Evaluate.ts). A runtime error deep in a tree is thrown as a
// Stop carrying its ExprError, and caught once where the evaluation started (`run`), which gives it
// back as a Left; anything else thrown is a bug and passes through.
import * as E from 'fp-ts/lib/Either.js'
import * as ExprError from './ExprError.js'

export class Stop {
  constructor(readonly error: ExprError.ExprError) {}
}

/** Stops the evaluation with a runtime error at offset `at`. */
export const fail = (message: string, at: number): never => {
  throw new Stop(ExprError.runtime(message, at))
}

/** The right of `r`, or the evaluation stopped with its left at `at`. */
export const orFail = <A>(r: E.Either<string, A>, at: number): A => (E.isLeft(r) ? fail(r.left, at) : r.right)

/**
 * `f(x, y)`, or the error of the Stop it threw. Arguments rather than a closure: a template's
 * rendering runs it once for every value a manifest templates, in code that is never optimized,
 * where each closure is allocated.
 */
export const run = <X, Y, A>(f: (x: X, y: Y) => A, x: X, y: Y): E.Either<ExprError.ExprError, A> => {
  try {
    return E.right(f(x, y))
  } catch (e) {
    if (e instanceof Stop) return E.left(e.error)
    throw e
  }
}
