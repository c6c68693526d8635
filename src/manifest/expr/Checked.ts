// Checked: the type checks of an evaluation's expressions, made once. A template's holes are checked
// against the environment they are rendered in for every value of a manifest, with the same trees
// (TemplateSyntax remembers them by source) and the same extras: ten thousand values written with
// `{{ Data.service }}` check it once, and make its extras' names once.
import type * as E from 'fp-ts/lib/Either.js'
import type { Node } from './Ast.js'
import type * as Builtins from './Builtins.js'
import * as Check from './Check.js'
import type { Env, Extra } from './Env.js'
import type * as ExprError from './ExprError.js'

/** The names of an environment's extras, for the type check. */
const extraNames = (environment: Env): Check.Extra => {
  const extra = environment.extra
  if (extra === undefined) return noExtraNames
  let names = namesOf.get(extra)
  if (names === undefined) {
    names = { variables: new Set(extra.variables?.keys() ?? []), functions: new Set(extra.functions?.keys() ?? []) }
    namesOf.set(extra, names)
  }
  return names
}

/**
 * The names of each environment's extras, made once: a template renders its holes against the same
 * environment (or a copy of it sharing its `extra`) for every value of a manifest, and a set of
 * names made per hole was a tenth of rendering one.
 */
const namesOf = new WeakMap<Extra, Check.Extra>()
const noExtraNames: Check.Extra = { variables: new Set(), functions: new Set() }

/**
 * The type check of a hole, remembered with what it was checked against: a hole's tree is shared
 * by every template that writes the same expression (TemplateSyntax remembers them by source), and
 * the check depends only on the tree, the mode and the extras' names, so ten thousand values with
 * `{{ Data.service }}` check it once. An environment's `extra` maps are never changed once made
 * (they are ReadonlyMaps, and every caller makes new ones for new names): a check remembered for
 * them stays true.
 */
const checks = new WeakMap<Node, { readonly mode: Check.Mode; readonly names: Check.Extra; readonly result: E.Either<ExprError.ExprError, Builtins.Type> }>()

export const check = (node: Node, environment: Env): E.Either<ExprError.ExprError, Builtins.Type> => {
  const names = extraNames(environment)
  const known = checks.get(node)
  if (known !== undefined && known.mode === environment.mode && known.names === names) return known.result
  const result = Check.check(node, environment.mode, names)
  checks.set(node, { mode: environment.mode, names, result })
  return result
}
