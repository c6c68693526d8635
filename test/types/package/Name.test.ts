// Name: the package names and versions that may reach apt, dpkg, rpm and dnf.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Name from '../../../src/types/package/Name.js'

const refusal = (r: E.Either<Invalid.Invalid, string>): string => (E.isLeft(r) ? Invalid.message(r.left) : `accepted ${r.right}`)

// what a shell, a terminal or an option parser would read as more than a word
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const dangerous = /^-|[\s;|&$`'"\\/<>()*?[\]{}!#=%\u0000-\u001f\u007f-\u009f]/u

describe('Name.check', () => {
  it.each(['zsh', 'vim', 'nginx', 'libstdc++6', 'g++', 'python3.11', 'NetworkManager', 'perl-Data-Dumper', 'libc6:amd64', 'a', '0ad', 'x_y~z'])('accepts %s', (name) => {
    expect(Name.check(name)).toEqual(E.right(name))
  })

  it.each([
    ['', 'package name "": is empty'],
    ['zsh;rm -rf /', 'package name "zsh;rm -rf /": contains ";", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a|b', 'package name "a|b": contains "|", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a&b', 'package name "a&b": contains "&", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['$(id)', 'package name "$(id)": contains "$", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a b', 'package name "a b": contains U+0020, which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a\tb', 'package name "a\\tb": contains U+0009, which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a\nb', 'package name "a\\nb": contains U+000A, which is not allowed: only letters, digits and . _ + : ~ - are'],
    ["a'b", `package name "a'b": contains "'", which is not allowed: only letters, digits and . _ + : ~ - are`],
    ['a"b', 'package name "a\\"b": contains "\\"", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a`b', 'package name "a`b": contains "`", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['../x', 'package name "../x": contains "/", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['a*', 'package name "a*": contains "*", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['zsh\u202e', 'package name "zsh\\u202e": contains U+202E, which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['-y', 'package name "-y": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)'],
    ['--root=/', 'package name "--root=/": contains "=", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['~ndpkg', 'package name "~ndpkg": starts with "~": it must start with a letter or a digit'],
    ['.hidden', 'package name ".hidden": starts with ".": it must start with a letter or a digit'],
    ['a'.repeat(256), `package name "${'a'.repeat(80)}…": is longer than 255 characters`],
  ])('refuses %j with a clear message', (name, message) => {
    expect(refusal(Name.check(name))).toBe(message)
  })

  it('never accepts a name that starts with "-" or holds a shell, whitespace or control character', () => {
    const hostile = fc.string({ unit: fc.constantFrom('a', '1', '-', '.', '+', ':', '~', '_', ' ', ';', '$', '`', "'", '"', '\n', '\t', '\u0000', '\u001b', '|', '&', '/', '*', '\u202e', 'é'), maxLength: 12 })
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string(), fc.string({ unit: 'binary' })), (name) => {
        const r = Name.check(name)
        if (E.isRight(r)) {
          expect(name).not.toMatch(dangerous)
          expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._+:~-]*$/)
        } else {
          // every refusal is one line a terminal shows as it is
          // eslint-disable-next-line no-control-regex -- as above
          expect(Invalid.message(r.left)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/u)
        }
      }),
    )
  })
})

describe('Name.checkVersion', () => {
  it.each(['1.0', '1:2.0-3', '5.9-8+b18', '1.0~rc1', '1.0^git1', '1.24.0-1.el9'])('accepts %s', (v) => {
    expect(Name.checkVersion(v)).toEqual(E.right(v))
  })

  it.each([
    ['', 'package version "": is empty'],
    ['1.0;id', 'package version "1.0;id": contains ";", which is not allowed: only letters, digits and . _ + : ~ ^ - are'],
    ['1.0 1', 'package version "1.0 1": contains U+0020, which is not allowed: only letters, digits and . _ + : ~ ^ - are'],
    ['--force', 'package version "--force": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)'],
    ['1=2', 'package version "1=2": contains "=", which is not allowed: only letters, digits and . _ + : ~ ^ - are'],
  ])('refuses %j with a clear message', (v, message) => {
    expect(refusal(Name.checkVersion(v))).toBe(message)
  })

  it('never accepts a version that starts with "-" or holds a shell, whitespace or control character', () => {
    fc.assert(
      fc.property(fc.string(), (v) => {
        if (E.isRight(Name.checkVersion(v))) expect(v).not.toMatch(dangerous)
      }),
    )
  })
})

describe('Name.checkApt', () => {
  it.each(['zsh', 'g++', 'libstdc++6', 'python3.11', 'libc6:amd64', 'dpkg-dev', '0ad'])('accepts %s', (name) => {
    expect(Name.checkApt(name)).toEqual(E.right(name))
  })

  it.each([
    ['NetworkManager', 'apt package name "NetworkManager": has "N", which Debian package names do not: only lower-case letters, digits and + - . are allowed'],
    ['a_b', 'apt package name "a_b": has "_", which Debian package names do not: only lower-case letters, digits and + - . are allowed'],
    ['a~b', 'apt package name "a~b": has "~", which Debian package names do not: only lower-case letters, digits and + - . are allowed'],
    ['a', 'apt package name "a": is shorter than two characters, which Debian package names are not'],
    ['dpkg-', 'apt package name "dpkg-": ends with "-", which apt-get would read as "remove this package"'],
    ['libc6:AMD64', 'apt package name "libc6:AMD64": has an architecture qualifier that is not lower-case letters, digits and -'],
    ['libc6:', 'apt package name "libc6:": has an architecture qualifier that is not lower-case letters, digits and -'],
    ['a;b', 'package name "a;b": contains ";", which is not allowed: only letters, digits and . _ + : ~ - are'],
  ])('refuses %j with a clear message', (name, message) => {
    expect(refusal(Name.checkApt(name))).toBe(message)
  })

  it('accepts only what the generic rule accepts', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '1', '-', '.', '+', ':', '~', '_', ';') }), (n) => !E.isRight(Name.checkApt(n)) || E.isRight(Name.check(n))))
  })
})

describe('Name.checkDnf', () => {
  it.each(['zsh', 'perl-Data-Dumper', 'NetworkManager', 'libstdc++', 'python3.11', 'x_y'])('accepts %s', (name) => {
    expect(Name.checkDnf(name)).toEqual(E.right(name))
  })

  it.each([
    ['zsh:x86_64', 'rpm package name "zsh:x86_64": has ":", which rpm package names do not: only letters, digits and . _ + - are allowed'],
    ['a~b', 'rpm package name "a~b": has "~", which rpm package names do not: only letters, digits and . _ + - are allowed'],
    ['-a', 'package name "-a": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)'],
    ['kernel-', 'rpm package name "kernel-": ends with "-", which dnf would read as a name and an empty version'],
  ])('refuses %j with a clear message', (name, message) => {
    expect(refusal(Name.checkDnf(name))).toBe(message)
  })
})

describe('Name.checkFor', () => {
  it.each<['apt' | 'dnf' | 'auto', string, string]>([
    ['apt', 'libc6:amd64', 'accepted libc6:amd64'],
    ['apt', 'NetworkManager', 'apt package name "NetworkManager": has "N", which Debian package names do not: only lower-case letters, digits and + - . are allowed'],
    ['dnf', 'NetworkManager', 'accepted NetworkManager'],
    ['dnf', 'libc6:amd64', 'rpm package name "libc6:amd64": has ":", which rpm package names do not: only letters, digits and . _ + - are allowed'],
    ['auto', 'g++-12', 'accepted g++-12'],
    ['auto', 'NetworkManager', 'apt package name "NetworkManager": has "N", which Debian package names do not: only lower-case letters, digits and + - . are allowed'],
    ['auto', 'libc6:amd64', 'rpm package name "libc6:amd64": has ":", which rpm package names do not: only letters, digits and . _ + - are allowed'],
  ])('for %s, %s is %s', (provider, name, says) => {
    expect(refusal(Name.checkFor(provider, name))).toBe(says)
  })

  it('takes without a provider exactly the names both apt and dnf take', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._+:~-]{1,12}$/), (name) => {
        expect(E.isRight(Name.checkFor('auto', name))).toBe(E.isRight(Name.checkApt(name)) && E.isRight(Name.checkDnf(name)))
      }),
    )
  })
})
