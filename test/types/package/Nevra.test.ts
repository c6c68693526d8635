// Nevra: `name-[epoch:]version-release.arch`, split from the right as dnf prints it.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Invalid from '../../../src/types/package/Invalid.js'
import * as Nevra from '../../../src/types/package/Nevra.js'

describe('Nevra.parse', () => {
  it.each([
    ['zsh-5.8-9.el9.x86_64', { name: 'zsh', evr: { epoch: '0', version: '5.8', release: '9.el9' }, arch: 'x86_64' }],
    ['perl-Data-Dumper-2.174-462.el9.x86_64', { name: 'perl-Data-Dumper', evr: { epoch: '0', version: '2.174', release: '462.el9' }, arch: 'x86_64' }],
    ['bind-utils-32:9.16.23-14.el9.noarch', { name: 'bind-utils', evr: { epoch: '32', version: '9.16.23', release: '14.el9' }, arch: 'noarch' }],
    ['nginx-1:1.24.0-1.el9.aarch64', { name: 'nginx', evr: { epoch: '1', version: '1.24.0', release: '1.el9' }, arch: 'aarch64' }],
    ['python3.11-3.11.5-1.fc39.i686', { name: 'python3.11', evr: { epoch: '0', version: '3.11.5', release: '1.fc39' }, arch: 'i686' }],
  ])('parses %s', (text, nevra) => {
    expect(Nevra.parse(text)).toEqual(E.right(nevra))
  })

  it.each([
    ['zsh', 'rpm package (name-[epoch:]version-release.arch) "zsh": has no ".arch" at its end'],
    ['zsh.x86_64', 'rpm package (name-[epoch:]version-release.arch) "zsh.x86_64": has no "-release"'],
    ['zsh-5.8.x86_64', 'rpm package (name-[epoch:]version-release.arch) "zsh-5.8.x86_64": has no "-version"'],
    ['zsh-x:5.8-1.x86_64', 'rpm package (name-[epoch:]version-release.arch) "zsh-x:5.8-1.x86_64": has an epoch that is not a whole number'],
    ['-5.8-1.x86_64', 'package name "": is empty'],
    ['z;sh-5.8-1.x86_64', 'package name "z;sh": contains ";", which is not allowed: only letters, digits and . _ + : ~ - are'],
    ['zsh-5.8-1.x86-64', 'rpm architecture "x86-64": allows only letters, digits and _'],
    ['zsh-5.8-1.', 'rpm architecture "": allows only letters, digits and _'],
  ])('refuses %j with a clear message', (text, message) => {
    const r = Nevra.parse(text)
    expect(E.isLeft(r) && Invalid.message(r.left)).toBe(message)
  })

  it('builds from rpm query fields and refuses a hyphen inside the version', () => {
    expect(Nevra.make('zsh', '0', '5.8', '9.el9', 'x86_64')).toEqual(Nevra.parse('zsh-5.8-9.el9.x86_64'))
    expect(E.isLeft(Nevra.make('zsh', '0', '5-8', '9', 'x86_64'))).toBe(true)
    expect(E.isLeft(Nevra.make('zsh', '0', '5.8', '9-1', 'x86_64'))).toBe(true)
  })

  it('formats a NEVRA back to itself', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._+~^]{0,6}$/)
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,10}$/), fc.constantFrom('0', '1', '42'), part, part, fc.constantFrom('x86_64', 'noarch'), (n, e, v, r, a) => {
        const made = Nevra.make(n, e, v, r, a)
        if (E.isLeft(made)) return
        expect(Nevra.parse(Nevra.format(made.right))).toEqual(made)
      }),
    )
  })
})
