// Expr: the expression language in one call: parse, type-check and evaluate a source string.
import * as E from 'fp-ts/lib/Either.js'
import type { Node } from './Ast.js'
import * as Check from './Check.js'
import * as Evaluate from './Evaluate.js'
import type * as ExprError from './ExprError.js'
import * as Parser from './Parser.js'

/** Parses and type-checks an expression for a mode, without evaluating it. */
export const compile = (src: string, mode: Check.Mode = 'manifest'): E.Either<ExprError.ExprError, Node> =>
  E.chain((node: Node) => E.map(() => node)(Check.check(node, mode)))(Parser.parse(src))

/** Parses, checks and evaluates an expression; the outcome has the value and what it read. */
export const run = (src: string, env: Evaluate.Env): E.Either<ExprError.ExprError, Evaluate.Outcome> =>
  E.chain((node: Node) => Evaluate.evaluate(node, env))(Parser.parse(src))
