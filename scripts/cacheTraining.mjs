// cacheTraining: the run whose compiled code becomes the bundle's code cache (scripts/bundle.mjs).
// V8 caches what a run compiled, and a start that needs a function the run did not compile parses
// and compiles it on the spot. So the run is an apply of a manifest that goes the ways people's
// manifests and machines go: block maps and one-line flow maps and lists, defaults, quoted and
// literal contents, templates, a source file, a data hierarchy that reads the machine's facts (CCM's
// way of varying data by host: without it in the cache, gathering facts compiled some 70 KB of
// code at every such plan, about 17 ms; the cache is 10% larger for it, some 0.8 ms of every start);
// files unchanged (their directory listed), changed
// (a diff), created, removed and already absent, a directory made. An apply plans first, so the
// cache holds the plan path and the executor's (journal, steps, generations, verification). A plan
// of the same manifest makes `plait plan`'s own cache: the plan path without the executor, which V8
// would otherwise deserialize at every plan's start for nothing (src/cli/launcher.ts).
//
// Owner and group are the builder's numeric ids (effective: what files are made with), so the apply
// needs no privilege. The apply runs in the training's directory (bundle.mjs).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Writes the manifest, its source file and the machine it is applied to below `dir`; gives the
 * command line of the apply, or of the plan (`command`: plan's own cache, see src/cli/launcher.ts).
 */
export const prepare = (dir, command = 'apply') => {
  const uid = process.geteuid?.() ?? 0
  const gid = process.getegid?.() ?? 0
  const root = join(dir, 'root')
  const app = join(root, 'etc', 'app')
  mkdirSync(app, { recursive: true })
  mkdirSync(join(dir, 'files'))
  writeFileSync(join(dir, 'files', 'motd.txt'), 'hello\n')
  const existing = { 'same.conf': 'same\n', 'one.conf': 'one\n', 'two.conf': 'two', 'changed.conf': 'old\n', 'old.conf': 'x\n' }
  for (const [name, text] of Object.entries(existing)) writeFileSync(join(app, name), text)
  chmodSync(app, 0o755)
  chmodSync(join(app, 'two.conf'), 0o600)
  for (const name of ['same.conf', 'one.conf', 'changed.conf', 'old.conf']) chmodSync(join(app, name), 0o644)
  const manifest = join(dir, 'manifest.yaml')
  writeFileSync(
    manifest,
    `# plait's code cache training run (scripts/cacheTraining.mjs)
data:
  app: hello
  port: 8080
hierarchy:
  order:
    - os:\${ lookup('facts.host.info.platformFamily') }
overrides:
  os:debian:
    port: 8081
ccm:
  resources:
    - file:
        - defaults: {owner: "${uid}", group: "${gid}", mode: "0644"}
        - /etc/app:
            ensure: directory
            mode: "0755"
        - /etc/app/same.conf:
            content: "same\\n"
        - /etc/app/one.conf: {content: "one\\n"}
        - /etc/app/two.conf: {content: 'two', mode: '0600'}
        - /etc/app/changed.conf: {content: "new\\n"}
        - /etc/app/new.conf:
            content: |
              name = {{ lookup('data.app') }}
              port = \${ Data.port }
        - /etc/app/motd:
            source: files/motd.txt
        - /etc/app/old.conf: {ensure: absent}
        - /etc/app/gone.conf:
            ensure: absent
    - file: [{defaults: {owner: "${uid}", group: "${gid}", mode: "0755"}}, {/etc/app/sub: {ensure: directory}}]
`,
  )
  // --state-dir is a machine path, below the root; --no-prepare: a Bolt project around the build's
  // directory is not the training's, and its puppet_library hook is not run (a plan runs none)
  return command === 'plan'
    ? ['plan', manifest, '--root', root, '--state-dir', '/var/lib/plait']
    : ['apply', manifest, '--root', root, '--state-dir', '/var/lib/plait', '--no-prepare']
}
