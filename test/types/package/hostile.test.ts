// The package parsers treat tool output as hostile: whatever dpkg-query, apt-cache, rpm or dnf
// print, each parser returns an answer or a refusal (never throws), a refusal is one line a
// terminal shows as it is, and an answer only ever speaks of the names asked for.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Exit } from '../../../src/core/Command.js'
import * as AptPolicy from '../../../src/types/package/AptPolicy.js'
import * as DpkgStatus from '../../../src/types/package/DpkgStatus.js'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as RpmQuery from '../../../src/types/package/RpmQuery.js'

// pieces of real output, mixed with hostile characters, so that generated outputs come close to valid ones
const piece = fc.constantFrom(
  'zsh', 'vim', '\t', ' ', '\n', ':', '1.0-1', '2:5.9~rc1', 'amd64', 'x86_64', 'installed', 'config-files', 'not-installed',
  '  Installed: ', '  Candidate: ', '(none)', '  Version table:', ' *** ', '     ', 'package ', ' is not installed', '0', '\u001b[2J', '\u202e', '\r', '"', '-',
)
const output = fc.array(piece, { maxLength: 40 }).map((ps) => ps.join(''))
const exit = fc.record({
  exitCode: fc.constantFrom(0, 1, 2, 100, undefined),
  signal: fc.constantFrom(undefined, 'SIGKILL'),
  stdout: fc.oneof(output, fc.string()),
  stderr: fc.oneof(fc.constant(''), fc.constant('dpkg-query: no packages found matching vim\n'), output),
  durationMs: fc.constant(1),
}) as fc.Arbitrary<Exit>
const names = fc.constantFrom(['zsh'], ['zsh', 'vim'], ['vim'])

/** Inserts a hostile piece somewhere in a text, or leaves it whole. */
const mutate = (text: string): fc.Arbitrary<string> =>
  fc.oneof(fc.constant(text), fc.tuple(fc.nat(text.length), piece).map(([i, p]) => text.slice(0, i) + p + text.slice(i)))

/** What the real tools print when all goes well, for some of the names, then perhaps damaged. */
const wellFormed = (ns: ReadonlyArray<string>): fc.Arbitrary<Exit> =>
  fc
    .tuple(fc.subarray([...ns]), fc.constantFrom('1.0-1', '2:5.9~rc1-3', '0.1'), fc.constantFrom('installed', 'config-files', 'unpacked'), fc.constantFrom('dpkg', 'apt', 'rpm'))
    .chain(([known, v, state, tool]) => {
      const missing = ns.filter((n) => !known.includes(n))
      const [stdout, stderr, code] =
        tool === 'dpkg'
          ? [known.map((n) => `${n}\t${v}\tamd64\t${state}\n`).join(''), missing.map((n) => `dpkg-query: no packages found matching ${n}\n`).join(''), missing.length === 0 ? 0 : 1]
          : tool === 'apt'
            ? [known.map((n) => `${n}:\n  Installed: (none)\n  Candidate: ${v}\n  Version table:\n     ${v} 500\n`).join(''), '', 0]
            : [known.map((n) => `${n}\t0\t${v.replace(/^[0-9]+:/, '').replace(/-.*$/, '')}\t1.el9\tx86_64\n`).join('') + missing.map((n) => `package ${n} is not installed\n`).join(''), '', missing.length]
      return fc.record({ exitCode: fc.constant<number | undefined>(code), signal: fc.constant(undefined), stdout: mutate(stdout), stderr: mutate(stderr), durationMs: fc.constant(1) })
    })

const case_ = names.chain((ns) => fc.tuple(fc.constant(ns), fc.oneof(exit, wellFormed(ns))))
// eslint-disable-next-line no-control-regex -- control and bidi characters are what must not appear
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

const checkRefusal = <A>(r: E.Either<Invalid.Invalid, A>): A | undefined => {
  if (E.isRight(r)) return r.right
  expect(Invalid.message(r.left)).not.toMatch(unsafe)
  return undefined
}

describe('package parsers on hostile output', () => {
  it('DpkgStatus.parse answers only for the names asked, or refuses in one safe line', () => {
    let answered = 0
    fc.assert(
      fc.property(case_, ([ns, x]) => {
        const got = checkRefusal(DpkgStatus.parse(ns, x))
        if (got !== undefined) {
          answered += 1
          expect([...got.keys()].sort()).toEqual([...ns].sort())
        }
      }),
      { numRuns: 1000 },
    )
    expect(answered).toBeGreaterThan(20)
  })

  it('AptPolicy.parse gives sections headed by valid names, or refuses in one safe line', () => {
    let answered = 0
    fc.assert(
      fc.property(case_, ([, x]) => {
        const got = checkRefusal(AptPolicy.parse(x))
        if (got !== undefined && got.size > 0) answered += 1
        if (got !== undefined) for (const k of got.keys()) expect(k).toMatch(/^[A-Za-z0-9][A-Za-z0-9._+:~-]*$/)
      }),
      { numRuns: 1000 },
    )
    expect(answered).toBeGreaterThan(20)
  })

  it('RpmQuery.parse and parseAvailable answer only for the names asked, or refuse in one safe line', () => {
    let answered = 0
    fc.assert(
      fc.property(case_, ([ns, x]) => {
        const got = checkRefusal(RpmQuery.parse(ns, x))
        if (got !== undefined) answered += 1
        if (got !== undefined) expect([...got.keys()].sort()).toEqual([...ns].sort())
        const available = checkRefusal(RpmQuery.parseAvailable(ns, x))
        if (available !== undefined) for (const k of available.keys()) expect(ns).toContain(k)
      }),
      { numRuns: 1000 },
    )
    // a third of the well-formed outputs are each tool's, most of those damaged: 30 to 60 in 1,000
    expect(answered).toBeGreaterThan(15)
  })
})
