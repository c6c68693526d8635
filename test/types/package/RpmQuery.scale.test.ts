// Scale of RpmQuery.parse and parseAvailable: the set of names and the map of each name's NEVRAs
// that replaced a scan of the names per line and of the lines per name give what the earlier code
// gave, refusals and the order of instances included. The earlier code is kept below as the model.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import { describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Nevra from '../../../src/types/package/Nevra.js'
import * as RpmQuery from '../../../src/types/package/RpmQuery.js'
import * as RpmVersion from '../../../src/types/package/RpmVersion.js'

// the model: the code before the set and the map, as it was

const oldNevras = (what: string, lines: ReadonlyArray<string>, separator: '\t' | ' '): E.Either<Invalid.Invalid, ReadonlyArray<Nevra.Nevra>> => {
  const out: Nevra.Nevra[] = []
  for (const line of lines) {
    const f = line.split(separator)
    if (f.length !== 5) return E.left(Invalid.invalid(what, line, `has ${f.length} ${separator === ' ' ? 'space' : 'tab'}-separated fields, not 5`))
    const [name, epoch, version, release, arch] = f as [string, string, string, string, string]
    if (!/^[0-9]+$/.test(epoch)) return E.left(Invalid.invalid(what, line, 'has an epoch that is not a whole number'))
    const n = Nevra.make(name, epoch, version, release, arch)
    if (E.isLeft(n)) return E.left(Invalid.invalid(what, line, Invalid.message(n.left)))
    out.push(n.right)
  }
  return E.right(out)
}

const oldNewestOf = (ns: ReadonlyNonEmptyArray<Nevra.Nevra>): Nevra.Nevra => ns.reduce((a, b) => (RpmVersion.compare(b.evr, a.evr) > 0 ? b : a))

const oldNonEmpty = <A>(as: ReadonlyArray<A>): as is ReadonlyNonEmptyArray<A> => as.length > 0

const oldParse = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, RpmQuery.PackageStatus>> => {
  const errors = exit.stderr.split('\n').filter((l) => l.trim() !== '')
  if (exit.exitCode === undefined || errors.length > 0) {
    return E.left(Invalid.invalid('rpm -q', errors[0] ?? '', exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const absent = new Set<string>()
  const lines: string[] = []
  for (const line of exit.stdout.split('\n')) {
    if (line === '') continue
    const m = /^package (.*) is not installed$/.exec(line)
    if (m !== null && names.includes(m[1]!)) absent.add(m[1]!)
    else lines.push(line)
  }
  const parsed = oldNevras('rpm -q output', lines, '\t')
  if (E.isLeft(parsed)) return parsed
  const stray = parsed.right.find((n) => !names.includes(n.name))
  if (stray !== undefined) return E.left(Invalid.invalid('rpm -q output', stray.name, 'is a package that was not asked for'))
  if ((exit.exitCode === 0) !== (absent.size === 0)) return E.left(Invalid.invalid('rpm -q', String(exit.exitCode), `is an exit status that does not fit ${absent.size} packages not installed`))
  const result = new Map<string, RpmQuery.PackageStatus>()
  for (const name of names) {
    const mine = parsed.right.filter((n) => n.name === name)
    if (oldNonEmpty(mine)) {
      if (absent.has(name)) return E.left(Invalid.invalid('rpm -q output', name, 'has a line for this package, and rpm also said it is not installed'))
      result.set(name, Object.freeze({ _tag: 'Installed', newest: oldNewestOf(mine), instances: mine }))
    } else if (absent.has(name)) {
      result.set(name, Object.freeze({ _tag: 'Absent' }))
    } else {
      return E.left(Invalid.invalid('rpm -q output', name, 'has no line for this package, and rpm did not say it is not installed'))
    }
  }
  return E.right(result)
}

const oldParseAvailable = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, Nevra.Nevra>> => {
  if (exit.exitCode !== 0) {
    const first = exit.stderr.split('\n').find((l) => l.trim() !== '') ?? ''
    return E.left(Invalid.invalid('dnf repoquery', first, exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const parsed = oldNevras('dnf repoquery output', exit.stdout.split('\n').filter((l) => l !== ''), ' ')
  if (E.isLeft(parsed)) return parsed
  const stray = parsed.right.find((n) => !names.includes(n.name))
  if (stray !== undefined) return E.left(Invalid.invalid('dnf repoquery output', stray.name, 'is a package that was not asked for'))
  const result = new Map<string, Nevra.Nevra>()
  for (const name of names) {
    const mine = parsed.right.filter((n) => n.name === name)
    if (oldNonEmpty(mine)) result.set(name, oldNewestOf(mine))
  }
  return E.right(result)
}

// generators: few names and versions, so that lines collide on names and tie on versions

const packages: ReadonlyArray<string> = ['zsh', 'vim', 'kernel', 'a-b', 'zsh-x']
/** Names a request may hold: every package, and some rpm knows nothing of. */
const requestable: ReadonlyArray<string> = [...packages, 'nope', 'nope-2']

interface Line {
  readonly name: string
  readonly fields: readonly [string, string, string, string]
}

/** An instance: epoch, version, release and arch from short lists, so that some are equal but for their arch. */
const instance = (names: ReadonlyArray<string>): fc.Arbitrary<Line> =>
  fc.record({
    name: fc.constantFrom(...names),
    fields: fc.tuple(fc.constantFrom('0', '1'), fc.constantFrom('1.0', '5.8', '5.8.1', '0.1~rc1'), fc.constantFrom('1', '9.el9', '10.el9'), fc.constantFrom('x86_64', 'i686', 'noarch')),
  })

const print = (l: Line, separator: '\t' | ' '): string => [l.name, ...l.fields].join(separator)
const notInstalled = (name: string): string => `package ${name} is not installed`

/**
 * What a well-behaved rpm -q prints for these names: each instance of a name asked for, in an
 * order of its own, a "not installed" line for each name with none, and an exit status counting them.
 */
const consistentRpm: fc.Arbitrary<{ names: string[]; exit: Exit }> = fc
  .record({
    names: fc.array(fc.constantFrom(...requestable), { minLength: 1, maxLength: 8 }),
    instances: fc.array(instance(packages), { maxLength: 10 }),
    order: fc.array(fc.nat(), { maxLength: 20 }),
  })
  .map(({ names, instances, order }) => {
    const mine = instances.filter((i) => names.includes(i.name))
    const none = [...new Set(names.filter((n) => !mine.some((i) => i.name === n)))]
    const lines = [...mine.map((l) => print(l, '\t')), ...none.map(notInstalled)]
    const shuffled = lines.map((l, i) => [order[i] ?? i, l] as const).sort((a, b) => a[0] - b[0])
    return { names, exit: { exitCode: none.length, signal: undefined, stdout: shuffled.map(([, l]) => `${l}\n`).join(''), stderr: '', durationMs: 1 } }
  })

/** Any mix of the same parts: strays, "not installed" for names not asked for or also printed, bad lines, errors and odd exit statuses. */
const noisyRpm: fc.Arbitrary<{ names: string[]; exit: Exit }> = fc
  .record({
    names: fc.array(fc.constantFrom(...requestable), { maxLength: 8 }),
    lines: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: instance(requestable).map((l) => print(l, '\t')) },
        { weight: 3, arbitrary: fc.constantFrom(...requestable).map(notInstalled) },
        { weight: 1, arbitrary: fc.constantFrom('zsh 0 5.8 9 x86_64', 'zsh\t(none)\t5.8\t9\tx86_64', 'zsh\t0\t5.8;x\t9\tx86_64', '') },
      ),
      { maxLength: 10 },
    ),
    stderr: fc.constantFrom('', '', '', '\n', 'error: cannot open Packages database\n'),
    exitCode: fc.constantFrom(0, 0, 1, 1, 2, 3, undefined),
  })
  .map(({ names, lines, stderr, exitCode }) => ({ names, exit: { exitCode, signal: exitCode === undefined ? 'SIGTERM' : undefined, stdout: lines.map((l) => `${l}\n`).join(''), stderr, durationMs: 1 } }))

/** dnf repoquery's output, well-behaved or not: lines of names asked for or not, bad lines, warnings and exit statuses. */
const repoquery: fc.Arbitrary<{ names: string[]; exit: Exit }> = fc
  .record({
    names: fc.array(fc.constantFrom(...requestable), { maxLength: 8 }),
    lines: fc.array(fc.oneof({ weight: 9, arbitrary: instance(packages).map((l) => print(l, ' ')) }, { weight: 1, arbitrary: fc.constantFrom('zsh 0 5.8', 'zsh x 5.8 1 x86_64') }), { maxLength: 10 }),
    straysKept: fc.boolean(),
    stderr: fc.constantFrom('', 'Unable to detect release version\n', 'Error: Failed to download metadata\n'),
    exitCode: fc.constantFrom(0, 0, 0, 1, undefined),
  })
  .map(({ names, lines, straysKept, stderr, exitCode }) => ({
    names,
    exit: {
      exitCode,
      signal: exitCode === undefined ? 'SIGKILL' : undefined,
      stdout: lines.filter((l) => straysKept || names.includes(l.split(' ')[0]!)).map((l) => `${l}\n`).join(''),
      stderr,
      durationMs: 1,
    },
  }))

/** The outcome with the map as its entries in order, so that a comparison also sees the order of the names. */
const entries = <A>(r: E.Either<Invalid.Invalid, ReadonlyMap<string, A>>) => E.map((m: ReadonlyMap<string, A>) => [...m])(r)

describe('RpmQuery.parse and parseAvailable agree with the earlier code', () => {
  fcTest.prop([consistentRpm], { numRuns: 1000 })('parse, on what a well-behaved rpm -q prints', ({ names, exit }) => {
    expect(entries(RpmQuery.parse(names, exit))).toStrictEqual(entries(oldParse(names, exit)))
  })

  fcTest.prop([noisyRpm], { numRuns: 1000 })('parse, on strays, unknown names, bad lines and exit statuses', ({ names, exit }) => {
    expect(entries(RpmQuery.parse(names, exit))).toStrictEqual(entries(oldParse(names, exit)))
  })

  fcTest.prop([repoquery], { numRuns: 1000 })('parseAvailable, on what dnf repoquery prints or might', ({ names, exit }) => {
    expect(entries(RpmQuery.parseAvailable(names, exit))).toStrictEqual(entries(oldParseAvailable(names, exit)))
  })

  it('is not compared on refusals only: most well-behaved samples are accepted', () => {
    const ok = (g: fc.Arbitrary<{ names: string[]; exit: Exit }>, parse: (names: string[], exit: Exit) => E.Either<Invalid.Invalid, unknown>) =>
      fc.sample(g, { numRuns: 300, seed: 1 }).filter(({ names, exit }) => E.isRight(parse(names, exit))).length
    expect(ok(consistentRpm, RpmQuery.parse)).toBeGreaterThan(150)
    expect(ok(repoquery, RpmQuery.parseAvailable)).toBeGreaterThan(60)
  })
})

describe('RpmQuery.parse and parseAvailable of a large query', () => {
  const n = 20000
  const pkg = (i: number) => `pkg${String(i).padStart(6, '0')}`
  const names = [...Array.from({ length: n }, (_, i) => pkg(i)), ...Array.from({ length: 100 }, (_, i) => `gone${i}`)]
  const nevra = (s: string): Nevra.Nevra => {
    const r = Nevra.parse(s)
    if (E.isLeft(r)) throw new Error(Invalid.message(r.left))
    return r.right
  }

  it('reads 20,000 installed packages, every tenth at two versions, and 100 not installed', () => {
    const lines = Array.from({ length: n }, (_, i) => [`${pkg(i)}\t0\t1.${i}\t1\tx86_64`, ...(i % 10 === 0 ? [`${pkg(i)}\t0\t1.${i}\t2\tx86_64`] : [])]).flat()
    const stdout = [...lines, ...Array.from({ length: 100 }, (_, i) => notInstalled(`gone${i}`))].map((l) => `${l}\n`).join('')
    const got = RpmQuery.parse(names, { exitCode: 100, signal: undefined, stdout, stderr: '', durationMs: 1 })
    const expected = names.map((name, i): [string, RpmQuery.PackageStatus] => {
      if (i >= n) return [name, { _tag: 'Absent' }]
      const first = nevra(`${name}-1.${i}-1.x86_64`)
      if (i % 10 !== 0) return [name, { _tag: 'Installed', newest: first, instances: [first] }]
      const second = nevra(`${name}-1.${i}-2.x86_64`)
      return [name, { _tag: 'Installed', newest: second, instances: [first, second] }]
    })
    expect(entries(got)).toStrictEqual(E.right(expected))
  })

  it('reads the newest available version of 20,000 packages on two architectures', () => {
    const stdout = Array.from({ length: n }, (_, i) => `${pkg(i)} 0 2.${i} 1 x86_64\n${pkg(i)} 0 2.${i} ${i % 2 === 0 ? 1 : 3} i686\n`).join('')
    const got = RpmQuery.parseAvailable(names, { exitCode: 0, signal: undefined, stdout, stderr: '', durationMs: 1 })
    const expected = Array.from({ length: n }, (_, i) => [pkg(i), nevra(`${pkg(i)}-2.${i}-${i % 2 === 0 ? '1.x86_64' : '3.i686'}`)] as const)
    expect(entries(got)).toStrictEqual(E.right(expected))
  })

  it('names the first stray line of 20,000, as the earlier code did', () => {
    const stdout = [...names.slice(0, n).map((p) => `${p}\t0\t1.0\t1\tx86_64`), 'zz1\t0\t1.0\t1\tx86_64', 'zz2\t0\t1.0\t1\tx86_64'].map((l) => `${l}\n`).join('')
    const got = RpmQuery.parse(names.slice(0, n), { exitCode: 0, signal: undefined, stdout, stderr: '', durationMs: 1 })
    expect(E.isLeft(got) && Invalid.message(got.left)).toBe('rpm -q output "zz1": is a package that was not asked for')
  })
})
