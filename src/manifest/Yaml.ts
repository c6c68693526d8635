// Yaml: parses YAML text into a positioned Node tree, or positioned diagnostics.
//
// Two parsers give the same trees. `block` (YamlBlock.ts) reads the subset manifests are written in (block
// maps and lists, one-line flow maps and lists, plain, quoted and literal scalars, comments) in one
// pass over the text, and gives up (undefined) at anything else: multi-line flow collections,
// anchors, tags, multi-line plain or quoted scalars, tabs, duplicate keys, any error. `library` is
// the yaml library, which then reads the whole text, so every error message and every rare
// construct is the library's. The tests check that wherever `block` answers, it answers what
// `library` does.
import * as E from 'fp-ts/lib/Either.js'
import * as Y from 'yaml'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import type { Entry, Node } from './Node.js'
import { block } from './YamlBlock.js'
import * as YamlKeys from './YamlKeys.js'

export { block, resolvePlain } from './YamlBlock.js'

/** The most alias expansions a document may make before it is refused (a guard against YAML bombs). */
export const maxAliasExpansions = 10_000

/** The most nodes a document may have once its aliases are expanded (a guard against YAML bombs). */
export const maxNodes = 1_000_000

/** The deepest nesting a document may have. */
export const maxDepth = 200

/** Parses one YAML document; `file` names it in positions. */
export const parse = (file: string, text: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node> => {
  const fast = block(file, text)
  return fast !== undefined ? E.right(fast) : library(file, text)
}

// ---------------------------------------------------------------- the library

/** Parses any YAML document with the yaml library. */
export const library = (file: string, text: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node> => {
  const lines = new Y.LineCounter()
  const tooDeep = `document nests deeper than ${maxDepth} levels`
  let doc: Y.Document.Parsed
  try {
    // keys checked unique by YamlKeys, in linear time: the library's own check is quadratic
    doc = YamlKeys.checkUnique(Y.parseDocument(text, { lineCounter: lines, keepSourceTokens: true, uniqueKeys: false, prettyErrors: false }))
  } catch (e) {
    // the library's own recursion, on nesting far beyond ours
    if (e instanceof RangeError) return E.left([Diagnostic.make('Syntax', tooDeep, { at: Position.make(file, 1, 1) })])
    throw e
  }
  const at = (offset: number): Position.Position => {
    const p = lines.linePos(offset)
    return Position.make(file, p.line, p.col)
  }
  if (doc.errors.length > 0) {
    return E.left(
      doc.errors.map((e) => Diagnostic.make('Syntax', /call stack/i.test(e.message) ? tooDeep : cleanMessage(e.message), { at: at(e.pos[0]) })),
    )
  }
  const problems: Diagnostic.Diagnostic[] = []
  let expansions = 0
  let nodes = 0
  // found at the first alias: most documents have none
  let targets: ReadonlyMap<Y.Alias, AliasTarget> | undefined
  const convert = (n: unknown, depth: number): Node => {
    if (++nodes > maxNodes) {
      if (nodes === maxNodes + 1) problems.push(Diagnostic.make('Syntax', `document has more than ${maxNodes} nodes once its aliases are expanded`, { at: at(rangeOf(n)) }))
      return nullAt(at(rangeOf(n)))
    }
    if (depth > maxDepth) {
      problems.push(Diagnostic.make('Syntax', tooDeep, { at: at(rangeOf(n)) }))
      return nullAt(at(rangeOf(n)))
    }
    if (Y.isAlias(n)) {
      expansions += 1
      if (expansions > maxAliasExpansions) {
        problems.push(
          Diagnostic.make('Syntax', `too many alias expansions (more than ${maxAliasExpansions})`, { at: at(rangeOf(n)) }),
        )
        return nullAt(at(rangeOf(n)))
      }
      targets ??= aliasTargets(doc)
      const target = targets.get(n)
      if (target === undefined) {
        problems.push(Diagnostic.make('Syntax', `unresolved alias *${n.source}`, { at: at(rangeOf(n)) }))
        return nullAt(at(rangeOf(n)))
      }
      return convert(target, depth + 1)
    }
    if (Y.isScalar(n)) {
      const pos = at(rangeOf(n))
      const v = n.value
      const value = v === null || v === undefined ? null : typeof v === 'bigint' ? Number(v) : v
      if (typeof value === 'object' && value !== null) {
        problems.push(Diagnostic.make('Syntax', 'unsupported scalar type', { at: pos }))
        return nullAt(pos)
      }
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && value !== null) {
        problems.push(Diagnostic.make('Syntax', 'unsupported scalar type', { at: pos }))
        return nullAt(pos)
      }
      const plain = n.type === 'PLAIN' || n.type === undefined
      const text = plain && typeof n.source === 'string' ? n.source : value === null ? '' : String(value)
      return { _tag: 'Scalar', value, text, quoted: !plain, at: pos }
    }
    if (Y.isMap(n)) {
      const entries: Entry[] = []
      for (const pair of n.items) {
        const k = pair.key
        if (!Y.isScalar(k) || (typeof k.value !== 'string' && typeof k.value !== 'number' && typeof k.value !== 'boolean')) {
          problems.push(Diagnostic.make('Syntax', 'map keys must be plain strings', { at: at(rangeOf(k ?? n)) }))
          continue
        }
        const keyText = typeof k.value === 'string' ? k.value : (k.source ?? String(k.value))
        const keyAt = at(rangeOf(k))
        const value = pair.value === null || pair.value === undefined ? nullAt(keyAt) : convert(pair.value, depth + 1)
        entries.push({ key: keyText, keyAt, value })
      }
      return { _tag: 'Map', entries, at: at(rangeOf(n)) }
    }
    if (Y.isSeq(n)) {
      const items = n.items.map((i) => (i === null || i === undefined ? nullAt(at(rangeOf(n))) : convert(i, depth + 1)))
      return { _tag: 'Seq', items, at: at(rangeOf(n)) }
    }
    return nullAt(at(rangeOf(n)))
  }
  const root = doc.contents === null ? nullAt(Position.make(file, 1, 1)) : convert(doc.contents, 0)
  return problems.length > 0 ? E.left(problems) : E.right(root)
}

/** What an alias refers to: an anchored scalar, map or list, or nothing. */
export type AliasTarget = ReturnType<Y.Alias['resolve']>

/**
 * The node each alias of a document refers to: the last node before it in document order with its
 * anchor, as YAML has it and the library's `Alias.resolve` finds it, or undefined (an alias before
 * its anchor). One walk for all the aliases: `resolve` without a context walks the whole document
 * for each one, so N aliases took N walks (4,000 took 29 s). The walk is the library's `visit`
 * order (a node before its items, a key before its value), with a stack: no recursion to overflow.
 */
export const aliasTargets = (doc: Y.Document.Parsed): ReadonlyMap<Y.Alias, AliasTarget> => {
  const targets = new Map<Y.Alias, AliasTarget>()
  const anchors = new Map<string, NonNullable<AliasTarget>>()
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const n = stack.pop()
    if (Y.isAlias(n)) targets.set(n, anchors.get(n.source))
    else if ((Y.isScalar(n) || Y.isCollection(n)) && n.anchor) anchors.set(n.anchor, n)
    if (Y.isCollection(n)) for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i])
    else if (Y.isPair(n)) stack.push(n.value, n.key)
  }
  return targets
}

const nullAt = (at: Position.Position): Node => ({ _tag: 'Scalar', value: null, text: '', quoted: false, at })

const rangeOf = (n: unknown): number => {
  const r = (n as { range?: [number, number, number] } | null)?.range
  return r === undefined ? 0 : r[0]
}

// The yaml library appends a code frame and position to messages; we render positions ourselves.
const cleanMessage = (m: string): string => m.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
