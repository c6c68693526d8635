// Syntax: Go's regular expression syntax (regexp/syntax with Perl flags) parsed into a tree,
// with Go's error messages and limits.
import { complement, fold, folded, fromRanges, isAlnum, negate, perlGroups, posixGroups, range, toPred, union, unicodeTable, withTables, type CharSet, type Pred } from './Classes.js'
import { maxNesting, maxRepeat, rxFail, type Flags, type Re } from './Tree.js'
import * as Append from '../core/Append.js'

/** The value of an ASCII hex digit's code, or -1. */
export const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1

/** Parses a pattern as Go's regexp/syntax does (Perl flags), or throws a RegexError with Go's message. */
export const parseRegex = (pattern: string): Re => {
  const cs = Array.from(pattern)
  let i = 0
  let flags: Flags = { fold: false, multiline: false, dotNL: false, ungreedy: false }
  const text = (from: number, to: number = i): string => cs.slice(from, to).join('')
  const peek = (k = 0): string | undefined => cs[i + k]

  const literal = (c: string): Re => {
    const cp = c.codePointAt(0)!
    return { t: 'char', p: flags.fold ? toPred(fold(range(cp, cp))) : (x) => x === cp }
  }
  // A class item as Go reads it: folded under (?i) first, then negated.
  const item = (set: CharSet, negated: boolean): CharSet => {
    const p = flags.fold ? fold(set) : set
    return negated ? complement(p) : p
  }

  // \pN, \p{Name}, \PN, \p{^Name}, and a key that is the same for the same table, negation and
  // flags; undefined when the text is not one.
  const unicodeClass = (): { readonly key: string; readonly p: Pred } | undefined => {
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
    return { key: `${negated ? '^' : ''}${flags.fold ? 'i' : ''}${name}`, p: negated ? negate(p) : p }
  }

  const perlClass = (): CharSet | undefined => {
    const c = peek(1)
    if (peek() !== '\\' || c === undefined) return undefined
    const g = perlGroups[c.toLowerCase()]
    if (g === undefined || !'dDsSwW'.includes(c)) return undefined
    i += 2
    return item(fromRanges(g), c === c.toUpperCase())
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
    const items: CharSet[] = []
    const tables = new Map<string, Pred>()
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
          items.push(item(fromRanges(g!), neg))
          i += Array.from(name).length
          continue
        }
      }
      const u = unicodeClass()
      if (u !== undefined) {
        tables.set(u.key, u.p)
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
      items.push(item(range(lo, hi), false))
    }
    i += 1
    return { t: 'char', p: withTables(union(items), [...tables.values()], negated) }
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
      Append.append(items, parseAtom(depth))
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
        if (u !== undefined) return [{ t: 'char', p: u.p }]
        const perl = perlClass()
        if (perl !== undefined) return [{ t: 'char', p: toPred(perl) }]
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
