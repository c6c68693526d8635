// Policy: rules a plan must pass before it is applied, as read from a policy file (see
// PolicyFile.ts and docs/policy.md). Each rule has a level, a message template, and a test in
// plait's expression language over the plan as View.ts shows it.
import type * as Ast from '../manifest/expr/Ast.js'
import type * as Template from '../manifest/expr/Template.js'
import type * as Position from '../core/Position.js'

// model

/** advisory: reported only; soft: fails unless overridden with a reason; hard: always fails. */
export type Level = 'advisory' | 'soft' | 'hard'

export const levels: ReadonlyArray<Level> = ['advisory', 'soft', 'hard']

/** An expression of the policy file: its source, its tree, and where its text sits in the file (for errors). */
export interface Expression {
  readonly source: string
  readonly node: Ast.Node
  readonly where: Template.Where
}

/**
 * What a rule tests. `deny`: a finding when the expression holds; `assert`: a finding when it does
 * not. With `each` (a list), the expression is a predicate judged on every element (`#`, `.field`):
 * one finding per offending element. Without it, a top-level `any(LIST, {P})` in `deny` (or
 * `all(LIST, {P})` in `assert`) is read the same way, LIST as `each` and P as the predicate.
 */
export interface Test {
  readonly _tag: 'Deny' | 'Assert'
  readonly expression: Expression
  /** The list judged element by element; absent for a test of the whole plan. */
  readonly each?: Expression
}

export interface Rule {
  /** Unique in its policy; letters, digits, `.`, `_` and `-` (it names the rule in overrides and reports). */
  readonly name: string
  readonly level: Level
  /** A template (`{{ item.name }}`): `item` is the offending element (nil for a test of the whole plan). */
  readonly message: string
  readonly messageWhere: Template.Where
  readonly test: Test
  /** When given, the rule applies only to plans for which it holds. */
  readonly when?: Expression
  /** Where the rule starts in the policy file. */
  readonly at: Position.Position
}

export interface Policy {
  readonly file: string
  readonly rules: ReadonlyArray<Rule>
}

/** The form of a rule name. */
export const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/
