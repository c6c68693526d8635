// Decoding a service resource from a manifest: its properties, CCM's service name table (names
// that could inject anything into systemctl's argv are refused), and a clear message with its
// position for every bad input. Also `subscribe`, which service resources accept, as exec ones do.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { errors, specOf } from '../../support/compiled.js'
import * as Spec from '../../../src/types/service/Spec.js'
import * as Status from '../../../src/types/service/Status.js'

const manifest = (entry: string, before = ''): string => `ccm:\n  resources:\n${before}    - service:\n        - ${entry}\n`

describe('a service entry', () => {
  it('defaults to ensure running and leaves the boot state alone', () => {
    expect(specOf(manifest('httpd: {}'))).toEqual({ _tag: 'service', id: 'service#httpd', name: 'httpd', at: { file: 'm.yaml', line: 4, col: 11 }, ensure: 'running', provider: 'systemd' })
  })

  it('takes ensure stopped, enable true or false, and provider systemd', () => {
    expect(specOf(manifest('nginx.service:\n            ensure: stopped\n            enable: false\n            provider: systemd'))).toMatchObject({ name: 'nginx.service', ensure: 'stopped', enable: false })
    expect(specOf(manifest('my-app_v2:\n            enable: true'))).toMatchObject({ ensure: 'running', enable: true })
  })

  it('refuses an unknown ensure, a non-boolean enable, another provider and an unknown property, each at its place', () => {
    expect(errors(manifest('web:\n            ensure: present'))).toMatch(/m\.yaml:5:21: service#web: unknown ensure "present" for a service resource\n {2}hint: ensure is running \(the default\) or stopped/)
    expect(errors(manifest('web:\n            enable: "yes"'))).toMatch(/m\.yaml:5:21: service#web: enable must be a boolean, found a string/)
    expect(errors(manifest('web:\n            provider: sysv'))).toMatch(/m\.yaml:5:23: service#web: unknown service provider "sysv"\n {2}hint: service providers: systemd/)
    expect(errors(manifest('web:\n            restart: true'))).toMatch(/m\.yaml:5:13: service#web: unknown property "restart" for a service resource\n {2}hint: allowed: ensure, enable, provider/)
  })

  it('accepts subscribe, and refuses it on a type that does not refresh with the types that do', () => {
    const file = "    - file:\n        - /etc/app.conf:\n            ensure: present\n            content: x\n            owner: root\n            group: root\n            mode: '0644'\n"
    expect(errors(manifest('web:\n            subscribe: [file#/etc/app.conf]', file))).toBe('')
    expect(errors(`ccm:\n  resources:\n${file}    - file:\n        - /etc/b:\n            ensure: absent\n            subscribe: [file#/etc/app.conf]\n`)).toMatch(/subscribe is for exec and service resources, not file/)
  })
})

describe('service names (CCM: letters, digits and . _ + : ~ -)', () => {
  it.each(['httpd', 'nginx.service', 'my-app_v2', 'a+b', 'x:y', 'v~1'])('%s is a valid name', (name) => {
    expect(Spec.nameProblem(name)).toBeUndefined()
  })

  it.each([
    ['app@instance', 'service name contains dangerous characters: "app@instance"'],
    ['app; rm -rf /', 'service name contains dangerous characters: "app; rm -rf /"'],
    ['a|b', 'service name contains dangerous characters: "a|b"'],
    ['a&b', 'service name contains dangerous characters: "a&b"'],
    ['a b', 'service name contains dangerous characters: "a b"'],
    ['../etc/x', 'service name contains dangerous characters: "../etc/x"'],
    ['a\nb', 'service name contains dangerous characters: "a\\nb"'],
    ['$(id)', 'service name contains dangerous characters: "$(id)"'],
    ['--now', 'service name must not start with "-": "--now"'],
    ['x'.repeat(256), 'service name is longer than 255 characters'],
  ])('%j is refused', (name, why) => {
    expect(Spec.nameProblem(name)).toBe(why)
  })

  it('refuses a bad name in a manifest at the name, with the allowed characters', () => {
    expect(errors(manifest('"app; rm -rf /": {}'))).toMatch(/m\.yaml:4:11: service#app; rm -rf \/: service name contains dangerous characters: "app; rm -rf \/"\n {2}hint: service names use letters/)
  })

  fcTest.prop([fc.string({ unit: 'binary', maxLength: 40 })])('a name is accepted only when it is one argv word systemctl cannot read as anything else', (name) => {
    const ok = Spec.nameProblem(name) === undefined
    expect(ok).toBe(/^[A-Za-z0-9._+:~][A-Za-z0-9._+:~-]*$/.test(name))
  })
})

describe('a status from what systemd said', () => {
  it('is running and enabled by the tables, and a unit systemd does not know is missing', () => {
    expect(Status.of({ load: 'loaded', active: 'failed', unitFile: 'static' })).toEqual(E.right({ running: false, enabled: true, active: 'failed', unitFile: 'static' }))
    expect(Status.of({ load: 'not-found', active: 'inactive', unitFile: '' })).toEqual(E.right(Status.missing))
    expect(Status.summary(Status.missing)).toBe('not found')
    expect(Status.of({ load: 'loaded', active: 'reloading', unitFile: 'enabled' })).toEqual(E.left('invalid systemctl is-active output "reloading"'))
    expect(Status.of({ load: 'loaded', active: 'active', unitFile: 'weird' })).toEqual(E.left('invalid systemctl is-enabled output "weird"'))
    expect(Status.of({ load: 'loaded', active: 'active', unitFile: '' })).toEqual(E.right({ running: true, enabled: undefined, active: 'active', unitFile: '' }))
  })
})
