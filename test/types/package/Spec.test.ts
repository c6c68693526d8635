// Decoding a package resource from a manifest: ensure present (the default), absent, latest or a
// version; the apt or dnf provider, or none (the machine's: then a name and a version must suit
// both); names apt or dnf could read as an option, a pattern or a removal refused; a clear
// message with its position for every bad input.
import { describe, expect, it } from 'vitest'
import { errors, specOf } from '../../support/compiled.js'

const manifest = (entry: string): string => `ccm:\n  resources:\n    - package:\n        - ${entry}\n`

describe('a package entry', () => {
  it("defaults to ensure present and the machine's provider (auto)", () => {
    expect(specOf(manifest('hello: {}'))).toEqual({ _tag: 'package', id: 'package#hello', name: 'hello', at: { file: 'm.yaml', line: 4, col: 11 }, ensure: 'present', provider: 'auto' })
  })

  it('takes the dnf provider with rpm names and versions, which apt would refuse', () => {
    expect(specOf(manifest('NetworkManager_x:\n            ensure: "1:1.42.2-1.el9"\n            provider: dnf'))).toMatchObject({ name: 'NetworkManager_x', ensure: '1:1.42.2-1.el9', provider: 'dnf' })
    expect(specOf(manifest('vim:\n            ensure: "v2.0-1"\n            provider: dnf'))).toMatchObject({ ensure: 'v2.0-1', provider: 'dnf' })
  })

  it.each([
    ['"libc6:amd64"', 'rpm package name "libc6:amd64": has ":"', 'name provider: apt for an :arch qualifier'],
    ['"Hello"', 'apt package name "Hello"', 'without a provider, a name must suit apt and dnf'],
  ])('refuses without a provider the name %s that only one provider takes', (name, says, hint) => {
    const e = errors(manifest(`${name}: {}`))
    expect(e).toContain(says)
    expect(e).toContain(hint)
  })

  it('refuses an rpm name or version apt-only syntax would pass, with provider dnf', () => {
    expect(errors(manifest('"libc6:amd64":\n            provider: dnf'))).toContain('m.yaml:4:11: package#libc6:amd64: rpm package name "libc6:amd64": has ":"')
    expect(errors(manifest('"kernel-":\n            provider: dnf'))).toContain('rpm package name "kernel-": ends with "-", which dnf would read as a name and an empty version')
    expect(errors(manifest('vim:\n            ensure: "1.0-"\n            provider: dnf'))).toContain('m.yaml:5:21: package#vim: ensure is not present, absent, latest or a valid version: rpm version "1.0-"')
    expect(errors(manifest('vim:\n            ensure: "v2.0-1"'))).toContain('ensure is not present, absent, latest or a valid version: Debian version "v2.0-1"')
  })

  it.each(['present', 'absent', 'latest', '2.10-3', '1:2.0~rc1-1+b2'])('takes ensure %s', (ensure) => {
    expect(specOf(manifest(`libc6:amd64:\n            ensure: "${ensure}"\n            provider: apt`))).toMatchObject({ name: 'libc6:amd64', ensure })
  })

  it.each([
    ['-oDir=/', '4:11', 'package name "-oDir=/": contains "=", which is not allowed'],
    ['"-ohello"', '4:11', 'package name "-ohello": starts with "-": it must start with a letter or a digit (a package manager would read it as an option)'],
    ['"zs.*"', '4:11', 'package name "zs.*": contains "*", which is not allowed'],
    ['"dpkg-"', '4:11', 'apt package name "dpkg-": ends with "-", which apt-get would read as "remove this package"'],
    ['Hello', '4:11', 'apt package name "Hello": has "H", which Debian package names do not'],
    ['x', '4:11', 'apt package name "x": is shorter than two characters'],
    ['"a;b"', '4:11', 'package name "a;b": contains ";", which is not allowed'],
  ])('refuses the name %s at its position', (name, at, says) => {
    const e = errors(manifest(`${name}: {}`))
    expect(e).toContain(`m.yaml:${at}:`)
    expect(e).toContain(says)
  })

  it('refuses a malformed version, an unknown ensure, an unknown provider and an unknown property, each at its position', () => {
    expect(errors(manifest('vim:\n            ensure: "1.0;rm -rf /"'))).toContain('m.yaml:5:21: package#vim: ensure is not present, absent, latest or a valid version: package version "1.0;rm -rf /": contains ";"')
    expect(errors(manifest('vim:\n            ensure: installed'))).toMatch(/m\.yaml:5:21: package#vim: ensure is not present, absent, latest or a valid version: Debian version "installed": .*\n {2}hint: ensure is present \(the default\), absent, latest, or an exact version/)
    expect(errors(manifest('vim:\n            provider: yum'))).toContain('m.yaml:5:23: package#vim: unknown package provider "yum"')
    expect(errors(manifest('vim:\n            version: "1"'))).toMatch(/m\.yaml:5:13: package#vim: unknown property "version" for a package resource\n {2}hint: allowed: ensure, provider/)
  })
})
