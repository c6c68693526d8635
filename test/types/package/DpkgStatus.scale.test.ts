// Scale of DpkgStatus.parse: the maps and the set that replaced matching every requested name
// against every row give what the earlier code gave, refusals and their order included. The
// earlier code is kept below as the model; `rows` did not change, so the model reuses it.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as DpkgStatus from '../../../src/types/package/DpkgStatus.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import { debianVersion } from './arbitraries.js'

// the model: the code before the maps, as it was

const what = 'dpkg-query output'

const oldAnswers = (name: string, r: DpkgStatus.Row): boolean => r.package === name || `${r.package}:${r.architecture}` === name

const oldParse = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, DpkgStatus.PackageStatus>> => {
  if (exit.exitCode !== 0 && exit.exitCode !== 1) {
    const first = exit.stderr.split('\n').find((l) => l.trim() !== '') ?? ''
    return E.left(Invalid.invalid('dpkg-query', first, exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const parsed = DpkgStatus.rows(exit.stdout)
  if (E.isLeft(parsed)) return parsed
  const stray = parsed.right.find((r) => !names.some((n) => oldAnswers(n, r)))
  if (stray !== undefined) return E.left(Invalid.invalid(what, stray.package, 'is a package that was not asked for'))
  const unknown = new Set<string>()
  for (const line of exit.stderr.split('\n')) {
    if (line === '' || line.startsWith('dpkg-query: warning: ')) continue
    const m = /^dpkg-query: no packages found matching (.*)$/.exec(line)
    if (m === null || !names.includes(m[1]!)) return E.left(Invalid.invalid('dpkg-query error output', line, 'is not a message plait knows'))
    unknown.add(m[1]!)
  }
  const result = new Map<string, DpkgStatus.PackageStatus>()
  for (const name of names) {
    const mine = parsed.right.filter((r) => oldAnswers(name, r))
    if (mine.length === 0) {
      if (!unknown.has(name)) return E.left(Invalid.invalid(what, name, 'has no line for this package, and dpkg-query did not say it found none'))
      result.set(name, Object.freeze({ _tag: 'Absent', state: undefined, version: '' }))
      continue
    }
    if (unknown.has(name)) return E.left(Invalid.invalid(what, name, 'has a line for this package, and dpkg-query also said it found none'))
    const installed = mine.filter((r) => r.state === 'installed')
    const first = installed[0]
    if (first === undefined) {
      const r = mine[0]!
      result.set(name, Object.freeze({ _tag: 'Absent', state: r.state, version: r.version }))
    } else if (installed.some((r) => r.version !== first.version)) {
      return E.left(Invalid.invalid('package', name, `is installed at several versions (${installed.map((r) => `${r.version} ${r.architecture}`).join(', ')}): name one architecture, as ${name}:${first.architecture}`))
    } else {
      result.set(name, Object.freeze({ _tag: 'Installed', version: first.version, architecture: first.architecture }))
    }
  }
  if (exit.exitCode === 0 && unknown.size > 0) return E.left(Invalid.invalid('dpkg-query', [...unknown][0]!, 'said it found no such package, yet exited 0'))
  if (exit.exitCode === 1 && unknown.size === 0) return E.left(Invalid.invalid('dpkg-query', '', 'exited 1 without saying which package it did not find'))
  return E.right(result)
}

// generators: few names and architectures, so that rows and names collide

/** Package names, one holding a `:` so that `x:y` (any architecture) and `x` (architecture `y`) both answer the name `x:y`. */
const packages = ['a1', 'b2', 'lib-x', 'x', 'x:y'] as const
/** Architectures, the empty one included (the parser accepts it, and `a1:` is then a name it answers). */
const architectures = ['amd64', 'i386', 'all', 'y', ''] as const
/** Names a request may hold: every package, with or without an architecture, and some dpkg knows nothing of. */
const requestable = [...packages, ...packages.flatMap((p) => architectures.map((a) => `${p}:${a}`)), 'zz9', 'zz9:amd64']

interface Line {
  readonly package: string
  readonly version: string
  readonly architecture: string
  readonly state: DpkgStatus.State
}

const line: fc.Arbitrary<Line> = fc
  .record({
    package: fc.constantFrom(...packages),
    architecture: fc.constantFrom(...architectures),
    state: fc.constantFrom(...DpkgStatus.states, 'installed', 'installed'),
    version: fc.oneof(debianVersion, fc.constantFrom('1.0-1', '2.0-1')),
    keepsVersion: fc.boolean(),
  })
  .map(({ keepsVersion, version, ...l }) => ({ ...l, version: l.state === 'not-installed' && !keepsVersion ? '' : version }))

const print = (ls: ReadonlyArray<Line>): string => ls.map((l) => `${l.package}\t${l.version}\t${l.architecture}\t${l.state}\n`).join('')
const notFound = (name: string): string => `dpkg-query: no packages found matching ${name}`

/**
 * What a dpkg-query that behaves would print for these names: only rows some name answers, the
 * message for each name no row answers, and the exit status that fits.
 */
const consistent: fc.Arbitrary<{ names: string[]; exit: Exit }> = fc
  .record({ names: fc.array(fc.constantFrom(...requestable), { minLength: 1, maxLength: 8 }), lines: fc.array(line, { maxLength: 10 }) })
  .map(({ names, lines }) => {
    const printed = lines.filter((l) => names.some((n) => oldAnswers(n, l)))
    const unknown = [...new Set(names.filter((n) => !printed.some((l) => oldAnswers(n, l))))]
    const stderr = unknown.map((n) => `${notFound(n)}\n`).join('')
    return { names, exit: { exitCode: unknown.length > 0 ? 1 : 0, signal: undefined, stdout: print(printed), stderr, durationMs: 1 } }
  })

/** Anything at all of the same parts: stray rows, messages for names not asked for or for names printed, warnings, odd lines and exit statuses. */
const noisy: fc.Arbitrary<{ names: string[]; exit: Exit }> = fc
  .record({
    names: fc.array(fc.constantFrom(...requestable), { maxLength: 8 }),
    lines: fc.array(fc.oneof({ weight: 9, arbitrary: line.map((l) => print([l])) }, { weight: 1, arbitrary: fc.constantFrom('a1\t1.0\tamd64\n', 'a1\t1.0\tamd64\tpwned\n', '-a\t1.0\tamd64\tinstalled\n') }), {
      maxLength: 10,
    }),
    stderr: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...requestable).map(notFound) }, { weight: 1, arbitrary: fc.constantFrom('', 'dpkg-query: warning: odd', 'dpkg-query: error: bad', ' ') }), {
      maxLength: 6,
    }),
    exitCode: fc.constantFrom(0, 0, 1, 1, 2, undefined),
  })
  .map(({ names, lines, stderr, exitCode }) => ({ names, exit: { exitCode, signal: exitCode === undefined ? 'SIGKILL' : undefined, stdout: lines.join(''), stderr: stderr.join('\n'), durationMs: 1 } }))

/** The outcome with the map as its entries in order, so that a comparison also sees the order of the names. */
const entries = (r: E.Either<Invalid.Invalid, ReadonlyMap<string, DpkgStatus.PackageStatus>>) => E.map((m: ReadonlyMap<string, DpkgStatus.PackageStatus>) => [...m])(r)

describe('DpkgStatus.parse agrees with the earlier code', () => {
  fcTest.prop([consistent], { numRuns: 1000 })('on what a well-behaved dpkg-query prints', ({ names, exit }) => {
    expect(entries(DpkgStatus.parse(names, exit))).toStrictEqual(entries(oldParse(names, exit)))
  })

  fcTest.prop([noisy], { numRuns: 1000 })('on stray rows, unknown messages, odd lines and exit statuses', ({ names, exit }) => {
    expect(entries(DpkgStatus.parse(names, exit))).toStrictEqual(entries(oldParse(names, exit)))
  })

  it('is not compared on refusals only: most well-behaved samples are accepted', () => {
    const samples = fc.sample(consistent, { numRuns: 300, seed: 1 })
    expect(samples.filter(({ names, exit }) => E.isRight(DpkgStatus.parse(names, exit))).length).toBeGreaterThan(150)
  })

  it('lists a name both rows answer in output order: package "x:y", and package "x" of architecture "y"', () => {
    const exit: Exit = { exitCode: 0, signal: undefined, stdout: 'x\t2.0-1\ty\tinstalled\nx:y\t1.0-1\tamd64\tinstalled\n', stderr: '', durationMs: 1 }
    expect(entries(DpkgStatus.parse(['x:y'], exit))).toStrictEqual(entries(oldParse(['x:y'], exit)))
    expect(Invalid.message((DpkgStatus.parse(['x:y'], exit) as E.Left<Invalid.Invalid>).left)).toBe(
      'package "x:y": is installed at several versions (2.0-1 y, 1.0-1 amd64): name one architecture, as x:y:y',
    )
  })
})

describe('DpkgStatus.parse of a large query', () => {
  it('reads 20,000 installed packages, some asked for with their architecture, and 100 unknown names', () => {
    const n = 20000
    const pkg = (i: number) => `pkg${String(i).padStart(6, '0')}`
    const names = [...Array.from({ length: n }, (_, i) => (i % 10 === 0 ? `${pkg(i)}:amd64` : pkg(i))), ...Array.from({ length: 100 }, (_, i) => `gone${i}`)]
    const stdout = Array.from({ length: n }, (_, i) => `${pkg(i)}\t1.${i}-1\tamd64\tinstalled\n`).join('')
    const stderr = Array.from({ length: 100 }, (_, i) => `${notFound(`gone${i}`)}\n`).join('')
    const got = DpkgStatus.parse(names, { exitCode: 1, signal: undefined, stdout, stderr, durationMs: 1 })
    const expected = new Map<string, DpkgStatus.PackageStatus>(
      names.map((name, i) => [name, i < n ? { _tag: 'Installed', version: `1.${i}-1`, architecture: 'amd64' } : { _tag: 'Absent', state: undefined, version: '' }]),
    )
    expect(entries(got)).toStrictEqual(E.right([...expected]))
  })

  it('names the first stray row of 20,000, as the earlier code did', () => {
    const n = 20000
    const names = Array.from({ length: n }, (_, i) => `pkg${i}`)
    const stdout = [...names.map((p) => `${p}\t1.0-1\tamd64\tinstalled\n`), 'zz1\t1.0-1\tamd64\tinstalled\n', 'zz2\t1.0-1\tamd64\tinstalled\n'].join('')
    const got = DpkgStatus.parse(names, { exitCode: 0, signal: undefined, stdout, stderr: '', durationMs: 1 })
    expect(E.isLeft(got) && Invalid.message(got.left)).toBe('dpkg-query output "zz1": is a package that was not asked for')
  })
})
