// Position: where a value came from in a source file (1-based line and column).

export interface Position {
  readonly file: string
  readonly line: number
  readonly col: number
}

/** Builds a position. */
export const make = (file: string, line: number, col: number): Position => Object.freeze({ file, line, col })

/** Renders `file:line:col`. */
export const render = (p: Position): string => `${p.file}:${p.line}:${p.col}`
