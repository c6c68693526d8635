// Position: where a value came from in a source file (1-based line and column).

export interface Position {
  readonly file: string
  readonly line: number
  readonly col: number
}

/**
 * Builds a position. Not frozen (the type's readonly keeps it unchanged): a 10,000-file manifest
 * makes some 130,000 positions, and freezing each costs about a tenth of its YAML parse.
 */
export const make = (file: string, line: number, col: number): Position => ({ file, line, col })

/** Renders `file:line:col`, as one flat string (every resource's plan keeps one; a template would keep a tree of pieces). */
export const render = (p: Position): string => [p.file, ':', p.line, ':', p.col].join('')
