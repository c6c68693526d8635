// Re2: Go's regular expressions (regexp/syntax with Perl flags) parsed (Syntax.ts) into a tree
// (Tree.ts) and matched by a Thompson NFA: Go's syntax, Go's error messages and linear-time
// matching, so a pattern from a manifest can neither be read differently from CCM nor backtrack
// exponentially.
import * as E from 'fp-ts/lib/Either.js'
import type { Pred } from './Classes.js'
import { parseRegex } from './Syntax.js'
import { maxSize, RegexError, rxFail, sizeOf, type Assertion, type Re } from './Tree.js'

export { hexValue } from './Syntax.js'

/** A compiled regular expression: `test` says whether it matches anywhere in a string. */
export interface Regex {
  readonly source: string
  readonly test: (s: string) => boolean
}

/** Compiles a pattern as Go's regexp.Compile does, or gives Go's error message. */
export const compileRegex = (pattern: string): E.Either<string, Regex> => {
  try {
    const tree = parseRegex(pattern)
    if (sizeOf(tree) > maxSize) rxFail('expression too large', pattern)
    const nfa = compileNfa(tree)
    return E.right(Object.freeze({ source: pattern, test: (s: string) => run(nfa, s) }))
  } catch (e) {
    if (e instanceof RegexError) return E.left(e.message)
    throw e
  }
}

// The NFA: parallel arrays indexed by state; `out2` only for splits.
interface Nfa {
  readonly kind: number[] // 0 char, 1 split, 2 assert, 3 empty, 4 match
  readonly pred: (Pred | undefined)[]
  readonly assertion: (Assertion | undefined)[]
  readonly out1: number[]
  readonly out2: number[]
  start: number
}

const compileNfa = (tree: Re): Nfa => {
  const nfa: Nfa = { kind: [], pred: [], assertion: [], out1: [], out2: [], start: 0 }
  const add = (kind: number, pred?: Pred, a?: Assertion): number => {
    nfa.kind.push(kind)
    nfa.pred.push(pred)
    nfa.assertion.push(a)
    nfa.out1.push(-1)
    nfa.out2.push(-1)
    return nfa.kind.length - 1
  }
  // Builds `re` so that it continues to `next`; returns its entry state.
  const build = (re: Re, next: number): number => {
    switch (re.t) {
      case 'empty':
        return next
      case 'char': {
        const s = add(0, re.p)
        nfa.out1[s] = next
        return s
      }
      case 'assert': {
        const s = add(2, undefined, re.a)
        nfa.out1[s] = next
        return s
      }
      case 'cat': {
        let entry = next
        for (let k = re.xs.length - 1; k >= 0; k--) entry = build(re.xs[k]!, entry)
        return entry
      }
      case 'alt': {
        let entry = build(re.xs[re.xs.length - 1]!, next)
        for (let k = re.xs.length - 2; k >= 0; k--) {
          const s = add(1)
          nfa.out1[s] = build(re.xs[k]!, next)
          nfa.out2[s] = entry
          entry = s
        }
        return entry
      }
      case 'rep': {
        let entry = next
        if (re.max < 0) {
          const loop = add(1)
          nfa.out1[loop] = build(re.x, loop)
          nfa.out2[loop] = next
          entry = loop
        } else {
          for (let k = 0; k < re.max - re.min; k++) {
            const s = add(1)
            nfa.out1[s] = build(re.x, entry)
            nfa.out2[s] = next
            entry = s
          }
        }
        for (let k = 0; k < re.min; k++) entry = build(re.x, entry)
        return entry
      }
    }
  }
  const match = add(4)
  nfa.start = build(tree, match)
  return nfa
}

const isWordChar = (cp: number | undefined): boolean =>
  cp !== undefined && ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95)

const run = (nfa: Nfa, input: string): boolean => {
  const cps = Array.from(input, (c) => c.codePointAt(0)!)
  const mark = new Int32Array(nfa.kind.length).fill(-1)
  const holds = (a: Assertion, pos: number): boolean => {
    const prev = cps[pos - 1]
    const next = cps[pos]
    switch (a) {
      case 'bot':
        return pos === 0
      case 'eot':
        return pos === cps.length
      case 'bol':
        return pos === 0 || prev === 10
      case 'eol':
        return pos === cps.length || next === 10
      case 'wb':
        return isWordChar(prev) !== isWordChar(next)
      case 'nwb':
        return isWordChar(prev) === isWordChar(next)
    }
  }
  // Adds a state and everything reachable from it without reading a character.
  const addState = (list: number[], start: number, pos: number): boolean => {
    const stack = [start]
    let matched = false
    while (stack.length > 0) {
      const s = stack.pop()!
      if (s < 0 || mark[s] === pos) continue
      mark[s] = pos
      switch (nfa.kind[s]) {
        case 0:
          list.push(s)
          break
        case 1:
          stack.push(nfa.out2[s]!, nfa.out1[s]!)
          break
        case 2:
          if (holds(nfa.assertion[s]!, pos)) stack.push(nfa.out1[s]!)
          break
        case 3:
          stack.push(nfa.out1[s]!)
          break
        case 4:
          matched = true
          break
      }
    }
    return matched
  }
  let current: number[] = []
  for (let pos = 0; ; pos++) {
    if (addState(current, nfa.start, pos)) return true
    if (pos === cps.length) return false
    const cp = cps[pos]!
    const next: number[] = []
    let matched = false
    for (const s of current) if (nfa.pred[s]!(cp) && addState(next, nfa.out1[s]!, pos + 1)) matched = true
    if (matched) return true
    current = next
  }
}
