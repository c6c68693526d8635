// ExprError: why an expression did not lex, parse, type-check or evaluate, and where (an offset).

// model

/** The stage that found the problem. */
export type Stage = 'Syntax' | 'Type' | 'Runtime'

export interface ExprError {
  readonly _tag: 'ExprError'
  readonly stage: Stage
  /** A message close to expr-lang's ("unexpected token Operator(\"+\")", "unknown name foo"). */
  readonly message: string
  /** 0-based offset, in UTF-16 code units, of the token the error concerns. */
  readonly offset: number
}

// constructors

/** Builds an error. */
export const make = (stage: Stage, message: string, offset: number): ExprError => Object.freeze({ _tag: 'ExprError', stage, message, offset })

/** A syntax error. */
export const syntax = (message: string, offset: number): ExprError => make('Syntax', message, offset)

/** A type error found before evaluation. */
export const type = (message: string, offset: number): ExprError => make('Type', message, offset)

/** An error found while evaluating. */
export const runtime = (message: string, offset: number): ExprError => make('Runtime', message, offset)

// combinators

/** Moves an error by `by` code units (an expression inside a larger string). */
export const shift = (e: ExprError, by: number): ExprError => make(e.stage, e.message, e.offset + by)

// interop

/** 1-based line and column of an offset in a source (columns count code points, as expr-lang's do). */
export const lineColumn = (source: string, offset: number): { readonly line: number; readonly column: number } => {
  let line = 1
  let start = 0
  const end = Math.min(Math.max(offset, 0), source.length)
  for (let i = 0; i < end; i += 1) {
    if (source[i] === '\n') {
      line += 1
      start = i + 1
    }
  }
  return { line, column: [...source.slice(start, end)].length + 1 }
}

/** Draws an error as expr-lang does: the message, `(line:column)`, the source line and a caret. */
export const render = (e: ExprError, source: string): string => {
  const { line, column } = lineColumn(source, e.offset)
  const text = (source.split('\n')[line - 1] ?? '').replace(/\t/g, ' ')
  return `${e.message} (${line}:${column})\n | ${text}\n | ${'.'.repeat(column - 1)}^`
}
