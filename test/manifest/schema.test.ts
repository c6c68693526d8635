// The editor schema (docs/schema/manifest.schema.json) and the compiler agree on shape: whatever
// the schema rejects, the compiler rejects too, and whatever the compiler rejects for its shape
// (an unknown key, a wrong type), the schema rejects too. Checked on the CCM compatibility corpus
// as it is and on generated manifests. A type plait does not have may be a libral provider's,
// which the schema cannot see: it accepts any such type with any attributes, so whether the type
// exists and what its attributes are is left to the compiler (with the providers at hand).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fc, test as fcTest } from '@fast-check/vitest'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as YAML from 'yaml'
import { compile } from '../../src/compiler/compile.js'

const here = dirname(fileURLToPath(import.meta.url))
const schema = JSON.parse(readFileSync(join(here, '..', '..', 'docs', 'schema', 'manifest.schema.json'), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)
const compat = join(here, '..', '..', '..', 'shared', 'compat', 'ccm')

/** The compiler's verdict on shape alone: value checks (modes, paths, owners) are not the schema's business. */
const shapeErrors = (text: string): string[] => {
  const r = compile('m.yaml', text, '/srv')
  return E.isLeft(r)
    ? r.left
        .filter((d) => d.code === 'UnknownKey' || d.code === 'Decode' || d.code === 'Syntax')
        // CCM's schema, which the editor schema follows, takes a manifest without resources; CCM
        // refuses it after validating it ("manifest must contain resources"), and so does the compiler.
        .filter((d) => d.message !== 'manifest must contain resources')
        .filter((d) => !d.message.startsWith('unknown resource type') && (d.resource === undefined || /^(file|package|service)#/.test(d.resource)))
        .map((d) => d.message)
    : []
}

const schemaAccepts = (text: string): boolean => validate(YAML.parse(text) ?? {}) === true

describe('manifest schema', () => {
  it('agrees with the compiler on every manifest of the CCM corpus', () => {
    const files = readdirSync(compat).filter((f) => f.endsWith('.yaml'))
    expect(files.length).toBeGreaterThan(5)
    for (const f of files) {
      const text = readFileSync(join(compat, f), 'utf8')
      expect(schemaAccepts(text), f).toBe(shapeErrors(text).length === 0)
    }
  })

  const scalar = fc.oneof(fc.constantFrom('present', 'absent', 'directory', '/etc/x', 'root', '0644', "{{ lookup('data.x') }}"), fc.integer({ min: 0, max: 999 }), fc.boolean())
  const value = fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(['a']) }, { weight: 1, arbitrary: fc.constant({ a: 1 }) })
  const key = fc.constantFrom('ensure', 'content', 'source', 'owner', 'group', 'mode', 'force', 'provider', 'enable', 'colour')
  const props = fc.dictionary(key, value, { maxKeys: 4 })
  const item = fc.record({ name: fc.constantFrom('/etc/a', '/etc/b', 'defaults'), props: fc.option(props, { nil: null }) }).map(({ name, props }) => ({ [name]: props }))
  // Each list ends with a resource: a `defaults` with nothing after it is never decoded by the
  // compiler (its keys are checked, its values are not, as nothing uses them), while the schema,
  // an editor's aid, checks it anyway.
  const group = fc
    .record({ type: fc.constantFrom('file', 'file', 'file', 'package', 'service', 'mount'), items: fc.array(item, { maxLength: 3 }) })
    .map(({ type, items }) => ({ [type]: [...items, { '/etc/last': null }] }))
  const manifest = fc.record(
    {
      data: fc.oneof(fc.constant({ x: 'y' }), fc.constant(null), fc.constant('text')),
      ccm: fc.record({ resources: fc.array(group, { maxLength: 3 }), fail_on_error: fc.oneof(fc.boolean(), fc.constant('yes')) }, { requiredKeys: ['resources'] }),
      colour: fc.constant('red'),
    },
    { requiredKeys: ['ccm'] },
  )

  fcTest.prop([manifest], { numRuns: 300 })('agrees with the compiler on generated manifests', (m) => {
    const text = YAML.stringify(m)
    expect(schemaAccepts(text), text).toBe(shapeErrors(text).length === 0)
  })

  it.each([
    ['a package with every property', '- package:\n    - nginx:\n        ensure: latest\n        provider: dnf\n        alias: web\n        require: [file#/etc/a]\n', true],
    ['a package in the direct format', '- package:\n    name: nginx\n    ensure: "1.24.0-1.el9"\n', true],
    ['a package with a property of another type', '- package:\n    - nginx:\n        enable: true\n', false],
    ['a package with a list for ensure', '- package:\n    - nginx:\n        ensure: [latest]\n', false],
    ['a service that subscribes and is enabled', '- service:\n    - nginx:\n        ensure: running\n        enable: true\n        subscribe: [file#/etc/a]\n', true],
    ['a service with enable as text', '- service:\n    - nginx:\n        enable: "yes"\n', false],
    ['a service with an unknown property', '- service:\n    - nginx:\n        restart: always\n', false],
  ])('agrees with the compiler on %s', (_, resources, valid) => {
    const text = `ccm:\n  resources:\n    - file:\n        - /etc/a:\n            ensure: present\n${resources.replace(/^/gm, '    ')}`
    expect(schemaAccepts(text), text).toBe(valid)
    expect(shapeErrors(text).length === 0, text).toBe(valid)
  })

  it('names the schema for editors in the docs', () => {
    expect(readFileSync(join(here, '..', '..', 'docs', 'cli.md'), 'utf8')).toContain('schema/manifest.schema.json')
  })
})
