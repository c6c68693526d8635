import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { test as fcTest } from '@fast-check/vitest'
import * as MachineFile from '../../../src/interpreters/memory/machineFile.js'
import * as Snapshot from '../../../src/interpreters/Snapshot.js'
import * as Arb from '../arbitraries.js'

const parsed = (text: string): Snapshot.Snapshot => {
  const r = MachineFile.parse(text)
  if (E.isLeft(r)) throw new Error(r.left)
  return r.right
}
const problem = (text: string): string => {
  const r = MachineFile.parse(text)
  if (E.isRight(r)) throw new Error('expected a parse error')
  return r.left
}

describe('machineFile.parse', () => {
  it('reads the documented example, implying unlisted parent directories as root:root 0755', () => {
    const s = parsed(`
users: { root: 0, app: 1000 }
groups: { root: 0, app: 1000 }
files:
  /etc: { type: directory, owner: root, group: root, mode: "0755" }
  /etc/motd: { content: "hello\\n", owner: app, group: app, mode: "0644" }
  /etc/logo.bin: { base64: "AAEC", owner: 0, group: 0, mode: "0600" }
  /etc/current: { type: symlink, target: /etc/motd }
  /var/lib/app/state: { content: "" }
`)
    expect(s.users).toEqual({ app: 1000, root: 0 })
    expect(Object.keys(s.files)).toEqual(['/', '/etc', '/etc/current', '/etc/logo.bin', '/etc/motd', '/var', '/var/lib', '/var/lib/app', '/var/lib/app/state'])
    expect(s.files['/etc/motd']).toEqual(Snapshot.file('hello\n', { uid: 1000, gid: 1000, mode: 0o644 }))
    expect(s.files['/etc/logo.bin']).toEqual(Snapshot.file(new Uint8Array([0, 1, 2]), { mode: 0o600 }))
    expect(s.files['/etc/current']).toEqual(Snapshot.symlink('/etc/motd'))
    expect(s.files['/var/lib']).toEqual(Snapshot.directory())
    expect(s.files['/var/lib/app/state']).toEqual(Snapshot.file('', {}))
  })

  it('uses the default accounts when none are given, and an empty file list', () => {
    const s = parsed('files: {}\n')
    expect(s).toEqual(Snapshot.empty)
    expect(parsed('')).toEqual(Snapshot.empty)
  })

  it.each([
    ['files:\n  /a: { mode: 0644 }\n', 'files./a.mode: a mode must be a quoted string'],
    ['files:\n  /a: { mode: "0999" }\n', 'files./a.mode: invalid mode "0999"'],
    ['files:\n  /a: { owner: alice }\n', 'files./a.owner: unknown name "alice"'],
    ['files:\n  /a: { colour: red }\n', 'files./a: unknown key "colour"'],
    ['files:\n  /a: { type: socket }\n', 'files./a.type: expected file, directory, symlink or other'],
    ['files:\n  /a: { content: "x", base64: "eA==" }\n', 'give content or base64, not both'],
    ['files:\n  /a: { base64: "not base64!" }\n', 'files./a.base64: expected base64 text'],
    ['files:\n  /a: { type: symlink }\n', 'a symlink needs a target'],
    ['files:\n  /a: { content: "x" }\n  /a/b: { content: "y" }\n', 'its ancestor /a is a file'],
    ['files:\n  a/b: { content: "x" }\n', 'a/b: the path is not absolute'],
    ['files:\n  /a/../b: { content: "x" }\n', 'the path has a ".." segment'],
    ['files:\n  /a: { content: "x" }\n  /a: { content: "y" }\n', 'machine file: Map keys must be unique'],
    ['users: [root]\n', 'users: expected a map'],
    ['users: { root: -1 }\n', 'users.root: expected an id'],
    ['hosts: {}\n', 'unknown key "hosts"'],
    ['files: [\n', 'machine file:'],
  ])('refuses %j', (text, message) => {
    expect(problem(text)).toContain(message)
  })
})

describe('machineFile.render', () => {
  it('renders names for known ids, numbers for unknown ones, text or base64 content', () => {
    const s = parsed(`
users: { root: 0, app: 1000 }
groups: { root: 0 }
files:
  /etc/motd: { content: "hi\\n", owner: app, group: 1000, mode: "0640" }
  /bin.dat: { base64: "/w==" }
  /l: { type: symlink, target: "etc/motd" }
`)
    expect(MachineFile.render(s)).toBe(
      [
        'users: { app: 1000, root: 0 }',
        'groups: { root: 0 }',
        'files:',
        '  /bin.dat: { base64: "/w==", owner: root, group: root, mode: "0644" }',
        '  /etc: { type: directory, owner: root, group: root, mode: "0755" }',
        '  /etc/motd: { content: "hi\\n", owner: app, group: 1000, mode: "0640" }',
        '  /l: { type: symlink, target: "etc/motd", owner: root, group: root }',
        '',
      ].join('\n'),
    )
  })

  it('round-trips text that YAML cannot hold unescaped', () => {
    const tricky = 'a\x7f b\u0085 c\u2028 d\u2029 e\ufeff f\ufffe g\t\r\n\0 \u{1f600} "q" \\ #x: y'
    const s = Snapshot.make({ '/t': Snapshot.file(tricky), '/"odd: key" #': Snapshot.symlink(tricky) }, { users: { 'true': 0, '1000': 5, 'a b': 7 } })
    if (E.isLeft(s)) throw new Error(s.left)
    expect(MachineFile.parse(MachineFile.render(s.right))).toEqual(s)
  })

  fcTest.prop([Arb.snapshot({ size: 10 })], { numRuns: 300 })('round-trips: parse(render(s)) equals s', (s) => {
    expect(MachineFile.parse(MachineFile.render(s))).toEqual(E.right(s))
  })
})
