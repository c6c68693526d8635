// Holorc: Holo's configuration files, read as Holo 3 reads them, with a clear error at the line
// for anything else (and for what Holo lets through: invalid IDs, empty binaries, a plugin twice).
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Holorc from '../../../../src/interpreters/holo/protocol/Holorc.js'
import * as PluginId from '../../../../src/interpreters/holo/protocol/PluginId.js'

const file = (path: string, text: string): Holorc.File => ({ path, text })

describe('holorc', () => {
  it('reads plugin lines in file order, skipping comments and blank lines', () => {
    const r = Holorc.parse('/', [file('/etc/holorc.d/10-a', '# a comment\n\nplugin files\n'), file('/etc/holorc', '  plugin users-groups  \n\t# indented comment\nplugin foo=../build/holo-foo\n')])
    expect(r).toEqual(
      E.right([
        { id: 'files', binary: '/usr/lib/holo/holo-files', explicit: false, at: '/etc/holorc.d/10-a:3' },
        { id: 'users-groups', binary: '/usr/lib/holo/holo-users-groups', explicit: false, at: '/etc/holorc:1' },
        { id: 'foo', binary: '../build/holo-foo', explicit: true, at: '/etc/holorc:3' },
      ]),
    )
  })

  it('puts the default binary under the root as Holo 3 does, a relative root staying relative', () => {
    expect(Holorc.defaultBinary('./target/', 'files')).toBe('target/usr/lib/holo/holo-files')
    expect(Holorc.defaultBinary('/srv/root', 'x')).toBe('/srv/root/usr/lib/holo/holo-x')
    expect(Holorc.parse('./target/', [file('target/etc/holorc', 'plugin run-scripts')])).toEqual(E.right([{ id: 'run-scripts', binary: 'target/usr/lib/holo/holo-run-scripts', explicit: false, at: 'target/etc/holorc:1' }]))
  })

  it('keeps a binary given as it is written, "=" in it included', () => {
    expect(Holorc.parse('/', [file('/etc/holorc', 'plugin a=/opt/x=y/holo-a')])).toEqual(E.right([{ id: 'a', binary: '/opt/x=y/holo-a', explicit: true, at: '/etc/holorc:1' }]))
  })

  it('reports every bad line with its file and line number', () => {
    const r = Holorc.parse('/', [file('/etc/holorc', 'plugin files\nplugins foo\nplugin\nplugin Foo\nplugin -x\nplugin a=\nplugin files\nplugin b\u0007c\n')])
    expect(r).toEqual(
      E.left([
        '/etc/holorc:2: cannot parse configuration: unknown command: plugins foo',
        '/etc/holorc:3: cannot parse configuration: unknown command: plugin',
        '/etc/holorc:4: cannot parse configuration: "Foo" is not a plugin ID (lower-case letters, digits and "-", not starting with "-")',
        '/etc/holorc:5: cannot parse configuration: "-x" is not a plugin ID (lower-case letters, digits and "-", not starting with "-")',
        '/etc/holorc:6: cannot parse configuration: plugin a has an empty binary after "="',
        '/etc/holorc:7: cannot parse configuration: plugin files is configured twice (first at /etc/holorc:1)',
        '/etc/holorc:8: cannot parse configuration: the line contains a control character: "plugin b\\u0007c"',
      ]),
    )
  })

  it('refuses a file larger than its bound', () => {
    expect(Holorc.parse('/', [file('/etc/holorc', '#'.repeat(Holorc.maxFile + 1))])).toEqual(E.left([`/etc/holorc: cannot parse configuration: the file is larger than ${Holorc.maxFile} bytes`]))
  })

  it('sorts snippet names bytewise, as Go does', () => {
    expect(['b', 'B', '10-x', '9-y', 'a'].sort(Holorc.compareNames)).toEqual(['10-x', '9-y', 'B', 'a', 'b'])
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 400 })])('never throws, and every plugin it reads has a valid ID and a binary', (text) => {
    const r = Holorc.parse('/', [file('/etc/holorc', text)])
    if (E.isRight(r)) for (const e of r.right) expect(PluginId.valid(e.id) && e.binary !== '').toBe(true)
    else for (const m of r.left) expect(m).toMatch(/^\/etc\/holorc(:\d+)?: cannot parse configuration: /)
  })

  test.prop([fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}$/), { maxLength: 8 })])('reads back every plugin line it is given, in order', (ids) => {
    const unique = [...new Set(ids)]
    const r = Holorc.parse('/', [file('/etc/holorc', unique.map((id) => `plugin ${id}`).join('\n'))])
    expect(E.map((es: ReadonlyArray<Holorc.Entry>) => es.map((e) => e.id))(r)).toEqual(E.right(unique))
  })
})
