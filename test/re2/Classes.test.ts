// Character classes as range arrays: a class, however it is written (ranges, negation, \d \w \s,
// [:alpha:], \p{Greek}, (?i) folds), accepts exactly the code points the earlier predicates
// accepted, one closure per item. The earlier code is kept below as the model.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as C from '../../src/re2/Classes.js'
import { parseRegex } from '../../src/re2/Syntax.js'

// the model: the class predicates before classes became range arrays, as they were

type Pred = (cp: number) => boolean
const oldRange = (lo: number, hi: number): Pred => (cp) => cp >= lo && cp <= hi
const oldUnion = (ps: ReadonlyArray<Pred>): Pred => (ps.length === 1 ? ps[0]! : (cp) => ps.some((p) => p(cp)))
const oldNegate = (p: Pred): Pred => (cp) => !p(cp)
const oldRanges = (rs: ReadonlyArray<readonly [number, number]>): Pred => oldUnion(rs.map(([lo, hi]) => oldRange(lo, hi)))
// The fold orbits did not change; the model reads them through `orbit`.
const oldFolded = (p: Pred): Pred => (cp) => p(cp) || (C.orbit(cp)?.some(p) ?? false)
const goCategories = new Set(['C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs'])
const oldUnicodeTable = (name: string): Pred | undefined => {
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

// How Syntax.ts built a class from its items, before.
type Item =
  | { readonly t: 'range'; readonly lo: number; readonly hi: number }
  | { readonly t: 'perl'; readonly c: 'd' | 'D' | 's' | 'S' | 'w' | 'W' }
  | { readonly t: 'posix'; readonly name: string; readonly neg: boolean }
  | { readonly t: 'table'; readonly name: string; readonly neg: boolean; readonly upper: boolean }

const oldGroup = (rs: ReadonlyArray<readonly [number, number]>, negated: boolean, fold: boolean): Pred => {
  const p = fold ? oldFolded(oldRanges(rs)) : oldRanges(rs)
  return negated ? oldNegate(p) : p
}

const oldItem = (it: Item, fold: boolean): Pred => {
  switch (it.t) {
    case 'range':
      return fold ? oldFolded(oldRange(it.lo, it.hi)) : oldRange(it.lo, it.hi)
    case 'perl':
      return oldGroup(C.perlGroups[it.c.toLowerCase()]!, it.c === it.c.toUpperCase(), fold)
    case 'posix':
      return oldGroup(C.posixGroups[it.name]!, it.neg, fold)
    case 'table': {
      const t = oldUnicodeTable(it.name)!
      const p = fold ? oldFolded(t) : t
      return it.neg !== it.upper ? oldNegate(p) : p
    }
  }
}

const oldClass = (items: ReadonlyArray<Item>, negated: boolean, fold: boolean): Pred => {
  const p = oldUnion(items.map((it) => oldItem(it, fold)))
  return negated ? oldNegate(p) : p
}

// the generators

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`

const write = (it: Item): string => {
  switch (it.t) {
    case 'range':
      return it.lo === it.hi ? hex(it.lo) : `${hex(it.lo)}-${hex(it.hi)}`
    case 'perl':
      return `\\${it.c}`
    case 'posix':
      return `[:${it.neg ? '^' : ''}${it.name}:]`
    case 'table':
      return `\\${it.upper ? 'P' : 'p'}{${it.neg ? '^' : ''}${it.name}}`
  }
}

// Code points where something happens: the ends of the planes and of the surrogates, ASCII, and
// the odd folds (K and the Kelvin sign, s and the long s, sigma's three forms, ß and ẞ, İ and ı).
const notable = [0, 1, 0x7f, 0x80, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x1ffff, 0x20000, 0x10fffe, 0x10ffff, 0x4b, 0x6b, 0x212a, 0x53, 0x73, 0x17f, 0x3a3, 0x3c3, 0x3c2, 0xdf, 0x1e9e, 0x130, 0x131, 0x49, 0x69, 0x3b1, 0x391, 0x10400, 0x10428]

const codePoint = fc.oneof(
  fc.integer({ min: 0, max: C.maxRune }),
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0x52f }),
  fc.integer({ min: 0x10000, max: 0x1ffff }),
  fc.constantFrom(...notable),
)

const rangeItem: fc.Arbitrary<Item> = fc
  .tuple(codePoint, fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: C.maxRune })))
  .map(([lo, width]) => ({ t: 'range', lo, hi: Math.min(lo + width, C.maxRune) }))

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 6, arbitrary: rangeItem },
  { weight: 1, arbitrary: fc.constantFrom('d', 'D', 's', 'S', 'w', 'W').map((c): Item => ({ t: 'perl', c })) },
  { weight: 1, arbitrary: fc.record({ name: fc.constantFrom(...Object.keys(C.posixGroups)), neg: fc.boolean() }).map((r): Item => ({ t: 'posix', ...r })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ name: fc.constantFrom('L', 'Lu', 'Ll', 'Nd', 'C', 'Cs', 'Co', 'Z', 'P', 'Greek', 'Latin', 'Cyrillic', 'Han', 'Any'), neg: fc.boolean(), upper: fc.boolean() })
      .map((r): Item => ({ t: 'table', ...r })),
  },
)

const cls = fc.record({ items: fc.array(item, { minLength: 1, maxLength: 30 }), negated: fc.boolean(), fold: fc.boolean() })

// The code points worth asking a class about: random ones, and each range's ends and neighbours.
const probes = (items: ReadonlyArray<Item>, random: ReadonlyArray<number>): ReadonlyArray<number> => [
  ...random,
  ...notable,
  ...items.flatMap((it) => (it.t === 'range' ? [it.lo - 1, it.lo, it.hi, it.hi + 1] : [])).filter((cp) => cp >= 0 && cp <= C.maxRune),
]

// The predicate Syntax.ts makes for a pattern that is one character (a class or an escape).
const parsed = (pattern: string): Pred => {
  const re = parseRegex(pattern)
  if (re.t !== 'char') throw new Error(`${pattern} is not one character`)
  return re.p
}

describe('a character class as one sorted array of ranges', () => {
  fcTest.prop([cls, fc.array(codePoint, { maxLength: 40 })], { numRuns: 400 })(
    'accepts exactly the code points the item-by-item predicates accepted',
    ({ items, negated, fold }, random) => {
      const pattern = `${fold ? '(?i)' : ''}[${negated ? '^' : ''}${items.map(write).join('')}]`
      const now = parsed(pattern)
      const before = oldClass(items, negated, fold)
      for (const cp of probes(items, random)) expect({ pattern, cp, in: now(cp) }).toEqual({ pattern, cp, in: before(cp) })
    },
  )

  fcTest.prop([item.filter((it) => it.t !== 'posix'), fc.boolean(), fc.array(codePoint, { maxLength: 40 })], { numRuns: 200 })(
    'an escape or a literal outside a class accepts what it accepted before',
    (it, fold, random) => {
      const written = it.t === 'range' ? hex(it.lo) : write(it)
      const pattern = `${fold ? '(?i)' : ''}${written}`
      const now = parsed(pattern)
      const before = oldItem(it.t === 'range' ? { ...it, hi: it.lo } : it, fold)
      for (const cp of probes([], random)) expect({ pattern, cp, in: now(cp) }).toEqual({ pattern, cp, in: before(cp) })
    },
  )

  it('agrees on the classes of the Go conformance table', () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<Item>, boolean, boolean]> = [
      ['(?i)[^k]', [{ t: 'range', lo: 0x6b, hi: 0x6b }], true, true],
      ['(?i)[[:^upper:]]', [{ t: 'posix', name: 'upper', neg: true }], false, true],
      ['[\\W\\d\\p{Greek}a-f]', [{ t: 'perl', c: 'W' }, { t: 'perl', c: 'd' }, { t: 'table', name: 'Greek', neg: false, upper: false }, { t: 'range', lo: 0x61, hi: 0x66 }], false, false],
    ]
    for (const [pattern, items, negated, fold] of cases) {
      const now = parsed(pattern)
      const before = oldClass(items, negated, fold)
      for (const cp of probes(items, [])) expect({ pattern, cp, in: now(cp) }).toEqual({ pattern, cp, in: before(cp) })
    }
  })

  it('a class of many items is one sorted array: 20,000 single code points in any order are one range', () => {
    const cps = Array.from({ length: 20_000 }, (_, k) => 0x100 + ((k * 7919) % 20_000))
    expect(C.union(cps.map((cp) => C.range(cp, cp)))).toEqual([0x100, 0x100 + 19_999])
  })
})

describe('CharSet', () => {
  // Ranges in a narrow window too, so that some touch or overlap.
  const start = fc.oneof(codePoint, fc.integer({ min: 0x60, max: 0x80 }))
  const set = fc.array(fc.tuple(start, fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 500 }))), { maxLength: 20 }).map((rs) => rs.map(([lo, w]): readonly [number, number] => [lo, Math.min(lo + w, C.maxRune)]))

  fcTest.prop([set])('is sorted, disjoint and not touching, whatever order its ranges came in', (rs) => {
    const s = C.fromRanges(rs)
    for (let k = 0; k < s.length; k += 2) {
      expect(s[k]!).toBeLessThanOrEqual(s[k + 1]!)
      if (k > 0) expect(s[k]!).toBeGreaterThan(s[k - 1]! + 1)
    }
  })

  fcTest.prop([set, fc.array(codePoint, { maxLength: 40 })])('has, toPred, complement and fold agree with the predicates', (rs, random) => {
    const s = C.fromRanges(rs)
    const model = oldRanges(rs)
    const inSet = C.toPred(s)
    const outside = C.toPred(C.complement(s))
    const folded = C.toPred(C.fold(s))
    const modelFolded = oldFolded(model)
    for (const cp of probes(rs.map(([lo, hi]): Item => ({ t: 'range', lo, hi })), random)) {
      expect({ cp, has: C.has(s, cp), pred: inSet(cp), outside: outside(cp), folded: folded(cp) }).toEqual({ cp, has: model(cp), pred: model(cp), outside: !model(cp), folded: modelFolded(cp) })
    }
  })

  it('complements the empty set to every code point and back', () => {
    expect(C.complement(C.empty)).toEqual([0, C.maxRune])
    expect(C.complement(C.complement(C.empty))).toEqual([])
  })
})
