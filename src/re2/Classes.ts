// Classes: the character classes of Go's regexp/syntax: ranges, the Perl and POSIX groups, Go's
// Unicode categories and scripts, and simple case folding (what (?i) matches). A class is made,
// when it is parsed, into one sorted array of ranges, so testing a code point costs a binary
// search however many items the class was written with (as Go does). The Unicode tables are the
// exception: they are the JavaScript engine's `\p{...}`, which would take a good part of a second
// each to list as ranges, so they stay predicates (a class holds each at most once).

// ---------------------------------------------------------------------------------------------
// model

/** Whether a code point belongs to a class. */
export type Pred = (cp: number) => boolean

/**
 * A set of code points as ranges flattened into `[lo0, hi0, lo1, hi1, ...]`. Invariant: every
 * `lo <= hi`, the ranges are sorted, and neither overlap nor touch (`hi_k + 1 < lo_k+1`), so a
 * set has exactly one spelling and a binary search over it answers membership.
 */
export type CharSet = ReadonlyArray<number>

/** The largest code point. */
export const maxRune = 0x10ffff

export const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c)

// ---------------------------------------------------------------------------------------------
// constructors

/** The empty set. */
export const empty: CharSet = Object.freeze([])

/** The code points from `lo` to `hi`, both included (`lo <= hi`). */
export const range = (lo: number, hi: number): CharSet => Object.freeze([lo, hi])

/** The set of some ranges given in any order, overlapping or not. */
export const fromRanges = (rs: ReadonlyArray<readonly [number, number]>): CharSet => normalize(rs.flat())

export const perlGroups: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  d: [[0x30, 0x39]],
  s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
}

export const posixGroups: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
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

// The tables met so far, by name: the names are a closed set (Go's categories and the scripts
// the JavaScript engine knows), so this stays small, and a name always gives the same predicate.
const tables = new Map<string, Pred>()

/** A Unicode category or script by Go's name (`L`, `Greek`, `Any`), or undefined for an unknown name. */
export const unicodeTable = (name: string): Pred | undefined => {
  const known = tables.get(name)
  if (known !== undefined) return known
  const table = name === 'Any' ? () => true : engineTable(name)
  if (table !== undefined) tables.set(name, table)
  return table
}

// A category or script as the JavaScript engine's property escape, tested one code point at a time.
const engineTable = (name: string): Pred | undefined => {
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

// ---------------------------------------------------------------------------------------------
// combinators

/** The code points in any of the sets. */
export const union = (sets: ReadonlyArray<CharSet>): CharSet => (sets.length === 1 ? sets[0]! : normalize(sets.flat()))

/** The code points from 0 to maxRune not in the set. */
export const complement = (set: CharSet): CharSet => {
  const out: number[] = []
  let next = 0
  for (let k = 0; k < set.length; k += 2) {
    if (set[k]! > next) out.push(next, set[k]! - 1)
    next = set[k + 1]! + 1
  }
  if (next <= maxRune) out.push(next, maxRune)
  return Object.freeze(out)
}

/** The set with every code point's simple case folding orbit added: what the set matches under (?i). */
export const fold = (set: CharSet): CharSet => {
  const { keys, orbits } = foldOrbits()
  const more: number[] = []
  for (let k = 0; k < set.length; k += 2) {
    const hi = set[k + 1]!
    for (let j = lowerBound(keys, set[k]!); j < keys.length && keys[j]! <= hi; j++) for (const o of orbits.get(keys[j]!)!) more.push(o, o)
  }
  return more.length === 0 ? set : normalize([...set, ...more])
}

/** The code points that fold to the same as `cp` under (?i), itself included, or undefined when none but itself. */
export const orbit = (cp: number): ReadonlyArray<number> | undefined => foldOrbits().orbits.get(cp)

/** Whether a code point is in the set (a binary search). */
export const has = (set: CharSet, cp: number): boolean => {
  const k = firstEndingAtOrAfter(set, cp)
  return k < set.length && set[k]! <= cp
}

/** A predicate's opposite. */
export const negate = (p: Pred): Pred => (cp) => !p(cp)

/** A predicate under (?i): true for a code point when it is true for any code point of its orbit. */
export const folded = (p: Pred): Pred => (cp) => p(cp) || (orbit(cp)?.some(p) ?? false)

/** A class with Unicode tables: in the set or in any table, or with `negated` in none of them. */
export const withTables = (set: CharSet, ts: ReadonlyArray<Pred>, negated: boolean): Pred => {
  if (ts.length === 0) return toPred(negated ? complement(set) : set)
  const inSet = toPred(set)
  const p: Pred = ts.length === 1 ? (cp) => inSet(cp) || ts[0]!(cp) : (cp) => inSet(cp) || ts.some((t) => t(cp))
  return negated ? negate(p) : p
}

/** The set as a predicate: a comparison for one range, a binary search over a typed array otherwise. */
export const toPred = (set: CharSet): Pred => {
  if (set.length === 0) return () => false
  if (set.length === 2) {
    const lo = set[0]!
    const hi = set[1]!
    return lo === hi ? (cp) => cp === lo : (cp) => cp >= lo && cp <= hi
  }
  const rs = Int32Array.from(set)
  return (cp) => {
    const k = firstEndingAtOrAfter(rs, cp)
    return k < rs.length && rs[k]! <= cp
  }
}

// ---------------------------------------------------------------------------------------------
// internals

// Sorts and merges a flat list of ranges into a set (see CharSet's invariant).
const normalize = (flat: ReadonlyArray<number>): CharSet => {
  const order: number[] = []
  for (let k = 0; k < flat.length; k += 2) order.push(k)
  order.sort((a, b) => flat[a]! - flat[b]!)
  const out: number[] = []
  for (const k of order) {
    const lo = flat[k]!
    const hi = flat[k + 1]!
    const n = out.length
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi
    } else {
      out.push(lo, hi)
    }
  }
  return Object.freeze(out)
}

// The index (even) of the first range of the set whose hi is >= cp, or the set's length.
const firstEndingAtOrAfter = (set: ArrayLike<number>, cp: number): number => {
  let a = 0
  let b = set.length >> 1
  while (a < b) {
    const m = (a + b) >> 1
    if (set[2 * m + 1]! < cp) a = m + 1
    else b = m
  }
  return 2 * a
}

// The index of the first element of a sorted array that is >= x.
const lowerBound = (xs: ArrayLike<number>, x: number): number => {
  let a = 0
  let b = xs.length
  while (a < b) {
    const m = (a + b) >> 1
    if (xs[m]! < x) a = m + 1
    else b = m
  }
  return a
}

// Unicode simple case folding orbits (what Go's (?i) matches), built once from the engine's own
// case mappings, each pair confirmed by a case-insensitive match; `keys` are the code points that
// have an orbit, sorted, so folding a range looks at only the code points in it that fold.
let orbitTable: { readonly keys: Int32Array; readonly orbits: ReadonlyMap<number, ReadonlyArray<number>> } | undefined
const foldOrbits = (): { readonly keys: Int32Array; readonly orbits: ReadonlyMap<number, ReadonlyArray<number>> } => {
  if (orbitTable !== undefined) return orbitTable
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
  const orbits = new Map<number, ReadonlyArray<number>>()
  for (const g of groups.values()) for (const cp of g) orbits.set(cp, g)
  orbitTable = { keys: Int32Array.from([...orbits.keys()].sort((a, b) => a - b)), orbits }
  return orbitTable
}
