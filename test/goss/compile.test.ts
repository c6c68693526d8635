// goss_rules in a manifest's health checks: templates resolved first (names and values), the
// rules decoded with the manifest's positions, and the check's other fields as for commands.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'

const text = (checks: string) => `data:\n  port: 8080\n  word: ok\nccm:\n  resources:\n    - exec:\n        - x:\n            command: /bin/true\n            health_checks:\n${checks.replace(/^/gm, '              ')}\n`
const ok = (checks: string) => {
  const r = compile('m.yaml', text(checks), '/srv')
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right.links.get('exec#x')?.healthChecks
}
const errors = (checks: string) => {
  const r = compile('m.yaml', text(checks), '/srv')
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map(Diagnostic.render).join('\n')
}

describe('goss_rules in health checks', () => {
  it('resolve templates in names and values, and carry the rules as JSON', () => {
    expect(ok('- name: web\n  goss_rules:\n    http:\n      "http://localhost:{{ Data.port }}/health":\n        status: 200\n        body: ["{{ Data.word }}"]\n    file:\n      /etc/motd:\n        mode: 0644\n  tries: 3\n  try_sleep: 1s')).toEqual([
      { name: 'web', argv: [], goss: { http: { 'http://localhost:8080/health': { status: 200, body: ['ok'] } }, file: { '/etc/motd': { mode: '0644' } } }, timeoutMs: 60_000, tries: 3, trySleepMs: 1000 },
    ])
  })
  it('are named goss when they have no name, and accept format goss', () => {
    expect(ok('- format: goss\n  goss_rules:\n    process:\n      sshd:\n        running: true')?.[0]?.name).toBe('goss')
  })
  it.each([
    ['an unknown kind, at its key', '- goss_rules:\n    mount:\n      /: {exists: true}', /m\.yaml:11:19: .*health_checks\[0\]\.goss_rules: unknown resource kind "mount"/],
    ['an unknown attribute', '- goss_rules:\n    user:\n      bob:\n        colour: red', /m\.yaml:13:23: .*health_checks\[0\]\.goss_rules: user "bob": unknown attribute "colour"/],
    ['an unknown matcher', '- goss_rules:\n    user:\n      bob:\n        uid: {below: 3}', /m\.yaml:13:29: .*unknown matcher "below"/],
    ['a template that fails', '- goss_rules:\n    file:\n      "{{ Data.nope.deeper }}":\n        exists: true', /m\.yaml:12:\d+: exec#x: cannot fetch deeper from <nil>/],
    ['both a command and goss_rules', '- command: /bin/true\n  goss_rules:\n    process:\n      sshd: {running: true}', /health_checks\[0\] has both command and goss_rules: give one/],
    ['format goss with a command', '- command: /bin/true\n  format: goss', /health_checks\[0\]\.format goss needs goss_rules/],
    ['format nagios with goss_rules', '- format: nagios\n  goss_rules:\n    process:\n      sshd: {running: true}', /health_checks\[0\]\.format nagios needs a command/],
    ['an unknown format', '- format: json\n  command: /bin/true', /health_checks\[0\]\.format "json" is not a format: use nagios or goss/],
  ])('refuse %s', (_, checks, message) => {
    expect(errors(checks)).toMatch(message)
  })
})
