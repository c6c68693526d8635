// End to end through the pipeline: a manifest whose data takes a value from plait's env_var plugin
// (run for real, found through resolversFor) compiles to a file whose content is that value, and a
// hiera document's reference is resolved the same way. The machine is the memory double: compile
// never touches it; the plugin runs as a real process under a temp project directory.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileManifest, quietSession } from '../../../src/cli/pipeline.js'
import * as Resolvers from '../../../src/interpreters/bolt/resolvers.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import { files } from '../../support/catalog.js'

let dir: string
beforeAll(async () => {
  dir = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-bolt-pipeline-'))
})
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const manifest = `data:
  motd:
    _plugin: env_var
    var: PLAIT_TEST_MOTD
ccm:
  resources:
    - file:
        - /etc/motd:
            owner: root
            group: root
            mode: "0644"
            content: "{{ lookup('data.motd') }}"
`

describe('Bolt reference plugins in the pipeline', () => {
  it("compiles a file whose content came from env_var, and a hiera document's reference", async () => {
    const path = nodePath.join(dir, 'site.yaml')
    await fs.writeFile(path, manifest)
    const hiera = nodePath.join(dir, 'hiera.yaml')
    await fs.writeFile(hiera, 'data:\n  motd:\n    _plugin: yaml\n    filepath: motd.yaml\n')
    await fs.writeFile(nodePath.join(dir, 'motd.yaml'), 'from hiera\n')
    const resolvers = await Resolvers.resolversFor({ projectDir: dir, env: { ...process.env, PLAIT_TEST_MOTD: 'hello from the environment' } })
    if (E.isLeft(resolvers)) throw new Error(resolvers.left)
    const machine = Memory.make()
    const table = resolvers.right
    const providers = { providerPath: [], session: quietSession('/'), references: async () => E.right(table) }
    const warnings: unknown[] = []
    const catalog = await compileManifest(path, machine, { assignments: [] }, providers, (ds) => warnings.push(...ds), true)
    if (E.isLeft(catalog)) throw new Error(catalog.left.map((d) => d.message).join('\n'))
    expect(files(catalog.right).map((f) => [f.path, (f.content as { text?: string } | undefined)?.text])).toEqual([['/etc/motd', 'hello from the environment']])
    const withHiera = await compileManifest(path, machine, { assignments: [], hiera }, providers, () => undefined, true)
    if (E.isLeft(withHiera)) throw new Error(withHiera.left.map((d) => d.message).join('\n'))
    expect(files(withHiera.right).map((f) => (f.content as { text?: string } | undefined)?.text)).toEqual(['from hiera'])
  })

  it('stops the compile with the plugin error at the reference', async () => {
    const path = nodePath.join(dir, 'unset.yaml')
    await fs.writeFile(path, manifest)
    const resolvers = await Resolvers.resolversFor({ projectDir: dir, env: { PATH: process.env['PATH'] ?? '' } })
    if (E.isLeft(resolvers)) throw new Error(resolvers.left)
    const table = resolvers.right
    const catalog = await compileManifest(path, Memory.make(), { assignments: [] }, { providerPath: [], session: quietSession('/'), references: async () => E.right(table) }, () => undefined, true)
    expect(E.isLeft(catalog) && catalog.left.map((d) => `${d.at?.line}:${d.at?.col} ${d.message}`)).toEqual([
      expect.stringMatching(/^3:5 _plugin: "env_var": resolve_reference env_var: Error executing plugin env_var from resolve_reference in env_var: env_var plugin requires that the var 'PLAIT_TEST_MOTD' be set$/),
    ])
  })
})
