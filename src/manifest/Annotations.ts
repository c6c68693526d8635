// Annotations: CCM's data annotations, `# @require` (or `@required`) and `# @validate <expression>`
// in the comments of the keys of `data`, read from the YAML text, and the check of the resolved
// data against them.
//
// A key's comments are the comment lines directly above it (up to a blank or other line) and the
// comment at the end of its own line. Keys inside lists are not annotated (as CCM: it skips array
// paths). An `@` comment that annotates nothing, or an unknown `@` directive, is a warning, as in
// CCM, so that a typo like `@requiired` does not pass unnoticed.
import * as E from 'fp-ts/lib/Either.js'
import * as Y from 'yaml'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import type * as Node from './Node.js'
import * as ValidatorExpr from './ValidatorExpr.js'
import * as Validators from './Validators.js'
import * as YamlKeys from './YamlKeys.js'

// model

/** The annotations of one data key. */
export interface Rule {
  /** The key's path below `data` (`["web", "listen"]`). */
  readonly path: ReadonlyArray<string>
  /** Where the key is written. */
  readonly at: Position.Position
  readonly required: boolean
  /** The `@validate` expression and where its comment is; CCM keeps the last when there are several. */
  readonly validate?: { readonly expression: string; readonly at: Position.Position }
}

/** The annotations of a document, and the warnings reading them gave. */
export interface Extracted {
  readonly rules: ReadonlyArray<Rule>
  /** Unknown directives and annotations that apply to nothing: worth showing, never fatal. */
  readonly warnings: ReadonlyArray<Diagnostic.Diagnostic>
}

/** Evaluates a validation expression with `value` bound to the data value's text. */
export type Evaluate = (expression: string, value: string) => E.Either<string, Validators.Outcome>

// constructors

interface Comment {
  readonly offset: number
  readonly source: string
  readonly line: number
  readonly col: number
  /** Nothing but blanks before it on its line. */
  readonly standalone: boolean
}

// Every comment token of the CST, found by walking its plain objects.
const commentsOf = (tokens: unknown, lines: Y.LineCounter, text: string): ReadonlyArray<Comment> => {
  const out: Comment[] = []
  const seen = new Set<unknown>()
  const walk = (o: unknown): void => {
    if (o === null || typeof o !== 'object' || seen.has(o)) return
    seen.add(o)
    const t = o as { type?: unknown; offset?: unknown; source?: unknown }
    if (t.type === 'comment' && typeof t.offset === 'number' && typeof t.source === 'string') {
      const p = lines.linePos(t.offset)
      const lineStart = t.offset - (p.col - 1)
      out.push({ offset: t.offset, source: t.source, line: p.line, col: p.col, standalone: text.slice(lineStart, t.offset).trim() === '' })
    }
    for (const v of Object.values(o)) walk(v)
  }
  walk(tokens)
  return out.sort((a, b) => a.offset - b.offset)
}

const keyText = (k: Y.Scalar): string => (typeof k.value === 'string' ? k.value : (k.source ?? String(k.value)))

/**
 * Reads the annotations of the `section` map (`data`) of a YAML document. Left only for a document
 * that does not parse (the manifest parser reports the same problems).
 */
export const extract = (file: string, text: string, section = 'data'): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Extracted> => {
  const lines = new Y.LineCounter()
  const tokens = [...new Y.Parser(lines.addNewLine).parse(text)]
  // keys checked unique by YamlKeys, in linear time: the library's own check is quadratic (5 s for
  // a data map of 20,000 keys)
  const composer = new Y.Composer({ keepSourceTokens: true, prettyErrors: false, uniqueKeys: false })
  const docs = [...composer.compose(tokens, true, text.length)].map((d) => YamlKeys.checkUnique(d))
  const at = (offset: number): Position.Position => {
    const p = lines.linePos(offset)
    return Position.make(file, p.line, p.col)
  }
  const errors = docs.flatMap((d) => d.errors)
  if (errors.length > 0) return E.left(errors.map((e) => Diagnostic.make('Syntax', e.message.split('\n')[0]!, { at: at(e.pos[0]) })))
  const root = docs[0]?.contents
  const pair = Y.isMap(root) ? root.items.find((p) => Y.isScalar(p.key) && p.key.value === section) : undefined
  if (pair === undefined || !Y.isMap(pair.value)) return E.right({ rules: [], warnings: [] })
  const dataMap = pair.value
  const comments = commentsOf(tokens, lines, text)
  const byLine = new Map(comments.map((c) => [c.line, c] as const))
  const used = new Set<number>()

  // every data key (maps only), with its path and line
  interface Key {
    readonly path: ReadonlyArray<string>
    readonly offset: number
    readonly line: number
  }
  const keys: Key[] = []
  const walk = (m: Y.YAMLMap, path: ReadonlyArray<string>): void => {
    for (const p of m.items) {
      if (!Y.isScalar(p.key) || p.key.range === undefined || p.key.range === null) continue
      const k = keyText(p.key)
      const offset = p.key.range[0]
      keys.push({ path: [...path, k], offset, line: lines.linePos(offset).line })
      if (Y.isMap(p.value)) walk(p.value, [...path, k])
    }
  }
  walk(dataMap, [])
  // the keys of each line in order: the first of a line may have comments above it, and a key's
  // trailing comment is its own when no other key comes between. Found once for all keys (a flow
  // map of many keys on one line made a scan per key quadratic).
  const keysOnLine = new Map<number, number[]>()
  for (const k of keys) {
    const offsets = keysOnLine.get(k.line)
    if (offsets === undefined) keysOnLine.set(k.line, [k.offset])
    else offsets.push(k.offset)
  }
  const firstOnLine = new Set<number>()
  const nextOnLine = new Map<number, number>()
  for (const offsets of keysOnLine.values()) {
    offsets.sort((a, b) => a - b)
    firstOnLine.add(offsets[0]!)
    for (let i = 0; i + 1 < offsets.length; i++) nextOnLine.set(offsets[i]!, offsets[i + 1]!)
  }

  const rules: Rule[] = []
  const warnings: Diagnostic.Diagnostic[] = []
  for (const k of keys) {
    const mine: Comment[] = []
    // collected upwards, then put in the text's order
    for (let l = k.line - 1; firstOnLine.has(k.offset); l--) {
      const c = byLine.get(l)
      if (c === undefined || !c.standalone) break
      mine.push(c)
    }
    mine.reverse()
    const trailing = byLine.get(k.line)
    if (trailing !== undefined && !trailing.standalone && trailing.offset > k.offset) {
      // another key between this one and the comment takes it (the next key is the nearest)
      const next = nextOnLine.get(k.offset)
      if (next === undefined || next >= trailing.offset) mine.push(trailing)
    }
    let required = false
    let validate: Rule['validate']
    for (const c of mine) {
      const directive = c.source.slice(1).trim()
      if (!directive.startsWith('@')) continue
      used.add(c.offset)
      const where = Position.make(file, c.line, c.col)
      const name = k.path.join('.')
      const v = /^@validate(?:\s+(.*))?$/.exec(directive)
      if (directive === '@require' || directive === '@required') {
        required = true
      } else if (v !== null) {
        const expression = (v[1] ?? '').trim()
        if (expression === '') {
          warnings.push(Diagnostic.make('Validation', `data "${name}": @validate needs an expression, such as "@validate isIP(value)"; it is ignored`, { at: where }))
        } else {
          if (validate !== undefined) {
            warnings.push(Diagnostic.make('Validation', `data "${name}" has several @validate annotations; only the last applies (as in CCM)`, { at: validate.at, hint: 'combine them: @validate isInt(value) && ...' }))
          }
          validate = { expression, at: where }
        }
      } else {
        warnings.push(Diagnostic.make('Validation', `data "${name}": unknown annotation "${directive.split(/\s/)[0]}"; it is ignored`, { at: where, hint: 'known: @require, @required, @validate <expression>' }))
      }
    }
    if (required || validate !== undefined) rules.push(validate === undefined ? { path: k.path, at: at(k.offset), required } : { path: k.path, at: at(k.offset), required, validate })
  }

  // `@` comments within the data section that annotate no key
  const range = pair.value.range
  const first = lines.linePos(pair.key !== null && Y.isScalar(pair.key) && pair.key.range ? pair.key.range[0] : 0).line
  const last = range === undefined || range === null ? first : lines.linePos(Math.max(range[0], range[2] - 1)).line
  for (const c of comments) {
    if (used.has(c.offset) || c.line < first || c.line > last) continue
    const directive = c.source.slice(1).trim()
    if (!directive.startsWith('@')) continue
    warnings.push(
      Diagnostic.make('Validation', `annotation "${directive.split(/\s/)[0]}" annotates no key of ${section}; it is ignored`, {
        at: Position.make(file, c.line, c.col),
        hint: 'write it directly above the key (no blank line between) or at the end of the key\'s line; keys inside lists cannot be annotated',
      }),
    )
  }
  return E.right({ rules, warnings })
}

// combinators

/**
 * Looks paths up in `data`, each map's entries indexed by key on its first visit (the first entry
 * of a key, as a scan finds it): a scan per rule took rules × keys.
 */
export const lookup = (data: Node.Node): ((path: ReadonlyArray<string>) => Node.Node | undefined) => {
  const indexes = new Map<Node.Node, ReadonlyMap<string, Node.Node>>()
  const indexOf = (m: Node.MapNode): ReadonlyMap<string, Node.Node> => {
    const known = indexes.get(m)
    if (known !== undefined) return known
    const index = new Map<string, Node.Node>()
    for (const e of m.entries) if (!index.has(e.key)) index.set(e.key, e.value)
    indexes.set(m, index)
    return index
  }
  return (path) => {
    let cur: Node.Node | undefined = data
    for (const k of path) {
      if (cur === undefined || cur._tag !== 'Map') return undefined
      cur = indexOf(cur).get(k)
    }
    return cur
  }
}

/**
 * Checks resolved data against annotations, as CCM does: `@require` fails for a missing key, nil
 * or "" (false and 0 are values); `@validate` is skipped for nil, maps and lists, and otherwise
 * evaluates its expression with `value` bound to the value as text. One diagnostic per failure,
 * at the value (which may come from an override), naming the annotation.
 */
export const check = (data: Node.Node, rules: ReadonlyArray<Rule>, evaluate: Evaluate = ValidatorExpr.evaluate): ReadonlyArray<Diagnostic.Diagnostic> => {
  const out: Diagnostic.Diagnostic[] = []
  const at = lookup(data)
  for (const rule of rules) {
    const name = rule.path.join('.')
    const node = at(rule.path)
    const isNil = node === undefined || (node._tag === 'Scalar' && node.value === null)
    if (rule.required && (isNil || (node._tag === 'Scalar' && node.value === ''))) {
      out.push(
        Diagnostic.make('Validation', `data "${name}" is required but has no value`, {
          at: node?.at ?? rule.at,
          hint: `annotated @require at ${Position.render(rule.at)}`,
        }),
      )
      if (isNil) continue
    }
    if (rule.validate === undefined || isNil || node._tag !== 'Scalar') continue
    const value = Validators.text(node.value)
    if (value === undefined) continue
    const where = `@validate ${rule.validate.expression}`
    const r = evaluate(rule.validate.expression, value)
    if (E.isLeft(r)) {
      out.push(Diagnostic.make('Expression', `data "${name}": ${where} cannot be evaluated: ${r.left}`, { at: rule.validate.at }))
    } else if (!r.right.ok) {
      const why = r.right.reasons.length > 0 ? `: ${r.right.reasons.join('; ')}` : ''
      out.push(
        Diagnostic.make('Validation', `data "${name}" failed ${where}${why}`, {
          at: node.at,
          hint: `annotated at ${Position.render(rule.validate.at)}`,
        }),
      )
    }
  }
  return out
}
