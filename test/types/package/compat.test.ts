// CCM's manifests with packages compile as CCM means them: the complete manifest of its YAML
// manifests page resolves its package name through the hierarchy (apache2 on a Debian host, httpd
// elsewhere), and the README's httpd example, given the owner, group and mode CCM also requires
// of its file, is a package, a file and a service subscribed to it.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../../src/compiler/compile.js'
import * as Diagnostic from '../../../src/core/Diagnostic.js'

const compat = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'compat', 'ccm')
const debian = { host: { info: { platformFamily: 'debian' } } }
const resources = (name: string, facts: unknown, edit: (s: string) => string = (s) => s) => {
  const r = compile(name, edit(readFileSync(join(compat, name), 'utf8')), '/srv', { facts })
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right.resources
}

describe("CCM's package manifests", () => {
  it('yamlmanifests-complete.yaml resolves to apache2 at ensure latest for a Debian host, httpd elsewhere', () => {
    expect(resources('yamlmanifests-complete.yaml', debian)).toEqual([expect.objectContaining({ _tag: 'package', id: 'package#apache2', ensure: 'latest', provider: 'auto' })])
    expect(resources('yamlmanifests-complete.yaml', { host: { info: { platformFamily: 'rhel' } } }).map((r) => r.id)).toEqual(['package#httpd'])
  })

  it("readme-httpd-manifest.yaml, with its file's owner, group and mode, is apache2's package, file and subscribed service on Debian", () => {
    const withOwner = (s: string) => s.replace('            ensure: present\n            content: |', '            ensure: present\n            owner: root\n            group: root\n            mode: "0644"\n            content: |')
    expect(resources('readme-httpd-manifest.yaml', debian, withOwner).map((r) => r.id)).toEqual(['package#apache2', 'file#/etc/httpd/conf.d/listen.conf', 'service#apache2'])
  })
})
