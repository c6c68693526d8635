import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type { Resource } from '../../src/compiler/Catalog.js'
import { compile } from '../../src/compiler/compile.js'
import * as Manifest from '../../src/manifest/Manifest.js'
import * as Yaml from '../../src/manifest/Yaml.js'
import type { FileSpec } from '../../src/types/file/Spec.js'

const compat = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'compat', 'ccm')
const fromCompat = (name: string) => compile(name, readFileSync(join(compat, name), 'utf8'), '/srv/manifests')

const errors = (text: string) => {
  const r = compile('m.yaml', text, '/srv/m')
  if (E.isRight(r)) throw new Error('expected errors')
  return r.left.map(Diagnostic.render)
}

const ok = (text: string) => {
  const r = compile('m.yaml', text, '/srv/m')
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}

/** True for a compiled file resource. */
const isFile = (r: Resource | undefined): r is FileSpec => r?._tag === 'file'

/** The resource as the file it must be (the test fails when it is missing or of another type). */
const fileOf = (r: Resource | undefined): FileSpec => {
  if (!isFile(r)) throw new Error(`expected a file resource, got ${JSON.stringify(r)}`)
  return r
}

const file = (props: string) => `ccm:\n  resources:\n    - file:\n        - /etc/x:\n${props.replace(/^/gm, '            ')}\n`

describe('compile', () => {
  it('compiles a file resource with defaults, templates and the explicit-name form', () => {
    const c = ok(`data:
  owner: app
ccm:
  resources:
    - file:
        - defaults:
            owner: "{{ lookup('data.owner') }}"
            group: app
            mode: 0640
        - /etc/a.conf:
            content: "hello"
        - /etc/b.conf:
            source: files/b.conf
            mode: "0600"
    - file:
        name: /etc/c
        ensure: directory
        owner: root
        group: root
        mode: "0755"
`)
    expect(c.resources.map(fileOf).map((r) => [r.id, r.owner, r.mode, r.content._tag])).toEqual([
      ['file#/etc/a.conf', 'app', 0o640, 'Inline'],
      ['file#/etc/b.conf', 'app', 0o600, 'Source'],
      ['file#/etc/c', 'root', 0o755, 'Unmanaged'],
    ])
    const b = fileOf(c.resources[1])
    expect(b.content).toEqual({ _tag: 'Source', written: 'files/b.conf', path: '/srv/m/files/b.conf' })
  })

  it('keeps manifest order and digests the manifest text', () => {
    const c = ok(file('ensure: absent'))
    expect(c.manifest.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(fileOf(c.resources[0]).ensure).toBe('absent')
  })

  it.each([
    ['ensure: [1]', /m.yaml:5:21: file#\/etc\/x: ensure: expected a string, found a list/],
    ['ensure: gone', /ensure must be one of present, absent, directory/],
    ['ensure: present\nowner: root\ngroup: root\nmode: "0888"', /m.yaml:8:\d+: file#\/etc\/x: invalid mode "0888"/],
    ['ensure: present\nowner: root\ngroup: root\nmode: "1777"', /exceeds 0777/],
    ['ensure: present\nowner: root\ngroup: root\nmode: rw-r--r--', /not an octal number/],
    ['ensure: present', /owner is required unless ensure is absent/],
    ['ensure: absent\nforce: "yes"', /force must be a boolean/],
    ['ensure: directory\nowner: root\ngroup: root\nmode: "0755"\nforce: true', /force is only valid with ensure: absent \(remove a non-empty directory\) or present \(replace one with the file\)/],
    ['owner: root\ngroup: root\nmode: "0644"\ncontent: a\nsource: b', /content and source are mutually exclusive/],
    ['owner: "ro ot"\ngroup: root\nmode: "0644"', /owner "ro ot" is not a valid user name/],
    ['owner: "root:root"\ngroup: root\nmode: "0644"', /is not a valid user name/],
    ['owner: root\ngroup: root\nmode: "0644"\ncolour: blue', /m.yaml:8:13: file#\/etc\/x: unknown property "colour"/],
    ['owner: root\ngroup: root\nmode: "0644"\nrequire: [file#/a]', /require: no resource file#\/a in this manifest/],
    ['ensure: directory\nowner: root\ngroup: root\nmode: "0755"\ncontent: x', /content cannot be used with ensure: directory/],
    ['ensure: absent\ncontent: "{{ nosuch() }}"', /unknown func nosuch \(in "{{ nosuch\(\) }}", column 4\)/],
  ])('refuses %j', (props, why) => {
    expect(errors(file(props)).join('\n')).toMatch(why)
  })

  it.each(['etc/x', '/etc/../x', '/etc//x', '/etc/x/'])('refuses the unclean path %s', (p) => {
    expect(errors(`ccm:\n  resources:\n    - file:\n        - "${p}":\n            ensure: absent\n`).join('\n')).toMatch(/must be absolute and clean/)
  })

  it('refuses unknown keys at the top and under ccm, with positions', () => {
    const text = 'ccm:\n  resources: []\n  colour: 1\nextra: 2\n'
    const es = errors(text).join('\n')
    expect(es).toMatch(/m.yaml:3:3: unknown key "ccm.colour"/)
    expect(es).toMatch(/m.yaml:4:1: unknown top-level key "extra"/)
  })

  it.each([
    ['an empty list', 'ccm:\n  resources: []\n', 'm.yaml:2:14'],
    ['a null list', 'ccm:\n  resources:\n  fail_on_error: true\n', 'm.yaml:2:13'],
    ['no resources key', 'ccm:\n  fail_on_error: true\n', 'm.yaml:1:1'],
    ['no ccm key', 'data:\n  a: 1\n', 'm.yaml:1:1'],
  ])('refuses a manifest without resources, as CCM does (%s)', (_, text, at) => {
    expect(errors(text)).toEqual([`error: ${at}: manifest must contain resources\n  hint: list at least one resource under ccm.resources`])
  })

  it('takes a manifest whose only resources control leaves out, or whose only group is empty, as CCM does', () => {
    expect(ok('ccm:\n  resources:\n    - file:\n        - /x:\n            ensure: absent\n            control:\n              if: "false"\n').resources.map((r) => r._tag)).toEqual(['skipped'])
    expect(ok('ccm:\n  resources:\n    - file: []\n').resources).toEqual([])
  })

  it('refuses duplicates, naming the first declaration', () => {
    const text = 'ccm:\n  resources:\n    - file:\n        - /x: {ensure: absent}\n    - file:\n        - /x: {ensure: absent}\n'
    expect(errors(text).join('\n')).toMatch(/m.yaml:6:11: file#\/x: duplicate resource file#\/x \(first declared at 4:11\)/)
  })

  it('refuses unknown resource types', () => {
    expect(errors('ccm:\n  resources:\n    - mount:\n        - /srv: {ensure: present}\n').join('\n')).toMatch(/unknown resource type "mount"/)
  })

  it('refuses a manifest that is not a map', () => {
    expect(errors('- 1\n- 2\n').join('\n')).toMatch(/a manifest must be a map/)
  })
})

describe('the CCM compatibility corpus', () => {
  it('readme-httpd-manifest.yaml fails as CCM fails: the file has no owner, group or mode', () => {
    const r = fromCompat('readme-httpd-manifest.yaml')
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    const text = r.left.map(Diagnostic.render).join('\n')
    expect(text).toMatch(/file#\/etc\/httpd\/conf.d\/listen.conf: owner is required unless ensure is absent/)
  })

  it('yamlmanifests-defaults-require-failonerror.yaml compiles: its file defaults decode, its package and its require of it resolve', () => {
    const r = fromCompat('yamlmanifests-defaults-require-failonerror.yaml')
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    expect(r.right.resources.map((x) => x.id)).toContain('package#httpd')
  })

  it('shows only the first few syntax errors, and says how many more there were', () => {
    const text = 'ccm:\n  resources: [\n' + Array.from({ length: 20 }, (_, i) => `  - x${i}: {`).join('\n') + '\n'
    const es = errors(text)
    expect(es.length).toBe(4)
    expect(es[3]).toMatch(/more syntax errors, most likely caused by the first; fix it and run again/)
  })

  it('refuses the root directory as a file path', () => {
    const es = errors('ccm:\n  resources:\n    - file:\n        - /:\n            ensure: directory\n            owner: root\n            group: root\n            mode: "0755"\n')
    expect(es).toEqual(['error: m.yaml:4:11: file#/: file path cannot be the root directory "/"'])
  })

  it('with an invalid ensure, reports only the ensure, not the properties it would require', () => {
    expect(errors(file('ensure: sideways'))).toEqual(['error: m.yaml:5:21: file#/etc/x: ensure must be one of present, absent, directory; got "sideways"'])
    expect(errors(file('ensure: [1]')).some((e) => e.includes('required'))).toBe(false)
  })

  it('hiera-annotated.yaml resolves its hierarchy with the facts: deep merges every matching override', () => {
    const text = readFileSync(join(compat, 'hiera-annotated.yaml'), 'utf8')
    const tree = Yaml.parse('hiera-annotated.yaml', text)
    if (E.isLeft(tree)) throw new Error('parse')
    const decoded = Manifest.decode('hiera-annotated.yaml', tree.right, { facts: { env: 'prod', role: 'web', hostname: 'web1' } })
    // A hiera document is data, not a manifest: as CCM, a manifest without resources is refused, and that is its only problem.
    expect(decoded.problems.map((d) => d.message)).toEqual(['manifest must contain resources'])
    expect(decoded.manifest.data).toEqual({ log_level: 'WARN', packages: ['ca-certificates', 'nginx'], web: { listen_port: 443, tls: true } })
    expect(decoded.manifest.resources).toEqual([])
    // with no matching facts, the base data stands
    const bare = Manifest.decode('hiera-annotated.yaml', tree.right, { facts: {} })
    expect(bare.manifest.data).toEqual({ log_level: 'INFO', packages: ['ca-certificates'], web: { listen_port: 80, tls: false } })
    const compiled = fromCompat('hiera-annotated.yaml')
    expect(E.isLeft(compiled) && compiled.left.map((d) => d.message)).toEqual(['manifest must contain resources'])
  })

  it('hiera-data-annotations.yaml: its validators pass (its only problem is that it has no resources), and a value that breaks one is refused at its position', () => {
    const compiled = fromCompat('hiera-data-annotations.yaml')
    expect(E.isLeft(compiled) && compiled.left.map((d) => d.message)).toEqual(['manifest must contain resources'])
    const text = readFileSync(join(compat, 'hiera-data-annotations.yaml'), 'utf8').replace('listen_address: 10.0.0.1', 'listen_address: 10.0.0.300')
    const r = compile('h.yaml', text, '/srv')
    expect(E.isLeft(r) && r.left.map(Diagnostic.render).join('\n')).toMatch(/^error: h\.yaml:12:\d+: .*listen_address/m)
  })

  it('a resource template reads the resolved data', () => {
    const c = ok(`hierarchy:
  order: [ "env:\${ lookup('facts.env') }" ]
data:
  motd: base
overrides:
  env:prod:
    motd: production
ccm:
  resources:
    - file:
        - /etc/motd:
            content: "{{ Data.motd }}"
            owner: root
            group: root
            mode: "0644"
`)
    expect(fileOf(c.resources[0]).content).toEqual({ _tag: 'Inline', text: 'base' })
    const r = compile('m.yaml', `hierarchy:\n  order: [ "env:\${ lookup('facts.env') }" ]\ndata:\n  motd: base\noverrides:\n  env:prod:\n    motd: production\nccm:\n  resources:\n    - file:\n        - /etc/motd:\n            content: "{{ Data.motd }}"\n            owner: root\n            group: root\n            mode: "0644"\n`, '/srv', { facts: { env: 'prod' } })
    expect(E.isRight(r) && fileOf(r.right.resources[0]).content).toEqual({ _tag: 'Inline', text: 'production' })
  })

  it('records only the facts and environment values the manifest read, with digests of what it saw', () => {
    const text = `hierarchy:\n  order: [ "role:\${ lookup('facts.role') }" ]\nccm:\n  resources:\n    - file:\n        - /etc/x:\n            content: "{{ Facts.host.name }} {{ lookup('facts.missing', 'd') }} {{ Environ.HOME }}"\n            owner: root\n            group: root\n            mode: "0644"\n`
    const facts = { role: 'web', host: { name: 'h1', uptime: 12345 }, memory: { free: 1 } }
    const r = compile('m.yaml', text, '/srv', { facts, environ: { HOME: '/root', PATH: '/bin' } })
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    expect(r.right.reads.map((x) => `${x.root}:${x.path}`)).toEqual(['environ:HOME', 'facts:host.name', 'facts:missing', 'facts:role'])
    // a fact the manifest never read does not change the catalog; one it read does
    const again = compile('m.yaml', text, '/srv', { facts: { ...facts, memory: { free: 2 }, host: { name: 'h1', uptime: 1 } }, environ: { HOME: '/root' } })
    expect(E.isRight(again) && again.right.reads).toEqual(r.right.reads)
    const other = compile('m.yaml', text, '/srv', { facts: { ...facts, role: 'db' }, environ: { HOME: '/root' } })
    expect(E.isRight(other) && other.right.reads).not.toEqual(r.right.reads)
  })
})
