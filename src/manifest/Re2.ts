// Re2: Go's regular expressions (regexp/syntax with Perl flags) parsed into a tree and matched by
// a Thompson NFA: Go's syntax, Go's error messages and linear-time matching, so a pattern from a
// manifest can neither be read differently from CCM nor backtrack exponentially.
import * as E from 'fp-ts/lib/Either.js'

/** The value of an ASCII hex digit's code, or -1. */
export const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1

// regular expressions: Go's regexp/syntax (Perl flags) parsed into a tree, matched by an NFA

/** A compiled regular expression: `test` says whether it matches anywhere in a string. */
export interface Regex {
  readonly source: string
  readonly test: (s: string) => boolean
}

type Pred = (cp: number) => boolean
type Assertion = 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb'
type Re =
  | { readonly t: 'empty' }
  | { readonly t: 'char'; readonly p: Pred }
  | { readonly t: 'assert'; readonly a: Assertion }
  | { readonly t: 'cat'; readonly xs: ReadonlyArray<Re> }
  | { readonly t: 'alt'; readonly xs: ReadonlyArray<Re> }
  | { readonly t: 'rep'; readonly x: Re; readonly min: number; readonly max: number; readonly counted: boolean }

interface Flags {
  readonly fold: boolean
  readonly multiline: boolean
  readonly dotNL: boolean
  readonly ungreedy: boolean
}

const maxRepeat = 1000
const maxNesting = 1000
const maxSize = Math.floor((128 << 20) / 40)

class RegexError extends Error {}

const rxFail = (code: string, expr: string): never => {
  throw new RegexError(`error parsing regexp: ${code}: \`${expr}\``)
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

const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c)

const range = (lo: number, hi: number): Pred => (cp) => cp >= lo && cp <= hi
const union = (ps: ReadonlyArray<Pred>): Pred => (ps.length === 1 ? ps[0]! : (cp) => ps.some((p) => p(cp)))
const negate = (p: Pred): Pred => (cp) => !p(cp)
const ranges = (rs: ReadonlyArray<readonly [number, number]>): Pred => union(rs.map(([lo, hi]) => range(lo, hi)))
const folded = (p: Pred): Pred => (cp) => p(cp) || (foldOrbits().get(cp)?.some(p) ?? false)

const perlGroups: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  d: [[0x30, 0x39]],
  s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
}

const posixGroups: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
}

// Go's unicode.Categories (C is Cc|Cf|Co|Cs there: no unassigned code points).
const goCategories = new Set(['C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs'])

const unicodeTable = (name: string): Pred | undefined => {
  if (name === 'Any') return () => true
  let source: string
  if (name === 'C') source = '[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}]'
  else if (goCategories.has(name)) source = `\\p{${name}}`
  else if (/^[A-Z][A-Za-z_]*$/.test(name)) source = `\\p{Script=${name}}`
  else return undefined
  let re: RegExp
  try {
    re = new RegExp(`^${source}$`, 'u')
  } catch {
    return undefined
  }
  return (cp) => re.test(String.fromCodePoint(cp))
}

// Unicode simple case folding orbits (what Go's (?i) matches), built once from the engine's own
// case mappings, each pair confirmed by a case-insensitive match.
let orbits: Map<number, ReadonlyArray<number>> | undefined
const foldOrbits = (): Map<number, ReadonlyArray<number>> => {
  if (orbits !== undefined) return orbits
  const parent = new Map<number, number>()
  const find = (x: number): number => {
    let r = x
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!
    return r
  }
  for (let cp = 0; cp <= 0x1ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue
    const s = String.fromCodePoint(cp)
    for (const t of [s.toLowerCase(), s.toUpperCase()]) {
      if (t === s || [...t].length !== 1) continue
      const other = t.codePointAt(0)!
      // Same lowercase: same fold. Otherwise (ſ and S, ı and I) ask the engine.
      if (t.toLowerCase() !== s.toLowerCase() && !new RegExp(`^\\u{${cp.toString(16)}}$`, 'iu').test(t)) continue
      const a = find(cp)
      const b = find(other)
      if (!parent.has(a)) parent.set(a, a)
      if (!parent.has(b)) parent.set(b, b)
      if (a !== b) parent.set(a, b)
    }
  }
  const groups = new Map<number, number[]>()
  for (const cp of parent.keys()) {
    const r = find(cp)
    const g = groups.get(r) ?? []
    g.push(cp)
    groups.set(r, g)
  }
  orbits = new Map()
  for (const g of groups.values()) for (const cp of g) orbits.set(cp, g)
  return orbits
}

const parseRegex = (pattern: string): Re => {
  const cs = Array.from(pattern)
  let i = 0
  let flags: Flags = { fold: false, multiline: false, dotNL: false, ungreedy: false }
  const text = (from: number, to: number = i): string => cs.slice(from, to).join('')
  const peek = (k = 0): string | undefined => cs[i + k]

  const literal = (c: string): Re => {
    const cp = c.codePointAt(0)!
    const p: Pred = (x) => x === cp
    return { t: 'char', p: flags.fold ? folded(p) : p }
  }
  const group = (rs: ReadonlyArray<readonly [number, number]>, negated: boolean): Pred => {
    const p = flags.fold ? folded(ranges(rs)) : ranges(rs)
    return negated ? negate(p) : p
  }

  // \pN, \p{Name}, \PN, \p{^Name}; undefined when the text is not one.
  const unicodeClass = (): Pred | undefined => {
    if (peek() !== '\\' || (peek(1) !== 'p' && peek(1) !== 'P')) return undefined
    const start = i
    let negated = peek(1) === 'P'
    i += 2
    let name: string
    if (peek() !== '{') {
      name = peek() ?? ''
      if (peek() !== undefined) i += 1
    } else {
      const end = cs.indexOf('}', i)
      if (end < 0) rxFail('invalid character class range', text(start, cs.length))
      name = text(i + 1, end)
      i = end + 1
    }
    if (name.startsWith('^')) {
      negated = !negated
      name = name.slice(1)
    }
    const table = unicodeTable(name)
    if (table === undefined) rxFail('invalid character class range', text(start))
    const p = flags.fold ? folded(table!) : table!
    return negated ? negate(p) : p
  }

  const perlClass = (): Pred | undefined => {
    const c = peek(1)
    if (peek() !== '\\' || c === undefined) return undefined
    const g = perlGroups[c.toLowerCase()]
    if (g === undefined || !'dDsSwW'.includes(c)) return undefined
    i += 2
    return group(g, c === c.toUpperCase())
  }

  const escape = (): number => {
    const start = i
    i += 1
    const c = peek()
    if (c === undefined) return rxFail('trailing backslash at end of expression', '')
    i += 1
    const bad = (): never => rxFail('invalid escape sequence', text(start))
    if (c.length === 1 && c.charCodeAt(0) < 0x80 && !isAlnum(c)) return c.charCodeAt(0)
    const octal = (d: string | undefined): boolean => d !== undefined && d >= '0' && d <= '7'
    if (c >= '1' && c <= '7' && !octal(peek())) return bad()
    if (c >= '0' && c <= '7') {
      let r = Number(c)
      for (let k = 1; k < 3 && octal(peek()); k++) {
        r = r * 8 + Number(peek())
        i += 1
      }
      return r
    }
    if (c === 'x') {
      if (peek() === undefined) return bad()
      if (peek() === '{') {
        i += 1
        let r = 0
        let n = 0
        for (;;) {
          const d = peek()
          if (d === undefined) return bad()
          i += 1
          if (d === '}') break
          const v = hexValue(d.charCodeAt(0))
          if (v < 0 || d.length !== 1) return bad()
          r = r * 16 + v
          if (r > 0x10ffff) return bad()
          n += 1
        }
        return n === 0 ? bad() : r
      }
      const x = hexValue(peek()?.charCodeAt(0) ?? -1)
      i += 1
      const y = hexValue(peek()?.charCodeAt(0) ?? -1)
      if (peek() !== undefined) i += 1
      if (x < 0 || y < 0) return bad()
      return x * 16 + y
    }
    const simple: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 }
    return simple[c] ?? bad()
  }

  const classChar = (whole: number): number => {
    const c = peek()
    if (c === undefined) return rxFail('missing closing ]', text(whole, cs.length))
    if (c === '\\') return escape()
    i += 1
    return c.codePointAt(0)!
  }

  const charClass = (): Re => {
    const whole = i
    i += 1
    let negated = false
    if (peek() === '^') {
      negated = true
      i += 1
    }
    const items: Pred[] = []
    let first = true
    while (peek() !== ']' || first) {
      first = false
      if (peek() === '[' && peek(1) === ':') {
        const rest = text(i, cs.length)
        const close = rest.indexOf(':]', 2)
        if (close >= 0) {
          const name = rest.slice(0, close + 2)
          const inner = name.slice(2, -2)
          const neg = inner.startsWith('^')
          const g = posixGroups[neg ? inner.slice(1) : inner]
          if (g === undefined) rxFail('invalid character class range', name)
          items.push(group(g!, neg))
          i += Array.from(name).length
          continue
        }
      }
      const u = unicodeClass()
      if (u !== undefined) {
        items.push(u)
        continue
      }
      const perl = perlClass()
      if (perl !== undefined) {
        items.push(perl)
        continue
      }
      const start = i
      const lo = classChar(whole)
      let hi = lo
      if (peek() === '-' && peek(1) !== undefined && peek(1) !== ']') {
        i += 1
        hi = classChar(whole)
        if (hi < lo) rxFail('invalid character class range', text(start))
      }
      items.push(flags.fold ? folded(range(lo, hi)) : range(lo, hi))
    }
    i += 1
    const p = items.length === 0 ? () => false : union(items)
    return { t: 'char', p: negated ? negate(p) : p }
  }

  // {n}, {n,}, {n,m}: the bounds and the index after '}', or undefined when it is a literal '{'.
  const repeatBounds = (): { min: number; max: number; end: number } | undefined => {
    let k = i + 1
    const int = (): number | undefined => {
      const d0 = cs[k]
      if (d0 === undefined || d0 < '0' || d0 > '9') return undefined
      if (d0 === '0' && cs[k + 1] !== undefined && cs[k + 1]! >= '0' && cs[k + 1]! <= '9') return undefined
      let n = 0
      while (cs[k] !== undefined && cs[k]! >= '0' && cs[k]! <= '9') {
        n = n >= 1e8 ? -1 : n * 10 + Number(cs[k])
        k += 1
      }
      return n
    }
    let min = int()
    if (min === undefined) return undefined
    let max = min
    if (cs[k] === ',') {
      k += 1
      if (cs[k] === '}') max = -1
      else {
        const m = int()
        if (m === undefined) return undefined
        max = m
        if (m < 0) min = -1
      }
    }
    if (cs[k] !== '}') return undefined
    return { min, max, end: k + 1 }
  }

  const repeatValid = (re: Re, n: number): boolean => {
    let budget = n
    if (re.t === 'rep' && re.counted) {
      let m = re.max
      if (m === 0) return true
      if (m < 0) m = re.min
      if (m > budget) return false
      if (m > 0) budget = Math.floor(budget / m)
    }
    const subs = re.t === 'cat' || re.t === 'alt' ? re.xs : re.t === 'rep' ? [re.x] : []
    return subs.every((x) => repeatValid(x, budget))
  }

  const alternation = (depth: number): Re => {
    if (depth > maxNesting) rxFail('expression nests too deeply', pattern)
    const alts: Re[] = [concatenation(depth)]
    while (peek() === '|') {
      i += 1
      alts.push(concatenation(depth))
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', xs: alts }
  }

  const concatenation = (depth: number): Re => {
    const items: Re[] = []
    let lastRepeat = -1
    for (;;) {
      const c = peek()
      if (c === undefined || c === '|' || c === ')') break
      let bounds: { min: number; max: number; end: number } | undefined
      if (c === '*' || c === '+' || c === '?' || (c === '{' && (bounds = repeatBounds()) !== undefined)) {
        const before = i
        let min = c === '+' ? 1 : 0
        let max = c === '?' ? 1 : -1
        if (bounds !== undefined) {
          min = bounds.min
          max = bounds.max
          i = bounds.end
          if (min < 0 || min > maxRepeat || max > maxRepeat || (max >= 0 && min > max)) rxFail('invalid repeat count', text(before))
        } else {
          i += 1
        }
        if (peek() === '?') i += 1
        if (lastRepeat >= 0) rxFail('invalid nested repetition operator', text(lastRepeat))
        if (items.length === 0) rxFail('missing argument to repetition operator', text(before))
        const rep: Re = { t: 'rep', x: items.pop()!, min, max, counted: bounds !== undefined }
        if (bounds !== undefined && (min >= 2 || max >= 2) && !repeatValid(rep, maxRepeat)) rxFail('invalid repeat count', text(before))
        items.push(rep)
        lastRepeat = before
        continue
      }
      lastRepeat = -1
      items.push(...parseAtom(depth))
    }
    return items.length === 0 ? { t: 'empty' } : items.length === 1 ? items[0]! : { t: 'cat', xs: items }
  }

  const subgroup = (depth: number, inner: Flags): Re => {
    const saved = flags
    flags = inner
    const body = alternation(depth + 1)
    if (peek() !== ')') rxFail('missing closing )', pattern)
    i += 1
    flags = saved
    return body
  }

  // The atoms at the cursor: one, none for a flag setting `(?i)`, or each literal of `\Q...\E`.
  const parseAtom = (depth: number): ReadonlyArray<Re> => {
    const c = peek()!
    const start = i
    switch (c) {
      case '(': {
        if (peek(1) !== '?') {
          i += 1
          return [subgroup(depth, flags)]
        }
        const named = peek(2) === 'P' && peek(3) === '<' ? 4 : peek(2) === '<' ? 3 : 0
        if (named > 0) {
          const end = cs.indexOf('>', i)
          if (end < 0) rxFail('invalid named capture', text(start, cs.length))
          const name = text(i + named, end)
          if (!/^[A-Za-z0-9_]+$/.test(name)) rxFail('invalid named capture', text(start, end + 1))
          i = end + 1
          return [subgroup(depth, flags)]
        }
        i += 2
        let next = { ...flags }
        let sign = 1
        let saw = false
        for (;;) {
          const f = peek()
          if (f === undefined) break
          i += 1
          if (f === 'i' || f === 'm' || f === 's' || f === 'U') {
            const on = sign > 0
            if (f === 'i') next = { ...next, fold: on }
            if (f === 'm') next = { ...next, multiline: on }
            if (f === 's') next = { ...next, dotNL: on }
            if (f === 'U') next = { ...next, ungreedy: on }
            saw = true
          } else if (f === '-') {
            if (sign < 0) break
            sign = -1
            saw = false
          } else if (f === ':' || f === ')') {
            if (sign < 0 && !saw) break
            if (f === ':') return [subgroup(depth, next)]
            flags = next
            return []
          } else {
            break
          }
        }
        return rxFail('invalid or unsupported Perl syntax', text(start))
      }
      case ')':
        return rxFail('unexpected )', pattern)
      case '^':
        i += 1
        return [{ t: 'assert', a: flags.multiline ? 'bol' : 'bot' }]
      case '$':
        i += 1
        return [{ t: 'assert', a: flags.multiline ? 'eol' : 'eot' }]
      case '.': {
        i += 1
        return [{ t: 'char', p: flags.dotNL ? () => true : (cp) => cp !== 10 }]
      }
      case '[':
        return [charClass()]
      case '\\': {
        const n = peek(1)
        if (n === 'A' || n === 'z' || n === 'b' || n === 'B') {
          i += 2
          return [{ t: 'assert', a: n === 'A' ? 'bot' : n === 'z' ? 'eot' : n === 'b' ? 'wb' : 'nwb' }]
        }
        if (n === 'C') rxFail('invalid escape sequence', '\\C')
        if (n === 'Q') {
          i += 2
          const lits: Re[] = []
          while (i < cs.length && !(cs[i] === '\\' && cs[i + 1] === 'E')) {
            lits.push(literal(cs[i]!))
            i += 1
          }
          if (i < cs.length) i += 2
          return lits
        }
        const u = unicodeClass()
        if (u !== undefined) return [{ t: 'char', p: u }]
        const perl = perlClass()
        if (perl !== undefined) return [{ t: 'char', p: perl }]
        return [literal(String.fromCodePoint(escape()))]
      }
      default:
        i += 1
        return [literal(c)]
    }
  }

  const tree = alternation(0)
  if (i < cs.length) rxFail('unexpected )', pattern) // only a stray ')' stops the top level early
  return tree
}

const sizeOf = (re: Re): number => {
  switch (re.t) {
    case 'empty':
    case 'char':
    case 'assert':
      return 1
    case 'cat':
      return re.xs.reduce((n, x) => n + sizeOf(x), 0)
    case 'alt':
      return re.xs.reduce((n, x) => n + sizeOf(x), re.xs.length - 1)
    case 'rep': {
      const one = sizeOf(re.x)
      return re.max < 0 ? one * Math.max(re.min, 1) + 1 : one * re.max + (re.max - re.min)
    }
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
