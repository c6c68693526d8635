// Template: strings with `{{ expr }}` and `${ expr }` holes, as CCM manifests write them. A string
// that is exactly one hole (whitespace around it aside) keeps the expression's type; otherwise
// each hole is printed as Go's fmt.Sprint prints it and the pieces are joined. Errors carry the
// position in the YAML file when the caller gives the string's own position.
import * as E from 'fp-ts/lib/Either.js'
import * as Position from '../../core/Position.js'
import * as Evaluate from './Evaluate.js'
import * as ExprError from './ExprError.js'
import * as TemplateSyntax from './TemplateSyntax.js'
import * as Value from './Value.js'

// model

/** Where a template's text sits in a file, so that errors can point into it. */
export interface Where {
  /** The position of the scalar in the YAML file. */
  readonly base: Position.Position
  /** Columns from `base` to the text's first character (1 for a quoted scalar, whose base is the quote). */
  readonly shift?: number
  /** Column (1-based) where lines after the first start (a block scalar's indentation + 1); default 1. */
  readonly indent?: number
}

/** A template that did not parse or evaluate. */
export interface Problem {
  readonly _tag: 'TemplateProblem'
  readonly error: ExprError.ExprError
  /** The error's position in the file, when `Where` was given. */
  readonly at?: Position.Position
  /** The message with the failing piece of the template: `unknown name x (in "{{ x }}", column 4)`. */
  readonly message: string
}

export interface Rendered {
  readonly value: Value.Value
  readonly reads: Evaluate.Reads
  /** False when every hole gave "" or nil (CCM skips such hierarchy entries); true for plain non-empty text. */
  readonly matched: boolean
}

const noReads: Evaluate.Reads = { values: [], files: [], clock: false }

// positions

/** The file position of an offset in a template, given where the template's text starts. */
export const position = (src: string, offset: number, where: Where): Position.Position => {
  const before = src.slice(0, Math.max(0, Math.min(offset, src.length)))
  const lines = before.split('\n')
  const last = [...lines[lines.length - 1]!].length
  if (lines.length === 1) return Position.make(where.base.file, where.base.line, where.base.col + (where.shift ?? 0) + last)
  return Position.make(where.base.file, where.base.line + lines.length - 1, (where.indent ?? 1) + last)
}

const problem = (src: string, error: ExprError.ExprError, where: Where | undefined): Problem => {
  const { column } = ExprError.lineColumn(src, error.offset)
  const shown = src.length > 80 ? `${src.slice(0, 77)}...` : src
  const message = `${error.message} (in ${JSON.stringify(shown)}, column ${column})`
  return where === undefined
    ? { _tag: 'TemplateProblem', error, message }
    : { _tag: 'TemplateProblem', error, message, at: position(src, error.offset, where) }
}

// parsing

/** Parses a template, for checking it without evaluating (`plait validate`). */
export const parse = (src: string, where?: Where): E.Either<Problem, TemplateSyntax.Template> => {
  // no mapLeft: its two closures per call were made for every value rendered, the parse nearly always right
  const parsed = TemplateSyntax.parse(src)
  return E.isLeft(parsed) ? E.left(problem(src, parsed.left, where)) : parsed
}

// rendering

/** Renders a template keeping a lone expression's type (`"{{ Data.port }}"` gives the int 8080). */
export const render = (src: string, env: Evaluate.Env, where?: Where): E.Either<Problem, Rendered> => {
  if (TemplateSyntax.isPlain(src)) return E.right({ value: src, reads: noReads, matched: src !== '' })
  const parsed = parse(src, where)
  if (E.isLeft(parsed)) return parsed
  const rendered = Evaluate.renderTemplate(parsed.right, env)
  return E.isLeft(rendered) ? E.left(problem(src, rendered.left, where)) : rendered
}

/** Renders a template to text, whatever the holes' types (hierarchy entries, resource names). */
export const renderText = (src: string, env: Evaluate.Env, where?: Where): E.Either<Problem, Rendered & { readonly value: string }> =>
  E.map((r: Rendered) => ({ ...r, value: typeof r.value === 'string' ? r.value : Value.format(r.value) }))(render(src, env, where))
