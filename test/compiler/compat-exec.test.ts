// CCM's exec snippets as they are: their exec items compile; what remains are only the types that
// plait does not have yet (scaffold, archive, apply, package, service), each named as unknown.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as YAML from 'yaml'
import * as Catalog from '../support/catalog.js'
import { compile } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'

const compat = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'compat', 'ccm')
const read = (name: string) => readFileSync(join(compat, name), 'utf8')
const notYet = /^unknown resource type "(scaffold|archive|apply|package|service)"$/

/** A snippet file (a list of resource items) as a manifest, unchanged otherwise. */
const asManifest = (snippets: string) => YAML.stringify({ ccm: { resources: YAML.parse(snippets) as unknown } })

const outcome = (name: string, text: string) => {
  const r = compile(name, text, '/srv')
  return E.isLeft(r) ? { errors: r.left, catalog: undefined } : { errors: [], catalog: r.right }
}

describe('CCM exec snippets', () => {
  it('exec-scaffold-archive-snippets.yaml: its exec items compile', () => {
    const { errors } = outcome('snippets.yaml', asManifest(read('exec-scaffold-archive-snippets.yaml')))
    expect(errors.filter((d) => !notYet.test(d.message)).map(Diagnostic.render)).toEqual([])
    const execOnly = YAML.stringify({ ccm: { resources: (YAML.parse(read('exec-scaffold-archive-snippets.yaml')) as Record<string, unknown>[]).filter((x) => 'exec' in x) } })
    const c = compile('exec.yaml', execOnly, '/srv')
    if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
    expect(Catalog.execs(c.right).map((e) => [e.id, e.provider, e.timeoutMs, e.creates ?? e.unless ?? ''])).toEqual([
      ['exec#touch_hello', 'posix', 30_000, '/tmp/hello'],
      ['exec#cleanup-logs', 'shell', 300_000, ''],
      ['exec#configure-firewall', 'posix', 300_000, '/usr/sbin/iptables -C INPUT -p tcp --dport 8080 -j ACCEPT'],
    ])
  })

  it('apply-composition.yaml: its exec item (refresh_only, subscribing to an apply resource) compiles', () => {
    const { errors } = outcome('apply.yaml', asManifest(read('apply-composition.yaml')))
    expect(errors.map((d) => d.message).filter((m) => !notYet.test(m))).toEqual([])
  })

  it('yamlmanifests-defaults-require-failonerror.yaml compiles, its package included; its require resolves', () => {
    const { errors } = outcome('yamlmanifests.yaml', read('yamlmanifests-defaults-require-failonerror.yaml'))
    expect(errors.map((d) => d.message)).toEqual([])
  })
})
