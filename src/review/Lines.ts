// Lines: a catalog difference's entries drawn as text lines, as the plan draws resources (`+`
// added, `~` changed, `-` removed, content diffs indented below), every name and value escaped for
// a terminal (pure). The text and markdown renderers share them.
import { field as f } from '../core/Terminal.js'
import type * as CatalogDiff from './CatalogDiff.js'
import type * as Content from './Content.js'
import * as Structure from './Structure.js'

// constructors

/** Longest value shown on a line, in characters. */
const valueMax = 160

/** A value on one line: JSON, control characters visible, cut with `…`. */
export const value = (v: Structure.Json): string => {
  const s = f(JSON.stringify(v))
  const cs = [...s]
  return cs.length <= valueMax ? s : cs.slice(0, valueMax - 1).join('') + '…'
}

/** The symbol of an entry: `+` added, `-` removed, `~` changed. */
export const symbol = (e: CatalogDiff.Entry): string => (e._tag === 'Added' ? '+' : e._tag === 'Removed' ? '-' : '~')

/** An entry's first line: its symbol, id and `file:line`. */
export const head = (e: CatalogDiff.Entry): string => `${symbol(e)} ${f(e.id)} (${f(e.at)})`

const contentLines = (c: Content.Change, indent: string): ReadonlyArray<string> => {
  switch (c._tag) {
    case 'Text':
      return c.lines.map((l) => `${indent}${f(l)}`)
    case 'Opaque':
      return [`${indent}(too large to diff: ${c.before} → ${c.after} characters)`]
    case 'Formatting':
      return [`${indent}(${c.format} formatting only)`]
    case 'Structured':
      return [
        `${indent}(${c.format} data differs; formatting aside:)`,
        ...c.changes.map((p) =>
          p.before === undefined
            ? `${indent}+ ${f(Structure.pathText(p.path))}: ${value(p.after!)}`
            : p.after === undefined
              ? `${indent}- ${f(Structure.pathText(p.path))}: ${value(p.before)}`
              : `${indent}~ ${f(Structure.pathText(p.path))}: ${value(p.before)} → ${value(p.after)}`,
        ),
      ]
  }
}

/** An entry's lines after its head: every property of an added or removed resource, every changed property of a changed one. */
export const body = (e: CatalogDiff.Entry): ReadonlyArray<string> => {
  if (e._tag !== 'Changed') {
    const sign = e._tag === 'Added' ? '+' : '-'
    return Structure.diff({}, e.props).map((p) => `    ${sign} ${f(Structure.pathText(p.path))}: ${value(p.after!)}`)
  }
  return e.changes.flatMap((c) => {
    const path = f(c.path)
    if (c.content !== undefined) return [`    ~ ${path}:`, ...contentLines(c.content, '      ')]
    if (c.before === undefined) return [`    + ${path}: ${value(c.after!)}`]
    if (c.after === undefined) return [`    - ${path}: ${value(c.before)}`]
    return [`    ~ ${path}: ${value(c.before)} → ${value(c.after)}`]
  })
}

/** An entry's lines: its head, then its body. */
export const entry = (e: CatalogDiff.Entry): ReadonlyArray<string> => [head(e), ...body(e)]

/** The formatting-only changes of a difference, a line each. */
export const formatting = (fs: ReadonlyArray<CatalogDiff.Formatting>): ReadonlyArray<string> =>
  fs.map((x) => `  ${f(x.id)} ${f(x.path)}: ${x.format} formatting only, the same data`)

/** Names joined with `, ` in lines of at most `width` characters, each indented. */
export const wrap = (names: ReadonlyArray<string>, indent: string, width = 100): ReadonlyArray<string> => {
  const out: string[] = []
  let cur = ''
  for (const n of names.map(f)) {
    if (cur !== '' && indent.length + cur.length + n.length + 2 > width) {
      out.push(`${indent}${cur},`)
      cur = n
    } else cur = cur === '' ? n : `${cur}, ${n}`
  }
  if (cur !== '') out.push(`${indent}${cur}`)
  return out
}
