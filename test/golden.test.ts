// The golden corpus: each plans/<case>/ holds a manifest, the initial machine (machine.yaml) and the
// expected plan as text (expected.txt) and JSON (expected.json), checked byte for byte; bad cases
// hold the expected diagnostics in expected.txt. `UPDATE_PLANS=1 npm test` rewrites them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Render from '../src/cli/render.js'
import * as Compile from '../src/compiler/compile.js'
import * as Planner from '../src/compiler/plan.js'
import * as Diagnostic from '../src/core/Diagnostic.js'
import { observe } from '../src/observe/observe.js'
import * as MemoryRunner from '../src/interpreters/commands/memory.js'
import * as Discover from '../src/interpreters/libral/discover.js'
import * as Session from '../src/interpreters/libral/Session.js'
import type * as Registry from '../src/interpreters/libral/protocol/Registry.js'
import * as MachineFile from '../src/interpreters/memory/machineFile.js'
import * as Memory from '../src/interpreters/memory/memory.js'
import * as PlanFile from '../src/planfile/PlanFile.js'
import * as Types from '../src/types/registry.js'
import { fileReader, readHost } from '../src/cli/pipeline.js'
import * as Value from '../src/manifest/expr/Value.js'

const top = join(dirname(fileURLToPath(import.meta.url)), '..')
const plans = join(top, 'plans')
const update = process.env['UPDATE_PLANS'] === '1'
const schema = JSON.parse(readFileSync(join(top, 'docs', 'schema', 'plan.schema.json'), 'utf8')) as object
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)

const cases = readdirSync(plans).filter((d) => existsSync(join(plans, d, 'machine.yaml'))).sort()

/**
 * Plans a case the way `plait plan manifest.yaml` run in its directory would, on the memory
 * machine. A case's libral resources are managed by plait's own providers (lib/libral/, named by
 * their path from the repository, so plans do not depend on where it is checked out), with the
 * case's root/ directory as their PLAIT_ROOT_DIR.
 */
const planCase = async (dir: string): Promise<{ text: string; json?: string }> => {
  const machineText = readFileSync(join(dir, 'machine.yaml'), 'utf8')
  const snapshot = MachineFile.parse(machineText)
  if (E.isLeft(snapshot)) throw new Error(`machine.yaml: ${snapshot.left}`)
  const machine = Memory.make(snapshot.right)
  const text = readFileSync(join(dir, 'manifest.yaml'), 'utf8')
  const tree = Compile.parse('manifest.yaml', text)
  if (E.isLeft(tree)) return { text: Render.diagnostics(tree.left) }
  const session = Session.make({ root: join(dir, 'root'), hostEnv: { PATH: process.env['PATH'] } })
  let libral: Registry.Registry<Discover.Provider> | undefined
  if (Compile.usesProviders(tree.right)) {
    const found = await Discover.discover(session.context, [{ dir: join(top, 'lib', 'libral'), explicit: true }])
    if (found.problems.length > 0) throw new Error(found.problems.map(Diagnostic.render).join('\n'))
    libral = found.registry
  }
  const catalog = Compile.compileTree('manifest.yaml', text, tree.right, dir, {
    readFile: fileReader(dir),
    now: Value.time('2026-11-23T12:00:00Z')!,
    ...(libral !== undefined ? { plugins: [Types.libralPlugin(libral)] } : {}),
  })
  if (E.isLeft(catalog)) return { text: Render.diagnostics(catalog.left) }
  const runner = MemoryRunner.make((line) => (line === '/bin/true' ? { exit: 0 } : line === '/bin/false' ? { exit: 1 } : undefined))
  const observed = await observe(catalog.right, machine, readHost, session, runner)
  if (E.isLeft(observed)) return { text: Render.diagnostics(observed.left) }
  const body = Planner.plan(catalog.right, observed.right, { version: 'golden', root: machine.root })
  if (E.isLeft(body)) return { text: Render.diagnostics(body.left) }
  const providers = body.right.inputs.providers?.map((p) => ({ ...p, path: relative(top, p.path) }))
  const plan = PlanFile.seal(providers === undefined ? body.right : { ...body.right, inputs: { ...body.right.inputs, providers } })
  return { text: Render.plan(plan), json: PlanFile.serialize(plan) }
}

describe('golden plans', () => {
  it('has at least five good cases and some bad ones', () => {
    expect(cases.filter((c) => !c.startsWith('bad-')).length).toBeGreaterThanOrEqual(5)
    expect(cases.filter((c) => c.startsWith('bad-')).length).toBeGreaterThanOrEqual(1)
  })

  it.each(cases)('%s', async (name) => {
    const dir = join(plans, name)
    const got = await planCase(dir)
    const textFile = join(dir, 'expected.txt')
    const jsonFile = join(dir, 'expected.json')
    if (update) {
      writeFileSync(textFile, got.text)
      if (got.json !== undefined) writeFileSync(jsonFile, got.json)
    }
    expect(got.text).toBe(readFileSync(textFile, 'utf8'))
    if (name.startsWith('bad-')) {
      expect(got.json, 'a bad case must not plan').toBeUndefined()
      expect(got.text).toMatch(/^error: /)
      return
    }
    expect(got.json, `a good case must plan:\n${got.text}`).toBeDefined()
    expect(got.json).toBe(readFileSync(jsonFile, 'utf8'))
    const ok = validate(JSON.parse(got.json!))
    expect(validate.errors ?? [], 'plan.json matches docs/schema/plan.schema.json').toEqual([])
    expect(ok).toBe(true)
  })
})
