// Literals: a set of literal strings, found in text in time linear in the text and in the set.
// Redaction (planfile/Redact.ts) replaces every occurrence of every sensitive value; a regular
// expression of them all (`a|b|c…`) costs the text times the values where they share no prefix,
// and V8 refuses one outright past some size ("Regular expression too large": one secret of a
// CA bundle is 3,000-odd values, its lines and their escapes). This is an Aho–Corasick automaton
// of the values reversed, run over the text from its end: at each position it knows the longest
// value that starts there, which is what the regular expression of the values, longest first,
// matches there. A pass from the start then takes, as that expression does, the leftmost match,
// the longest at that position, and goes on after it.
//
// For a few short literals (the common case: a secret or two) V8's own regular expression of them
// is kept as well and does the replacing: natively it reads a megabyte in about a millisecond,
// where this automaton in JavaScript takes some 20; past a few dozen it grows with their number.
//
// Strings are compared by UTF-16 code units, as a regular expression without the `u` flag does.

// model

/** A compiled set of literals (at least one non-empty one). */
export interface Literals {
  readonly _tag: 'Literals'
  /** How many distinct non-empty literals it holds. */
  readonly size: number
  /** Per state: its failure state, and the longest literal that is a suffix of it (0: none). */
  readonly fail: Int32Array
  readonly longest: Int32Array
  /** The root's children by code unit (-1: none), so the commonest step is one read. */
  readonly rootChild: Int32Array
  /** Per state: its code unit, and its one child (-1: none; -2: more than one, in the table). */
  readonly unit: Uint16Array
  readonly only: Int32Array
  /** The children of states with more than one, in an open-addressed table: its state plus one (0: a free slot), code unit and child. */
  readonly edgeFrom: Int32Array
  readonly edgeUnit: Uint16Array
  readonly edgeTo: Int32Array
  readonly mask: number
  /** The regular expression of the literals, longest first, where they are few and short (see above). */
  readonly pattern: RegExp | undefined
}

/** Up to how many literals, and of how many code units in all, `replace` uses a regular expression. */
export const fewLiterals = 32
export const fewUnits = 4096

/** One occurrence: where it starts and how long it is. */
export interface Match {
  readonly at: number
  readonly length: number
}

// constructors

/** The literals of `values` (empty ones ignored, duplicates once); undefined when none is left. */
export const compile = (values: Iterable<string>): Literals | undefined => {
  const distinct = new Set<string>()
  let total = 1
  for (const v of values) {
    if (v !== '' && !distinct.has(v)) {
      distinct.add(v)
      total += v.length
    }
  }
  if (distinct.size === 0) return undefined
  // A table at most half full: its size the power of two at or above twice the edges there can be.
  let size = 16
  while (size < 2 * total) size *= 2
  const t: Table = { from: new Int32Array(size), unit: new Uint16Array(size), to: new Int32Array(size), mask: size - 1 }
  const rootChild = new Int32Array(65536).fill(-1)
  const unit = new Uint16Array(total)
  const only = new Int32Array(total).fill(-1)
  const depth = new Int32Array(total)
  const terminal = new Uint8Array(total)
  // Each state's children, as a linked list, for the breadth-first pass below.
  const child = new Int32Array(total).fill(-1)
  const sibling = new Int32Array(total).fill(-1)
  let states = 1
  for (const v of distinct) {
    let s = 0
    for (let i = v.length - 1; i >= 0; i--) {
      const c = v.charCodeAt(i)
      let next = s === 0 ? rootChild[c]! : move(t, unit, only, s, c)
      if (next < 0) {
        next = states++
        unit[next] = c
        depth[next] = depth[s]! + 1
        sibling[next] = child[s]!
        child[s] = next
        if (s === 0) rootChild[c] = next
        else if (only[s] === -1) only[s] = next
        else {
          if (only[s]! >= 0) insert(t, s, unit[only[s]!]!, only[s]!)
          only[s] = -2
          insert(t, s, c, next)
        }
      }
      s = next
    }
    terminal[s] = 1
  }
  // Breadth first, so a state's failure state (shallower) is done before it.
  const fail = new Int32Array(states)
  const longest = new Int32Array(states)
  const queue = new Int32Array(states)
  let head = 0
  let tail = 0
  for (let c = child[0]!; c >= 0; c = sibling[c]!) {
    longest[c] = terminal[c] === 1 ? depth[c]! : 0
    queue[tail++] = c
  }
  while (head < tail) {
    const s = queue[head++]!
    for (let c = child[s]!; c >= 0; c = sibling[c]!) {
      let f = fail[s]!
      const u = unit[c]!
      let to = f === 0 ? rootChild[u]! : move(t, unit, only, f, u)
      while (to < 0 && f !== 0) {
        f = fail[f]!
        to = f === 0 ? rootChild[u]! : move(t, unit, only, f, u)
      }
      const g = to < 0 ? 0 : to
      fail[c] = g
      longest[c] = terminal[c] === 1 ? depth[c]! : longest[g]!
      queue[tail++] = c
    }
  }
  return Object.freeze({
    _tag: 'Literals' as const,
    size: distinct.size,
    fail,
    longest,
    rootChild,
    unit: unit.subarray(0, states),
    only: only.subarray(0, states),
    edgeFrom: t.from,
    edgeUnit: t.unit,
    edgeTo: t.to,
    mask: t.mask,
    pattern: distinct.size <= fewLiterals && total <= fewUnits ? expression(distinct) : undefined,
  })
}

// combinators

/**
 * The occurrences of the literals in `text` that a left-to-right scan takes: the leftmost, the
 * longest of those that start there, then the next one that starts after it ends. In order.
 */
export const matches = (l: Literals, text: string): ReadonlyArray<Match> => {
  const { fail, longest, rootChild, unit, only, edgeFrom, edgeUnit, edgeTo, mask } = l
  // From the end: the longest literal starting at each position, kept only where there is one.
  const starts: number[] = []
  const lengths: number[] = []
  let s = 0
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i)
    // The automaton's move: the child on c, else the failure state's, down to the root.
    for (;;) {
      if (s === 0) {
        const r = rootChild[c]!
        s = r < 0 ? 0 : r
        break
      }
      let to = only[s]!
      if (to >= 0) {
        if (unit[to] !== c) to = -1
      } else if (to === -2) {
        to = -1
        for (let k = hash(s, c) & mask; edgeFrom[k] !== 0; k = (k + 1) & mask) {
          if (edgeFrom[k] === s + 1 && edgeUnit[k] === c) {
            to = edgeTo[k]!
            break
          }
        }
      }
      if (to >= 0) {
        s = to
        break
      }
      s = fail[s]!
    }
    const n = longest[s]!
    if (n > 0) {
      starts.push(i)
      lengths.push(n)
    }
  }
  const out: Match[] = []
  let after = 0
  for (let k = starts.length - 1; k >= 0; k--) {
    const at = starts[k]!
    if (at >= after) {
      out.push({ at, length: lengths[k]! })
      after = at + lengths[k]!
    }
  }
  return out
}

/** `text` with each of its `matches` replaced by `by` of the literal matched; the same string when there is none. */
export const replace = (l: Literals, text: string, by: (literal: string) => string): string => {
  if (l.pattern !== undefined) return text.replace(l.pattern, (m: string) => by(m))
  const found = matches(l, text)
  if (found.length === 0) return text
  const parts: string[] = []
  let from = 0
  for (const m of found) {
    parts.push(text.slice(from, m.at), by(text.slice(m.at, m.at + m.length)))
    from = m.at + m.length
  }
  parts.push(text.slice(from))
  return parts.join('')
}

/**
 * Whether a text holds any of `values` (empty ones ignored), for one text after another: each is
 * searched value by value while that has cost less than compiling the values would (about their
 * code units), then with their automaton, in time that grows with the text alone. A few values
 * checked against a few texts never pay for an automaton; thousands against thousands pay for one.
 */
export const finder = (values: Iterable<string>): ((text: string) => boolean) => {
  const list = [...new Set(values)].filter((v) => v !== '')
  let units = 0
  for (const v of list) units += v.length
  let spent = 0
  let automaton: Literals | undefined
  return (text) => {
    if (automaton === undefined) {
      if (spent <= units) {
        spent += list.length * (text.length + 1)
        for (const v of list) if (text.includes(v)) return true
        return false
      }
      automaton = compile(list)
      if (automaton === undefined) return false
    }
    return matches(automaton, text).length > 0
  }
}

/** `text` as the source of a regular expression that matches exactly it (every syntax character escaped). */
export const regExpSource = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// internals

/** One regular expression of the literals, longest first, then in code-unit order: its leftmost match is the longest literal there. */
const expression = (literals: Iterable<string>): RegExp =>
  new RegExp(
    [...literals]
      .sort((x, y) => y.length - x.length || (x < y ? -1 : 1))
      .map(regExpSource)
      .join('|'),
    'g',
  )

interface Table {
  readonly from: Int32Array
  readonly unit: Uint16Array
  readonly to: Int32Array
  readonly mask: number
}

/** Where the edge from state `s` on code unit `c` is looked for first. */
const hash = (s: number, c: number): number => Math.imul(s, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b)

/** The child of state `s` (not the root) on `c`, or -1. */
const move = (t: Table, unit: Uint16Array, only: Int32Array, s: number, c: number): number => {
  const o = only[s]!
  if (o !== -2) return o >= 0 && unit[o] === c ? o : -1
  for (let k = hash(s, c) & t.mask; t.from[k] !== 0; k = (k + 1) & t.mask) if (t.from[k] === s + 1 && t.unit[k] === c) return t.to[k]!
  return -1
}

/** Adds the edge from `s` on `c` to `to` (not yet there). */
const insert = (t: Table, s: number, c: number, to: number): void => {
  let k = hash(s, c) & t.mask
  while (t.from[k] !== 0) k = (k + 1) & t.mask
  t.from[k] = s + 1
  t.unit[k] = c
  t.to[k] = to
}
