// stack: an internal error's stack trace as a person can read it (PLAIT_DEBUG). The command ships as
// one minified script (scripts/bundle.mjs), whose frames say `plait.cjs:255:98765` and whose
// function names are a letter or two; each frame in it is mapped through the source map shipped
// beside it to the TypeScript line it was built from.
import { readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import * as nodePath from 'node:path'
import { regExpSource } from '../core/Literals.js'
import { memo } from '../core/Memo.js'

/** Where a generated position came from (Node's SourceMap#findEntry: 0-based line and column). */
export interface Lookup {
  readonly findEntry: (line: number, column: number) => { readonly originalSource?: string; readonly originalLine?: number; readonly originalColumn?: number }
}

/**
 * The stack with every frame of the bundle `file` (`at … (DIR/NAME:LINE:COLUMN)` or `at
 * DIR/NAME:LINE:COLUMN`, NAME being `file`'s name, 1-based as V8 prints them) given the source
 * position the lookup gives, as `SOURCE:LINE:COLUMN` (`source` names the source as the map does);
 * a position the lookup does not know, and every other frame, is left as it is. The directory may
 * be any: V8 names a script compiled from a code cache as the run that made the cache named it,
 * so an installed plait's frames carry the path of the build that trained its cache.
 */
export const mapStack = (stack: string, file: string, lookup: Lookup, source: (name: string) => string): string =>
  stack.replace(new RegExp(`^(\\s+at [^/\\n]*)(?:/[^\\n]*/)?${regExpSource(nodePath.basename(file))}:(\\d+):(\\d+)(\\)?)$`, 'gm'), (frame, head: string, line: string, column: string, close: string) => {
    const e = lookup.findEntry(Number(line) - 1, Number(column) - 1)
    return e.originalSource === undefined || e.originalLine === undefined || e.originalColumn === undefined ? frame : `${head}${source(e.originalSource)}:${e.originalLine + 1}:${e.originalColumn + 1}${close}`
  })

/** A file's source map, read once (a provider test may report many failures; the map is megabytes); undefined: none readable. */
const lookupOf = memo((file: string): Lookup | undefined => {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0])
  } catch {
    return undefined
  }
})

/**
 * The stack mapped through `file`'s source map (`FILE.map`, as the bundle's link names it), its
 * sources given as absolute paths; the stack as it is when there is no readable map.
 */
export const readable = (stack: string, file: string): string => {
  const lookup = lookupOf(file)
  if (lookup === undefined) return stack
  const dir = nodePath.dirname(file)
  return mapStack(stack, file, lookup, (name) => nodePath.resolve(dir, name))
}
