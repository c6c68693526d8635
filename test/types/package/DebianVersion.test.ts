// DebianVersion: parsing by the Debian policy's rules, and dpkg's order, checked against the
// spec's examples, as laws of a total preorder, and against the real `dpkg --compare-versions`.
import { fc } from '@fast-check/vitest'
import { spawnSync } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Deb from '../../../src/types/package/DebianVersion.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import { debianVersion } from './arbitraries.js'

const v = (s: string): Deb.DebianVersion => {
  const r = Deb.parse(s)
  if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
  return r.right
}
const cmp = (a: string, b: string) => Deb.compare(v(a), v(b))
const refusal = (s: string): string => {
  const r = Deb.parse(s)
  if (E.isRight(r)) throw new Error(`accepted ${s}`)
  return Invalid.message(r.left)
}

describe('DebianVersion.parse', () => {
  it.each([
    ['1.0', { epoch: 0, upstream: '1.0', revision: '' }],
    ['1:2.0-3', { epoch: 1, upstream: '2.0', revision: '3' }],
    ['2:1.0.0+git-20190109-0ubuntu2', { epoch: 2, upstream: '1.0.0+git-20190109', revision: '0ubuntu2' }],
    ['5.9-8+b18', { epoch: 0, upstream: '5.9', revision: '8+b18' }],
    ['0:1.0~rc1', { epoch: 0, upstream: '1.0~rc1', revision: '' }],
    ['007:1', { epoch: 7, upstream: '1', revision: '' }],
    ['2147483647:1', { epoch: 2147483647, upstream: '1', revision: '' }],
  ])('splits %s into epoch, upstream version and revision', (text, parts) => {
    expect(Deb.parse(text)).toEqual(E.right(parts))
  })

  it.each([
    ['', 'Debian version "": is empty'],
    ['1.0 1', 'Debian version "1.0 1": contains whitespace'],
    [':1.0', 'Debian version ":1.0": has an empty epoch before ":"'],
    ['a:1.0', 'Debian version "a:1.0": has an epoch that is not a whole number'],
    ['-1:1.0', 'Debian version "-1:1.0": has an epoch that is not a whole number'],
    ['2147483648:1', 'Debian version "2147483648:1": has an epoch above 2147483647'],
    ['99999999999:1', 'Debian version "99999999999:1": has an epoch above 2147483647'],
    ['1.0-', 'Debian version "1.0-": has an empty revision after the last "-"'],
    ['-1', 'Debian version "-1": has an empty upstream version'],
    ['1:', 'Debian version "1:": has an empty upstream version'],
    ['a1.0', 'Debian version "a1.0": has an upstream version that does not start with a digit'],
    ['1.0;rm', 'Debian version "1.0;rm": has ";" in its upstream version, which allows only letters, digits and . + ~ -'],
    ['1:1.0:2', 'Debian version "1:1.0:2": has ":" in its upstream version, which allows only letters, digits and . + ~ -'],
    ['1.0-1_2', 'Debian version "1.0-1_2": has "_" in its revision, which allows only letters, digits and . + ~'],
    ['1.0-$(id)', 'Debian version "1.0-$(id)": has "$" in its revision, which allows only letters, digits and . + ~'],
    ['1.0\u001b[2J', 'Debian version "1.0\\x1b[2J": has U+001B in its upstream version, which allows only letters, digits and . + ~ -'],
  ])('refuses %j with a clear message', (text, message) => {
    expect(refusal(text)).toBe(message)
  })

  it('bounds and escapes the refused value in its message', () => {
    const m = refusal('1\n' + 'x'.repeat(500))
    expect(m).not.toContain('\n')
    expect(m.length).toBeLessThan(200)
  })

  it('formats a parsed version back, dropping a zero epoch', () => {
    fc.assert(
      fc.property(debianVersion, (s) => {
        const p = v(s)
        expect(v(Deb.format(p))).toEqual(p)
        expect(Deb.format(p)).toBe(s.replace(/^0+:/, ''))
      }),
    )
  })
})

describe('DebianVersion.compare', () => {
  it.each([
    // the spec's table
    ['1.0', '2.0', -1],
    ['1:1.0', '2.0', 1],
    ['1.0~alpha', '1.0', -1],
    ['1.0~alpha', '1.0~beta', -1],
    ['1.0.1', '1.0.2', -1],
    ['1.0-1', '1.0-2', -1],
    ['1.0a', '1.0-', -1],
    // the spec's prose
    ['1.0~~', '1.0~', -1],
    ['9', '13', -1],
    // Debian policy's examples and dpkg's corners
    ['1.0~rc1', '1.0', -1],
    ['1.0', '1.0+b1', -1],
    ['1.0', '1.0.0', -1],
    ['1.0', '1.00', 0],
    ['0:1.0', '1.0', 0],
    ['1.0-0', '1.0', 0],
    ['1.001', '1.1', 0],
    ['1.0a', '1.0+', -1],
    ['1.0Z', '1.0a', -1],
    ['1.0~', '1.0', -1],
    ['1.0~', '1.0a', -1],
    ['1.0', '1.0a', -1],
    ['2.0', '10.0', -1],
    ['1:0.1', '0:99', 1],
    ['1.0-1', '1.0-1ubuntu1', -1],
    ['99999999999999999999', '99999999999999999998', 1],
    ['5.9-8+b18', '5.9-8+b18', 0],
  ])('orders %s and %s as %i', (a, b, expected) => {
    // '1.0-' is the spec's own example of a non-letter after 1.0: compare the upstream parts there
    const got = b.endsWith('-') ? Deb.comparePart(a, b) : cmp(a, b)
    expect(got).toBe(expected)
    expect(b.endsWith('-') ? Deb.comparePart(b, a) : cmp(b, a)).toBe(expected === 0 ? 0 : -expected)
  })

  it('compares texts, or names the malformed one', () => {
    expect(Deb.compareText('1.0', '1:0.5')).toEqual(E.right(-1))
    const r = Deb.compareText('1.0', 'x')
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe('Debian version "x": has an upstream version that does not start with a digit')
  })

  it('is reflexive', () => {
    fc.assert(fc.property(debianVersion, (a) => cmp(a, a) === 0))
  })

  it('is antisymmetric: swapping the operands flips the answer', () => {
    fc.assert(fc.property(debianVersion, debianVersion, (a, b) => cmp(a, b) === -cmp(b, a)))
  })

  it('is transitive, for the order and for equivalence', () => {
    fc.assert(
      fc.property(debianVersion, debianVersion, debianVersion, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort((p, q) => cmp(p, q))
        expect(cmp(x!, y!)).toBeLessThanOrEqual(0)
        expect(cmp(y!, z!)).toBeLessThanOrEqual(0)
        expect(cmp(x!, z!)).toBeLessThanOrEqual(0)
        if (cmp(a, b) === 0 && cmp(b, c) === 0) expect(cmp(a, c)).toBe(0)
      }),
    )
  })

  it('treats equivalent spellings as equal: leading zeros, a zero epoch, a zero revision', () => {
    fc.assert(
      fc.property(debianVersion, (a) => {
        const p = v(a)
        const padded = { ...p, upstream: p.upstream.replace(/[0-9]+/g, (d) => '0' + d) }
        expect(Deb.compare(p, padded)).toBe(0)
        expect(cmp(a, `0${p.epoch}:${Deb.format({ ...p, epoch: 0 })}`)).toBe(0)
        if (p.revision === '') expect(cmp(a, `${Deb.format(p)}-0`)).toBe(0)
      }),
    )
  })

  it('puts a tilde suffix before the version and any other suffix after it', () => {
    fc.assert(
      fc.property(debianVersion, fc.constantFrom('a', '1', '+b1', '.1'), (a, suffix) => {
        const p = v(a)
        expect(Deb.compare({ ...p, upstream: p.upstream + '~' }, p)).toBe(-1)
        expect(Deb.compare({ ...p, upstream: p.upstream + suffix }, p)).toBe(1)
      }),
    )
  })

  it('agrees with dpkg --compare-versions on this machine for 500 generated pairs', () => {
    const seed = Date.now() % 1000000
    // unrelated pairs, equivalent spellings (a zero before a number) and shared prefixes
    const pair = fc.oneof(
      fc.tuple(debianVersion, debianVersion),
      debianVersion.chain((a) => fc.nat(3).map((k) => [a, a.replace(new RegExp(`^((?:[^0-9]*[0-9]+){${k}}[^0-9]*)([0-9])`), '$10$2')] as const)),
      fc.tuple(debianVersion, fc.constantFrom('~', '~~', 'a', 'A', '.', '+', '0', '1', '~a', '-0', '-1')).map(([a, s]) => [a, a + s] as const),
    )
    const pairs = fc.sample(pair, { numRuns: 1000, seed }).filter(([, b]) => E.isRight(Deb.parse(b))).slice(0, 500)
    // one shell runs every comparison: dpkg exits 0 when the relation holds
    const script = 'while read -r a b; do if dpkg --compare-versions "$a" lt "$b"; then echo -1; elif dpkg --compare-versions "$a" eq "$b"; then echo 0; else echo 1; fi; done'
    const run = spawnSync('sh', ['-c', script], { input: pairs.map(([a, b]) => `${a} ${b}\n`).join(''), encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toBe('') // dpkg warns on stderr about any version it finds malformed
    const theirs = run.stdout.trim().split('\n').map(Number)
    expect(theirs).toHaveLength(pairs.length)
    expect(pairs.length).toBe(500)
    const disagreements = pairs.flatMap(([a, b], i) => (cmp(a, b) === theirs[i] ? [] : [`${a} vs ${b}: dpkg ${theirs[i]}, ours ${cmp(a, b)}`]))
    expect(disagreements, `seed ${seed}`).toEqual([])
    // the sample is varied enough to mean something: all three answers occur
    expect(new Set(theirs)).toEqual(new Set([-1, 0, 1]))
  }, 30000)
})
