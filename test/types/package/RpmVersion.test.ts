// RpmVersion: rpm's rpmvercmp and EVR order, checked against examples, as laws of a total
// preorder, and against rpm's own code on this machine (Debian's `rpm` package, `rpm.vercmp` in
// rpm's embedded Lua; CI installs it).
import { fc } from '@fast-check/vitest'
import { spawnSync } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Rpm from '../../../src/types/package/RpmVersion.js'
import { rpmEvr, rpmSegments } from './arbitraries.js'

const evr = (s: string): Rpm.Evr => {
  const r = Rpm.parse(s)
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const cmp = (a: string, b: string) => Rpm.compare(evr(a), evr(b))
const flip = (o: number) => (o === 0 ? 0 : -o)

/** rpm's answers for many pairs, from one rpm process: its Lua `rpm.vercmp` over a table of pairs. */
const rpmAnswers = (pairs: ReadonlyArray<readonly [string, string]>): number[] => {
  // the generated texts hold no quote, backslash, brace or %: they sit in Lua strings inside a macro as they are
  for (const [a, b] of pairs) expect(`${a}${b}`).toMatch(/^[A-Za-z0-9._+~^:-]*$/)
  const table = pairs.map(([a, b]) => `{"${a}","${b}"}`).join(',')
  const lua = `%{lua: local o = {} for _, p in ipairs({${table}}) do o[#o + 1] = rpm.vercmp(p[1], p[2]) end print(table.concat(o, " ")) }`
  const run = spawnSync('rpm', ['--eval', lua], { encoding: 'utf8' })
  expect(run.error, 'rpm is not installed: apt-get install rpm (.ci/run does)').toBeUndefined()
  expect(run.status, run.stderr).toBe(0)
  return run.stdout.trim().split(' ').map(Number)
}

describe('RpmVersion.parse', () => {
  it.each([
    ['5.8-9.el9', { epoch: '0', version: '5.8', release: '9.el9' }],
    ['1:2.0-3.fc39', { epoch: '1', version: '2.0', release: '3.fc39' }],
    ['0:1.0.0-1.el9', { epoch: '0', version: '1.0.0', release: '1.el9' }],
    ['007:1.0', { epoch: '7', version: '1.0', release: undefined }],
    ['1.0~rc1^git2_x+y', { epoch: '0', version: '1.0~rc1^git2_x+y', release: undefined }],
  ])('splits %s into epoch, version and release', (text, parts) => {
    expect(Rpm.parse(text)).toEqual(E.right(parts))
  })

  it.each([
    ['', 'rpm version "": is empty'],
    ['1.0 -1', 'rpm version "1.0 -1": contains whitespace'],
    [':1.0', 'rpm version ":1.0": has an empty epoch before ":"'],
    ['x:1.0', 'rpm version "x:1.0": has an epoch that is not a whole number'],
    ['-1', 'rpm version "-1": has an empty version'],
    ['1.0-', 'rpm version "1.0-": has an empty release after the last "-"'],
    ['1.0;id-1', 'rpm version "1.0;id-1": has ";" in its version, which allows only letters, digits and . _ + ~ ^'],
    ['1.0-1%{x}', 'rpm version "1.0-1%{x}": has "%" in its release, which allows only letters, digits and . _ + ~ ^'],
    ['1:2:3-1', 'rpm version "1:2:3-1": has ":" in its version, which allows only letters, digits and . _ + ~ ^'],
  ])('refuses %j with a clear message', (text, message) => {
    const r = Rpm.parse(text)
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe(message)
  })

  it('formats a parsed EVR back to an equal one', () => {
    fc.assert(
      fc.property(rpmEvr, (s) => {
        expect(evr(Rpm.format(evr(s)))).toEqual(evr(s))
      }),
    )
  })
})

describe('RpmVersion.compareSegments (rpmvercmp)', () => {
  it.each([
    // the spec's examples that rpm agrees with
    ['1.0', '2.0', -1],
    ['1.10', '1.9', 1],
    ['1.0', '1.0.1', -1],
    ['1.0a', '1.0b', -1],
    ['1.0.0', '1.0', 1],
    // where rpm differs from the spec's Puppet algorithm: leading zeros are ignored
    ['01', '1', 0],
    ['1.01', '1.1', 0],
    // rpm's own rules
    ['1.0~rc1', '1.0', -1],
    ['1.0~rc1', '1.0~rc2', -1],
    ['1.0~~', '1.0~', -1],
    ['1.0^', '1.0', 1],
    ['1.0^git1', '1.0.1', -1],
    ['1.0^git1', '1.0~rc1', 1],
    ['a', '1', -1],
    ['1.0a', '1.0.a', 0],
    ['a+b', 'a_b', 0],
    ['1.0', '1.0a', -1],
    ['FC5', 'fc4', -1],
    ['2a', '2.0', -1],
    ['123456789012345678901', '123456789012345678900', 1],
  ])('orders %s and %s as %i', (a, b, expected) => {
    expect(Rpm.compareSegments(a, b)).toBe(expected)
    expect(Rpm.compareSegments(b, a)).toBe(flip(expected))
  })

  it('agrees with rpm.vercmp on 500 generated pairs', () => {
    const seed = Date.now() % 1000000
    const pair = fc.oneof(
      fc.tuple(rpmSegments, rpmSegments),
      fc.tuple(rpmSegments, fc.constantFrom('~', '^', 'a', '0', '.1', '~a', '^1', '.', '_')).map(([a, s]) => [a, a + s] as const),
    )
    // rpm refuses an empty version: compare the first 500 pairs of non-empty texts
    const pairs = fc.sample(pair, { numRuns: 1000, seed }).filter(([a, b]) => a !== '' && b !== '').slice(0, 500)
    expect(pairs.length).toBe(500)
    const theirs = rpmAnswers(pairs)
    expect(theirs).toHaveLength(pairs.length)
    const disagreements = pairs.flatMap(([a, b], i) => (Rpm.compareSegments(a, b) === theirs[i] ? [] : [`${a} vs ${b}: rpm ${theirs[i]}, ours ${Rpm.compareSegments(a, b)}`]))
    expect(disagreements, `seed ${seed}`).toEqual([])
    expect(new Set(theirs)).toEqual(new Set([-1, 0, 1]))
  }, 30000)
})

describe('RpmVersion.compare (EVR)', () => {
  it.each([
    ['1.0-1', '1.0-2', -1],
    ['1:1.0-1', '2.0-1', 1],
    ['0:1.0-1', '1.0-1', 0],
    ['1.0', '1.0-1', -1],
    ['5.8-9.el9', '5.8-10.el9', -1],
    ['2.0-1.fc39', '2.0-1.fc40', -1],
  ])('orders %s and %s as %i, as rpm.vercmp does', (a, b, expected) => {
    expect(cmp(a, b)).toBe(expected)
    expect(cmp(b, a)).toBe(flip(expected))
  })

  it('meets a wanted version without a release by any release of it', () => {
    expect(Rpm.compareWanted(evr('5.8-9.el9'), evr('5.8'))).toBe(0)
    expect(Rpm.compareWanted(evr('5.8-9.el9'), evr('5.9'))).toBe(-1)
    expect(Rpm.compareWanted(evr('1:5.8-9.el9'), evr('5.8'))).toBe(1)
    expect(Rpm.compareWanted(evr('5.8-9.el9'), evr('5.8-10.el9'))).toBe(-1)
  })

  it('compares texts, or names the malformed one', () => {
    expect(Rpm.compareText('1.0-1', '1:0.5-1')).toEqual(E.right(-1))
    const r = Rpm.compareText('1.0', '1.0;x')
    expect(E.isLeft(r) && r.left.value).toBe('1.0;x')
  })

  it('is reflexive, antisymmetric and transitive', () => {
    fc.assert(
      fc.property(rpmEvr, rpmEvr, rpmEvr, (a, b, c) => {
        expect(cmp(a, a)).toBe(0)
        expect(cmp(a, b)).toBe(flip(cmp(b, a)))
        const [x, y, z] = [a, b, c].sort((p, q) => cmp(p, q))
        expect(cmp(x!, y!)).toBeLessThanOrEqual(0)
        expect(cmp(y!, z!)).toBeLessThanOrEqual(0)
        expect(cmp(x!, z!)).toBeLessThanOrEqual(0)
        if (cmp(a, b) === 0 && cmp(b, c) === 0) expect(cmp(a, c)).toBe(0)
      }),
    )
  })

  it('treats equivalent spellings as equal: a zero epoch, leading zeros, another separator', () => {
    fc.assert(
      fc.property(rpmEvr, (a) => {
        const p = evr(a)
        expect(cmp(a, `0${p.epoch}:${Rpm.format({ ...p, epoch: '0' })}`)).toBe(0)
        expect(Rpm.compare(p, { ...p, version: p.version.replace(/[0-9]+/g, (d) => '0' + d) })).toBe(0)
        expect(Rpm.compare(p, { ...p, version: p.version.replaceAll('.', '_') })).toBe(0)
      }),
    )
  })

  it('agrees with rpm.vercmp on 500 generated EVR pairs', () => {
    const seed = Date.now() % 1000000
    const pair = fc.oneof(
      fc.tuple(rpmEvr, rpmEvr),
      rpmEvr.map((a) => [a, a.replace(/[0-9]+/, (d) => '0' + d)] as const),
      fc.tuple(rpmEvr, fc.constantFrom('~', '^', 'a', '-1', '.0', '~1')).map(([a, s]) => [a, a + s] as const),
    )
    const pairs = fc.sample(pair, { numRuns: 1000, seed }).filter(([, b]) => E.isRight(Rpm.parse(b))).slice(0, 500)
    expect(pairs.length).toBe(500)
    const theirs = rpmAnswers(pairs)
    expect(theirs).toHaveLength(pairs.length)
    const disagreements = pairs.flatMap(([a, b], i) => (cmp(a, b) === theirs[i] ? [] : [`${a} vs ${b}: rpm ${theirs[i]}, ours ${cmp(a, b)}`]))
    expect(disagreements, `seed ${seed}`).toEqual([])
    expect(new Set(theirs)).toEqual(new Set([-1, 0, 1]))
  }, 30000)
})
