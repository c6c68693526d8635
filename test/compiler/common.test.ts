// The common properties: alias, require, subscribe, control and health_checks, resolved at compile
// time with positions; references only to earlier resources.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { isSkipped } from '../../src/compiler/Catalog.js'
import { compile } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'

const text = (body: string) => `ccm:\n  resources:\n${body}`
const file = (path: string, extra = '') => `    - file:\n        - ${path}:\n            content: x\n            owner: root\n            group: root\n            mode: "0644"\n${extra.replace(/^/gm, '            ')}\n`
const exec = (name: string, extra = '') => `    - exec:\n        - ${name}:\n            command: /bin/true\n${extra.replace(/^/gm, '            ')}\n`
const ok = (body: string, facts: unknown = {}) => {
  const r = compile('m.yaml', text(body), '/srv', { facts })
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}
const errors = (body: string) => {
  const r = compile('m.yaml', text(body), '/srv')
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map(Diagnostic.render).join('\n')
}

describe('require and subscribe', () => {
  it('resolve type#name and aliases of earlier resources to ids', () => {
    const c = ok(file('/etc/a', 'alias: conf') + exec('reload', 'subscribe: [conf]\nrequire: [file#/etc/a]'))
    expect(c.links.get('exec#reload')).toEqual({ require: ['file#/etc/a'], subscribe: ['file#/etc/a'], healthChecks: [] })
  })
  it('resolve type#alias within the type, as CCM matches a reference against a name or an alias', () => {
    const c = ok(file('/etc/a', 'alias: conf') + exec('warm', 'alias: cache') + exec('reload', 'subscribe: [file#conf]\nrequire: [exec#cache, file#/etc/a]'))
    expect(c.links.get('exec#reload')).toEqual({ require: ['exec#warm', 'file#/etc/a'], subscribe: ['file#/etc/a'], healthChecks: [] })
  })
  it('refuse type#alias of another type, of a later resource, and an ambiguous one naming both', () => {
    expect(errors(file('/etc/a', 'alias: conf') + exec('reload', 'require: [exec#conf]'))).toMatch(/exec#reload: require: no resource exec#conf in this manifest/)
    expect(errors(exec('first', 'require: [exec#two]') + exec('second', 'alias: two'))).toMatch(/exec#first: require: exec#two comes later in the manifest/)
    expect(errors(exec('second') + exec('first', 'alias: second') + exec('third', 'require: [exec#second]'))).toMatch(
      /m\.yaml:\d+:23: exec#third: require: exec#second is ambiguous: it is the id of exec#second and the alias of exec#first\n {2}hint: give one of them another alias/,
    )
  })
  it('refuse a later resource, an unknown one and the resource itself, at the reference', () => {
    const es = errors(exec('first', 'require: [exec#second]') + exec('second', 'require: [exec#nope, exec#second]'))
    expect(es).toMatch(/m\.yaml:6:23: exec#first: require: exec#second comes later in the manifest; resources run in manifest order/)
    expect(es).toMatch(/m\.yaml:10:23: exec#second: require: no resource exec#nope in this manifest\n {2}hint: refer to a resource as type#name, or by its alias/)
    expect(es).toMatch(/require: exec#second is this resource itself/)
  })
  it('refuse subscribe on a type that does not refresh, and a taken alias', () => {
    expect(errors(file('/etc/a') + file('/etc/b', 'subscribe: [file#/etc/a]'))).toMatch(/subscribe is for exec and service resources, not file\n {2}hint: to order this resource after another, use require/)
    expect(errors(file('/etc/a', 'alias: x') + file('/etc/b', 'alias: x'))).toMatch(/alias x is already the alias of file#\/etc\/a/)
  })
  it('refuse an alias that is the id of another resource, even a later one', () => {
    expect(errors(exec('first', 'alias: exec#second') + exec('second') + exec('third', 'require: [exec#second]'))).toMatch(/alias exec#second is the id of another resource of this manifest/)
  })
  it('refuse a reference list of the wrong shape', () => {
    expect(errors(exec('a', 'require: {x: 1}'))).toMatch(/require must be a list of references/)
  })
})

describe('defaults', () => {
  it('take the common properties, and name an unknown key of exec defaults once', () => {
    const c = ok(file('/etc/a') + `    - exec:\n        - defaults:\n            require: [file#/etc/a]\n            timeout: 10s\n        - x:\n            command: /bin/true\n`)
    expect(c.links.get('exec#x')?.require).toEqual(['file#/etc/a'])
    const es = errors(`    - exec:\n        - defaults:\n            colour: red\n        - x:\n            command: /bin/true\n        - y:\n            command: /bin/true\n`)
    expect(es.match(/unknown property "colour"/g)).toHaveLength(1)
    expect(es).toMatch(/unknown property "colour" in exec defaults/)
  })
})

describe('control', () => {
  it('skips a resource whose if is false or whose unless is true, and never resolves its properties', () => {
    const c = ok(
      exec('a', 'control:\n  if: Facts.os == "plan9"') +
        exec('b', 'control:\n  unless: "{{ Facts.os == \'linux\' }}"') +
        `    - file:\n        - /etc/c:\n            content: "{{ readFile('missing.txt') }}"\n            owner: root\n            group: root\n            mode: "0644"\n            control:\n              if: false\n` +
        exec('d', 'control:\n  if: Facts.os == "linux"'),
      { os: 'linux' },
    )
    expect(c.resources.map((r) => [r.id, isSkipped(r) ? r.reason : 'kept'])).toEqual([
      ['exec#a', 'control: the if expression (Facts.os == "plan9") is false'],
      ['exec#b', "control: the unless expression ({{ Facts.os == 'linux' }}) is true"],
      ['file#/etc/c', 'control: the if expression (false) is false'],
      ['exec#d', 'kept'],
    ])
  })
  it('resolves nothing else of a skipped resource: its health checks and references may not work here', () => {
    const c = ok(exec('win', 'control:\n  if: Facts.os == "windows"\nhealth_checks:\n  - command: "{{ Facts.windows.check }}"\nrequire: [exec#nowhere]\nalias: w'), { os: 'linux' })
    expect(c.resources[0]).toMatchObject({ _tag: 'skipped', id: 'exec#win' })
  })
  it('still reports unknown keys of a skipped resource, and wants a boolean', () => {
    expect(errors(exec('a', 'colour: red\ncontrol:\n  if: false'))).toMatch(/unknown property "colour" for an exec resource/)
    expect(errors(exec('a', 'control:\n  if: "1 + 1"'))).toMatch(/control\.if must give a boolean, got int 2/)
    expect(errors(exec('a', 'control:\n  when: true'))).toMatch(/unknown key "control\.when"/)
  })
})

describe('health_checks', () => {
  it('decodes nagios checks with their defaults', () => {
    const c = ok(file('/etc/a', 'health_checks:\n  - command: /usr/lib/nagios/plugins/check_disk -w 10%\n  - name: web\n    command: "check_http -H \'local host\'"\n    tries: 3\n    try_sleep: 2s\n    timeout: 5s'))
    expect(c.links.get('file#/etc/a')?.healthChecks).toEqual([
      { name: '/usr/lib/nagios/plugins/check_disk -w 10%', argv: ['/usr/lib/nagios/plugins/check_disk', '-w', '10%'], timeoutMs: 60_000, tries: 1, trySleepMs: 1000 },
      { name: 'web', argv: ['check_http', '-H', 'local host'], timeoutMs: 5000, tries: 3, trySleepMs: 2000 },
    ])
  })
  it.each([
    ['health_checks:\n  - name: x', /health_checks\[0\] needs a command/],
    ['health_checks:\n  - command: a\n    tries: 0', /health_checks\[0\]\.tries must be a whole number of at least 1/],
    ['health_checks:\n  - command: a\n    try_sleep: soon', /health_checks\[0\]\.try_sleep "soon" is not a positive duration/],
    ['health_checks:\n  - goss_rules: {}', /health_checks\[0\]\.goss_rules: has no rules/],
    ['health_checks:\n  - command: "a \'b"', /health_checks\[0\]\.command cannot be run: Unterminated single-quoted string/],
    ['health_checks:\n  - command: a\n    colour: red', /unknown key "colour" in health_checks\[0\]/],
  ])('%s', (extra, message) => {
    expect(errors(file('/etc/a', extra))).toMatch(message)
  })
})
