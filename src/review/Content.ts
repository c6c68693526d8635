// Content: how a text value (a file's rendered content, a command) changed between two catalogs:
// a unified diff of its lines, or, for YAML and JSON, the difference of the data it holds, so a
// change of formatting only (indentation, key order, quoting, comments) is not a change (pure).
import * as Digest from '../core/Digest.js'
import * as Memo from '../core/Memo.js'
import * as UnifiedDiff from '../core/UnifiedDiff.js'
import * as Y from 'yaml'
import * as Structure from './Structure.js'
import * as YamlKeys from '../manifest/YamlKeys.js'

// model

export type Format = 'json' | 'yaml'

/**
 * A changed text: `Text` (its unified diff, `---`/`+++` header first), `Formatting` (both sides
 * hold equal data: not a change), `Structured` (the data differs; where, path by path) or
 * `Opaque` (too large to diff: only the sizes).
 */
export type Change =
  | { readonly _tag: 'Text'; readonly lines: ReadonlyArray<string> }
  | { readonly _tag: 'Formatting'; readonly format: Format }
  | { readonly _tag: 'Structured'; readonly format: Format; readonly changes: ReadonlyArray<Structure.PathChange> }
  | { readonly _tag: 'Opaque'; readonly before: number; readonly after: number }

/** Texts longer than this (in characters) are not diffed line by line nor parsed. */
export const diffLimit = 1_048_576

// constructors

/** The format a name says (`.json`, `.yaml`, `.yml`), else JSON when a text looks like a JSON document. */
export const formatOf = (name: string, text: string): Format | undefined => {
  const lower = name.toLowerCase()
  if (lower.endsWith('.json')) return 'json'
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml'
  return /^\s*[[{]/.test(text) && /[\]}]\s*$/.test(text) ? 'json' : undefined
}

/** A text's data in a format (every document of a YAML stream), or undefined when it is not valid there. */
export const parse = (format: Format, text: string): Structure.Json | undefined => {
  try {
    if (format === 'json') return Structure.plain(JSON.parse(text))
    // keys checked unique by YamlKeys, in linear time: the library's own check is quadratic
    const docs = Y.parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false })
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0 || YamlKeys.duplicates(d).length > 0)) return undefined
    return docs.map((d) => Structure.plain(d.toJS({ maxAliasCount: 100 })))
  } catch {
    return undefined
  }
}

/** A unified diff of two texts as lines (`--- from`, `+++ to`, hunks), as `diff -u` draws it. */
export const unified = (before: string, after: string, labels: { readonly from: string; readonly to: string }): ReadonlyArray<string> =>
  UnifiedDiff.lines(labels.from, labels.to, before, after).filter((l) => l !== '')

/**
 * How a text changed (the two texts differ). `name` says the format (a file's path); YAML or JSON
 * whose data is equal on both sides is `Formatting`, whatever its text.
 */
export const compare = (name: string, before: string, after: string, labels: { readonly from: string; readonly to: string }): Change => {
  if (before.length > diffLimit || after.length > diffLimit) return { _tag: 'Opaque', before: before.length, after: after.length }
  if (before.length + after.length < keptFrom) return compareTexts(name, before, after, labels)
  // hosts of one role compare the same two texts: a large pair's change is worked out once
  const key = `${formatOf(name, before) ?? formatOf(name, after) ?? ''}\0${labels.from}\0${labels.to}\0${Digest.sha256(before)}\0${Digest.sha256(after)}`
  return kept(key, () => compareTexts(name, before, after, labels))
}

/** From how many characters (both texts) a pair's change is kept, and how many changes at most (the oldest goes first). */
const keptFrom = 65_536
const kept = Memo.recent<Change>(64)

const compareTexts = (name: string, before: string, after: string, labels: { readonly from: string; readonly to: string }): Change => {
  const format = formatOf(name, before) ?? formatOf(name, after)
  if (format !== undefined) {
    const a = parse(format, before)
    const b = parse(format, after)
    if (a !== undefined && b !== undefined) {
      const changes = Structure.diff(a, b)
      return changes.length === 0 ? { _tag: 'Formatting', format } : { _tag: 'Structured', format, changes }
    }
  }
  return { _tag: 'Text', lines: unified(before, after, labels) }
}

// guards

/** True when a change is one a reviewer must look at (not formatting only). */
export const matters = (c: Change): boolean => c._tag !== 'Formatting'
