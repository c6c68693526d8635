// Classes: the character classes of Go's regexp/syntax as predicates over code points: ranges,
// the Perl and POSIX groups, Go's Unicode categories, and simple case folding (what (?i) matches).

/** Whether a code point belongs to a class. */
export type Pred = (cp: number) => boolean

export const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c)

export const range = (lo: number, hi: number): Pred => (cp) => cp >= lo && cp <= hi
export const union = (ps: ReadonlyArray<Pred>): Pred => (ps.length === 1 ? ps[0]! : (cp) => ps.some((p) => p(cp)))
export const negate = (p: Pred): Pred => (cp) => !p(cp)
export const ranges = (rs: ReadonlyArray<readonly [number, number]>): Pred => union(rs.map(([lo, hi]) => range(lo, hi)))
export const folded = (p: Pred): Pred => (cp) => p(cp) || (foldOrbits().get(cp)?.some(p) ?? false)

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

export const unicodeTable = (name: string): Pred | undefined => {
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
