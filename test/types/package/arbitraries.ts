// Generators of package versions for the property tests and the checks against dpkg and rpm: short
// alphabets on purpose, so that generated versions collide on prefixes, tildes, carets and zeros.
import { fc } from '@fast-check/vitest'

const pick = (alphabet: string) => fc.constantFrom(...alphabet.split(''))
const word = (alphabet: string, max: number) => fc.array(pick(alphabet), { minLength: 0, maxLength: max }).map((cs) => cs.join(''))

/** A well-formed Debian version: an optional epoch, an upstream version starting with a digit, an optional revision. */
export const debianVersion: fc.Arbitrary<string> = fc
  .record({
    epoch: fc.option(fc.constantFrom('0', '1', '2', '00', '10'), { nil: undefined }),
    first: pick('0123456789'),
    upstream: word('0019a.b.Z+~~', 7),
    revision: fc.option(fc.tuple(word('01a.+~', 5), pick('019ab')), { nil: undefined }),
  })
  .chain(({ epoch, first, upstream, revision }) =>
    // a hyphen may appear inside the upstream version only when a revision follows
    fc.boolean().map((hy) => {
      const up = first + (revision !== undefined && hy ? upstream.replace('.', '-') : upstream)
      return `${epoch === undefined ? '' : epoch + ':'}${up}${revision === undefined ? '' : '-' + revision[0] + revision[1]}`
    }),
  )

/** A text that rpmvercmp compares directly: alphanumeric segments, separators, `~` and `^`. */
export const rpmSegments: fc.Arbitrary<string> = word('0019aZb.._+~^', 8)

/** An rpm EVR: an optional epoch, a non-empty version, an optional release (rpm.vercmp's input). */
export const rpmEvr: fc.Arbitrary<string> = fc
  .record({
    epoch: fc.option(fc.constantFrom('0', '1', '2', '01'), { nil: undefined }),
    version: fc.tuple(pick('0123456789abZ'), word('0019ab.~^+_', 6)).map(([a, b]) => a + b),
    release: fc.option(fc.tuple(pick('019a'), word('01a.~^_', 4)).map(([a, b]) => a + b), { nil: undefined }),
  })
  .map(({ epoch, version, release }) => `${epoch === undefined ? '' : epoch + ':'}${version}${release === undefined ? '' : '-' + release}`)
