// Re2: Go's regular expressions (regexp/syntax with Perl flags) parsed (Syntax.ts) into a tree
// (Tree.ts) and matched by a Thompson NFA: Go's syntax, Go's error messages and linear-time
// matching, so a pattern from a manifest can neither be read differently from CCM nor backtrack
// exponentially.
import * as E from 'fp-ts/lib/Either.js'
import type { Pred } from './Classes.js'
import { parseRegex } from './Syntax.js'
import { maxSize, RegexError, rxFail, sizeOf, type Assertion, type Re } from './Tree.js'

export { hexValue } from './Syntax.js'

/** A compiled regular expression: `test` says whether it matches anywhere in a string; `size` is its count of NFA states (what it costs to keep). */
export interface Regex {
  readonly source: string
  readonly size: number
  readonly test: (s: string) => boolean
}

/**
 * The work of compiling and matching (states made, and states visited while matching), for a
 * caller that bounds it: an expression's budget sets `limit` to what it has left around one
 * `matches` and reads `done` after. Past the limit, compiling or matching stops with `Exhausted`.
 * Matching is linear in the text, but times the automaton's states: a pattern of a million states
 * over a long text is hours of linear work. Everyone else leaves the limit unbounded.
 */
export const meter = { done: 0, limit: Number.POSITIVE_INFINITY }

/** Thrown when `meter.limit` is passed. */
export class Exhausted extends Error {
  constructor() {
    super('the regular expression took more work than was left')
  }
}

/** Compiles a pattern as Go's regexp.Compile does, or gives Go's error message. */
export const compileRegex = (pattern: string): E.Either<string, Regex> => {
  try {
    const tree = parseRegex(pattern)
    if (sizeOf(tree) > maxSize) rxFail('expression too large', pattern)
    const nfa = compileNfa(tree)
    meter.done += nfa.kind.length
    if (meter.done > meter.limit) throw new Exhausted()
    return E.right(Object.freeze({ source: pattern, size: nfa.kind.length, test: (s: string) => run(nfa, s) }))
  } catch (e) {
    if (e instanceof RegexError) return E.left(e.message)
    throw e
  }
}

// The NFA: typed arrays indexed by state, about nine bytes a state, so a pattern of Go's largest
// size (millions of states) stays some tens of megabytes. `arg` is a split's second successor, a
// char's index into `preds` or an assertion's index into `assertions`; `next` is the successor.
const CHAR = 0
const SPLIT = 1
const ASSERT = 2
const MATCH = 3
const assertions: ReadonlyArray<Assertion> = ['bol', 'eol', 'bot', 'eot', 'wb', 'nwb']

interface Nfa {
  readonly kind: Uint8Array
  readonly next: Int32Array
  readonly arg: Int32Array
  readonly preds: ReadonlyArray<Pred>
  readonly start: number
}

// The number of states `compileNfa` makes for a tree, not counting the match state. It is at most
// Go's size (sizeOf), which the caller has checked against maxSize.
const stateCount = (re: Re): number => sizeOf(re, 0)

const compileNfa = (tree: Re): Nfa => {
  const total = stateCount(tree) + 1
  const kind = new Uint8Array(total)
  const next = new Int32Array(total).fill(-1)
  const arg = new Int32Array(total).fill(-1)
  const preds: Pred[] = []
  const predIndex = new Map<Pred, number>()
  let count = 0
  const add = (k: number, out: number, a: number): number => {
    kind[count] = k
    next[count] = out
    arg[count] = a
    return count++
  }
  const predOf = (p: Pred): number => {
    let k = predIndex.get(p)
    if (k === undefined) {
      k = preds.push(p) - 1
      predIndex.set(p, k)
    }
    return k
  }
  // Builds `re` so that it continues to `out`; returns its entry state.
  const build = (re: Re, out: number): number => {
    switch (re.t) {
      case 'empty':
        return out
      case 'char':
        return add(CHAR, out, predOf(re.p))
      case 'assert':
        return add(ASSERT, out, assertions.indexOf(re.a))
      case 'cat': {
        let entry = out
        for (let k = re.xs.length - 1; k >= 0; k--) entry = build(re.xs[k]!, entry)
        return entry
      }
      case 'alt': {
        let entry = build(re.xs[re.xs.length - 1]!, out)
        for (let k = re.xs.length - 2; k >= 0; k--) entry = add(SPLIT, build(re.xs[k]!, out), entry)
        return entry
      }
      case 'rep': {
        let entry = out
        let copies = re.min
        if (re.max < 0) {
          // x{n,}: n - 1 copies of x, then one whose end is a split looping back to it (x* enters at
          // the split). So x+ costs one copy, as Go counts it, and (x+)+ does not double per level.
          const loop = add(SPLIT, -1, out)
          const body = build(re.x, loop)
          next[loop] = body
          entry = re.min === 0 ? loop : body
          copies = Math.max(re.min - 1, 0)
        } else {
          for (let k = 0; k < re.max - re.min; k++) entry = add(SPLIT, build(re.x, entry), out)
        }
        for (let k = 0; k < copies; k++) entry = build(re.x, entry)
        return entry
      }
    }
  }
  const match = add(MATCH, -1, -1)
  const start = build(tree, match)
  return { kind, next, arg, preds, start }
}

const isWordChar = (cp: number | undefined): boolean =>
  cp !== undefined && ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95)

const run = (nfa: Nfa, input: string): boolean => {
  const { kind, next, arg, preds } = nfa
  const cps = Array.from(input, (c) => c.codePointAt(0)!)
  const mark = new Int32Array(kind.length).fill(-1)
  const holds = (a: Assertion, pos: number): boolean => {
    const before = cps[pos - 1]
    const after = cps[pos]
    switch (a) {
      case 'bot':
        return pos === 0
      case 'eot':
        return pos === cps.length
      case 'bol':
        return pos === 0 || before === 10
      case 'eol':
        return pos === cps.length || after === 10
      case 'wb':
        return isWordChar(before) !== isWordChar(after)
      case 'nwb':
        return isWordChar(before) === isWordChar(after)
    }
  }
  const stack: number[] = []
  // Adds a state and everything reachable from it without reading a character.
  const addState = (list: number[], start: number, pos: number): boolean => {
    stack.push(start)
    let matched = false
    while (stack.length > 0) {
      const s = stack.pop()!
      if (s < 0 || mark[s] === pos) continue
      mark[s] = pos
      if (++meter.done > meter.limit) throw new Exhausted()
      switch (kind[s]) {
        case CHAR:
          list.push(s)
          break
        case SPLIT:
          stack.push(arg[s]!, next[s]!)
          break
        case ASSERT:
          if (holds(assertions[arg[s]!]!, pos)) stack.push(next[s]!)
          break
        case MATCH:
          matched = true
          break
      }
    }
    return matched
  }
  let current: number[] = []
  let following: number[] = []
  for (let pos = 0; ; pos++) {
    if (addState(current, nfa.start, pos)) return true
    if (pos === cps.length) return false
    const cp = cps[pos]!
    let matched = false
    for (const s of current) if (preds[arg[s]!]!(cp) && addState(following, next[s]!, pos + 1)) matched = true
    if (matched) return true
    const done = current
    current = following
    following = done
    following.length = 0
  }
}
