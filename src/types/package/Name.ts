// Name: which package names and versions may reach a package manager. The spec's rule (letters,
// digits and `. _ + : ~ -`; no shell metacharacter, whitespace, quote or path separator) is the
// floor; plait adds what the package managers themselves read into a word:
// - a word starting with `-` is an option, so a name or version starts with a letter or digit
//   (which also keeps out apt's `~pattern` and `?pattern` syntax);
// - apt-get reads a name it cannot find as a regular expression (`zs.` installs zstd and zsh-dev)
//   and a trailing `-` or `+` as "remove" or "install" (`install dpkg-` removes dpkg): `checkApt`
//   holds names to Debian policy's syntax and refuses a trailing `-`; the type must only ask apt to
//   install a name apt-cache lists exactly (see AptPolicy);
// - dnf reads `name-version` by trying every split, and rpm names hold no `:` or `~`: `checkDnf`.
import * as E from 'fp-ts/lib/Either.js'
import * as Invalid from './Invalid.js'

// model

/** The longest name or version accepted. */
export const maxLength = 255

// constructors

const generic = /[A-Za-z0-9._+:~-]/
const versionChar = /[A-Za-z0-9._+:~^-]/

const common = (what: string, text: string, allowed: RegExp, allowedText: string): E.Either<Invalid.Invalid, string> => {
  const bad = (reason: string) => E.left(Invalid.invalid(what, text, reason))
  if (text === '') return bad('is empty')
  if ([...text].length > maxLength) return bad(`is longer than ${maxLength} characters`)
  const odd = [...text].find((c) => !allowed.test(c))
  if (odd !== undefined) return bad(`contains ${Invalid.char(odd)}, which is not allowed: only letters, digits and ${allowedText} are`)
  if (!/^[A-Za-z0-9]/.test(text)) return bad(`starts with ${Invalid.char(text[0]!)}: it must start with a letter or a digit${text.startsWith('-') ? ' (a package manager would read it as an option)' : ''}`)
  return E.right(text)
}

/** A package name by the spec's rule, starting with a letter or a digit: the name, or why not. */
export const check = (name: string): E.Either<Invalid.Invalid, string> => common('package name', name, generic, '. _ + : ~ -')

/** A version that `ensure` names, before the provider parses it: the version, or why not. */
export const checkVersion = (version: string): E.Either<Invalid.Invalid, string> => common('package version', version, versionChar, '. _ + : ~ ^ -')

/**
 * A name apt and dpkg take literally: Debian policy's syntax (lower-case letters, digits and
 * `+ - .`, at least two characters, starting with a letter or digit), an optional `:arch`
 * qualifier, and no trailing `-`.
 */
export const checkApt = (name: string): E.Either<Invalid.Invalid, string> => {
  const g = check(name)
  if (E.isLeft(g)) return g
  const bad = (reason: string) => E.left(Invalid.invalid('apt package name', name, reason))
  const colon = name.indexOf(':')
  const pkg = colon < 0 ? name : name.slice(0, colon)
  const arch = colon < 0 ? undefined : name.slice(colon + 1)
  if (!/^[a-z0-9.+-]+$/.test(pkg)) return bad(`has ${Invalid.offending(pkg, /[a-z0-9.+-]/)}, which Debian package names do not: only lower-case letters, digits and + - . are allowed`)
  if (pkg.length < 2) return bad('is shorter than two characters, which Debian package names are not')
  if (pkg.endsWith('-')) return bad('ends with "-", which apt-get would read as "remove this package"')
  if (arch !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(arch)) return bad('has an architecture qualifier that is not lower-case letters, digits and -')
  return E.right(name)
}

/**
 * A name rpm and dnf take literally: letters, digits and `. _ + -`, starting with a letter or
 * digit, and not ending with `-` (dnf would read `name-` as a name and an empty version).
 */
export const checkDnf = (name: string): E.Either<Invalid.Invalid, string> => {
  const g = check(name)
  if (E.isLeft(g)) return g
  const odd = [...name].find((c) => !/[A-Za-z0-9._+-]/.test(c))
  if (odd !== undefined) return E.left(Invalid.invalid('rpm package name', name, `has ${Invalid.char(odd)}, which rpm package names do not: only letters, digits and . _ + - are allowed`))
  if (name.endsWith('-')) return E.left(Invalid.invalid('rpm package name', name, 'ends with "-", which dnf would read as a name and an empty version'))
  return E.right(name)
}

/**
 * A name for the provider named; with none named, one both take (apt's rule, then dnf's), so the
 * machine's provider, whichever it is, can be asked of it (`provider: apt` for `name:arch`).
 */
export const checkFor = (provider: 'apt' | 'dnf' | 'auto', name: string): E.Either<Invalid.Invalid, string> => {
  if (provider === 'dnf') return checkDnf(name)
  const apt = checkApt(name)
  return provider === 'apt' || E.isLeft(apt) ? apt : checkDnf(name)
}
