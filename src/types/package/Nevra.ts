// Nevra: an rpm package's full identity, `name-[epoch:]version-release.arch`, as dnf prints and
// accepts it. The name may hold hyphens; version, release and arch may not, so the text splits
// from the right: the arch after the last `.`, the release after the last `-`, the version after
// the `-` before it.
import * as E from 'fp-ts/lib/Either.js'
import * as Invalid from './Invalid.js'
import * as Name from './Name.js'
import * as RpmVersion from './RpmVersion.js'

// model

export interface Nevra {
  /** A valid rpm package name (Name.checkDnf). */
  readonly name: string
  /** The EVR, always with a release. */
  readonly evr: RpmVersion.Evr & { readonly release: string }
  /** Letters, digits and `_` (x86_64, noarch, aarch64, i686). */
  readonly arch: string
}

// constructors

const what = 'rpm package (name-[epoch:]version-release.arch)'

/** Builds a NEVRA from its parts (as `rpm -q --queryformat` prints them), checking each. */
export const make = (name: string, epoch: string, version: string, release: string, arch: string): E.Either<Invalid.Invalid, Nevra> => {
  const n = Name.checkDnf(name)
  if (E.isLeft(n)) return n
  if (!/^[A-Za-z0-9_]+$/.test(arch)) return E.left(Invalid.invalid('rpm architecture', arch, 'allows only letters, digits and _'))
  const evr = RpmVersion.parse(`${epoch === '' ? '0' : epoch}:${version}-${release}`)
  if (E.isLeft(evr)) return evr
  const { release: r } = evr.right
  if (r === undefined || version.includes('-') || release.includes('-')) return E.left(Invalid.invalid('rpm version', `${version}-${release}`, 'has a "-" inside its version or release'))
  return E.right(Object.freeze({ name: n.right, evr: { ...evr.right, release: r }, arch }))
}

/** Parses `name-[epoch:]version-release.arch`. */
export const parse = (text: string): E.Either<Invalid.Invalid, Nevra> => {
  const bad = (reason: string) => E.left(Invalid.invalid(what, text, reason))
  const dot = text.lastIndexOf('.')
  if (dot < 0) return bad('has no ".arch" at its end')
  const nevr = text.slice(0, dot)
  const arch = text.slice(dot + 1)
  const r = nevr.lastIndexOf('-')
  if (r < 0) return bad('has no "-release"')
  const v = nevr.lastIndexOf('-', r - 1)
  if (v < 0) return bad('has no "-version"')
  const colon = nevr.indexOf(':', v)
  const epoch = colon < 0 ? '' : nevr.slice(v + 1, colon)
  if (colon >= 0 && !/^[0-9]+$/.test(epoch)) return bad('has an epoch that is not a whole number')
  return make(nevr.slice(0, v), epoch, nevr.slice(colon < 0 ? v + 1 : colon + 1, r), nevr.slice(r + 1), arch)
}

// interop

/** The NEVRA as dnf prints it: `name-[epoch:]version-release.arch`, the epoch only when it is not 0. */
export const format = (p: Nevra): string => `${p.name}-${RpmVersion.format(p.evr)}.${p.arch}`
