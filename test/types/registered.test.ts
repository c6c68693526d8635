// A resource type that only this test registers (`greeting`: a file at its name holding "Hello,
// TEXT!"), planned, saved, applied and verified through the unchanged pipeline: compile, observe,
// plan, the plan file, the staleness check, the executor's turn, the step interpreter of its
// steps (the file family: a type need not bring an interpreter of its own), and verification.
// It is the worked example of docs/design.md, "Adding a resource type".
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describe, expect, it } from 'vitest'
import * as Render from '../../src/cli/render.js'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Digest from '../../src/core/Digest.js'
import * as Fault from '../../src/core/Fault.js'
import * as Obs from '../../src/core/Observation.js'
import * as Plan from '../../src/core/Plan.js'
import type { Probe } from '../../src/core/Probe.js'
import * as ResourceId from '../../src/core/ResourceId.js'
import { FileWrite } from '../../src/types/file/Step.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import { renderString } from '../../src/manifest/Manifest.js'
import { observe } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import * as Registry from '../../src/types/registry.js'
import * as ResourceRender from '../../src/types/Render.js'
import type { ResourceType, Spec } from '../../src/types/ResourceType.js'
import { apply, hostFiles, stateDir } from '../support/run.js'

// the type: its compiled resource, its plan, and the value the registry takes

interface GreetingSpec extends Spec {
  readonly _tag: 'greeting'
  readonly path: string
  readonly text: string
}

const GreetingPlan = t.intersection([t.type({ kind: t.literal('greeting'), ...Plan.head, desired: t.type({ sha256: t.string }), steps: t.array(FileWrite) }), Plan.Links])
type GreetingPlan = t.TypeOf<typeof GreetingPlan>

/** What was found at the path: the sha256 of a regular file, or nothing. */
type Found = { readonly sha256: string | undefined }

const bodyOf = (text: string): string => `Hello, ${text}!\n`
const root = { name: 'root', id: 0 }
const summaryOf = (f: Found): string => (f.sha256 === undefined ? 'no greeting' : `a file with sha256 ${f.sha256.slice(0, 12)}`)
const found = (p: E.Either<Fault.Fault, Probe>): Found => ({ sha256: E.isRight(p) && p.right._tag === 'File' ? p.right.probe.sha256 : undefined })

const greeting: ResourceType<GreetingSpec, Found, GreetingPlan> = {
  kind: 'greeting',
  codec: GreetingPlan,
  keys: ['text'],
  decode: (raw, env) => {
    const problems: Diagnostic.Diagnostic[] = []
    const id = ResourceId.make(raw.type, raw.name)
    const text = raw.props.find((p) => p.key === 'text')
    for (const p of raw.props) if (p.key !== 'text') problems.push(Diagnostic.make('UnknownKey', `unknown property "${p.key}"`, { at: p.keyAt, resource: id }))
    const value = text === undefined ? undefined : renderString(text.value, env.scope, problems)
    if (value === undefined && text === undefined) problems.push(Diagnostic.make('Validation', 'text is required', { at: raw.nameAt, resource: id }))
    return problems.length > 0 || value === undefined ? E.left(problems) : E.right({ _tag: 'greeting', id, at: raw.nameAt, path: raw.name, text: value })
  },
  observe: (spec) => Obs.map((p: E.Either<Fault.Fault, Probe>) => E.right(found(p)))(Obs.probe(spec.path)),
  planner: () => (spec, f) => {
    const data = bodyOf(spec.text)
    const sha256 = Digest.sha256(data)
    const steps =
      f.sha256 === sha256
        ? []
        : [{ _tag: 'file.write' as const, path: spec.path, content: { encoding: 'utf8' as const, data, sha256, size: data.length }, owner: root, group: root, mode: '0644', reason: 'the greeting is not there', noop: 'Would have greeted' }]
    return E.right({
      kind: 'greeting',
      id: spec.id,
      type: 'greeting',
      name: spec.path,
      at: `${spec.at.file}:${spec.at.line}:${spec.at.col}`,
      action: steps.length === 0 ? 'none' : f.sha256 === undefined ? 'create' : 'update',
      desired: { sha256 },
      observed: { summary: summaryOf(f), digest: f.sha256 ?? 'absent' },
      steps,
    })
  },
  pending: () => undefined,
  mayChange: (r) => r.steps.length > 0,
  needs: () => [],
  check: (r) =>
    Obs.map((p: E.Either<Fault.Fault, Probe>) => {
      const now = found(p)
      return (now.sha256 ?? 'absent') === r.observed.digest ? {} : { drift: `was ${r.observed.summary}, now ${summaryOf(now)}` }
    })(Obs.probe(r.name)),
  turn: (r) => Obs.done(E.right({ steps: r.steps, expected: r, notes: [] })),
  verify: (r) => Obs.map((p: E.Either<Fault.Fault, Probe>) => (found(p).sha256 === r.desired.sha256 ? [] : ['the greeting is not there']))(Obs.probe(r.name)),
  render: (r, options) => ResourceRender.changes(r, (s) => [ResourceRender.stepHead(s)], options.verbose),
  show: (r) => `text=${JSON.stringify(r.text)}`,
}

Registry.register(greeting)

// the pipeline, unchanged

const manifest = `
ccm:
  resources:
    - file:
        - /srv:
            ensure: directory
            owner: root
            group: root
            mode: "0755"
    - greeting:
        - /srv/hello:
            text: "{{ Facts.who }}"
`

const machine = () => {
  const s = Snapshot.make({})
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right)
}

const planOf = async (m: Memory.MemoryMachine) => {
  const catalog = compile('m.yaml', manifest, '/', { facts: { who: 'world' } })
  if (E.isLeft(catalog)) throw new Error(catalog.left.map(Diagnostic.render).join('\n'))
  const obs = await observe(catalog.right, m, hostFiles({}))
  if (E.isLeft(obs)) throw new Error(obs.left.map(Diagnostic.render).join('\n'))
  const body = Planner.plan(catalog.right, obs.right, { version: 'test', root: m.root })
  if (E.isLeft(body)) throw new Error(body.left.map(Diagnostic.render).join('\n'))
  return PlanFile.seal(body.right)
}

describe('a resource type registered by the test suite', () => {
  it('is planned, saved, read back, applied and verified like any other, and then converges', async () => {
    const m = machine()
    const plan = await planOf(m)
    expect(plan.resources.map((r) => [r.kind, r.id, r.action])).toEqual([
      ['file', 'file#/srv', 'create'],
      ['greeting', 'greeting#/srv/hello', 'create'],
    ])
    expect(Render.plan(plan)).toContain('+ greeting#/srv/hello\n    was: no greeting\n    file.write: the greeting is not there')
    const read = PlanFile.parse('plan.json', PlanFile.serialize(plan))
    expect(E.isRight(read) && read.right.hash).toBe(plan.hash)
    const r = await apply(m, plan)
    expect(E.isRight(r) && r.right.resources.map((x) => [x.id, x.outcome])).toEqual([
      ['file#/srv', 'changed'],
      ['greeting#/srv/hello', 'changed'],
    ])
    expect(Snapshot.text(m.snapshot(), '/srv/hello')).toBe('Hello, world!\n')
    const again = await planOf(m)
    expect(Registry.isEmpty(again)).toBe(true)
  })

  it('is refused as stale when its path changed after the plan was made, and is checked after its step', async () => {
    const m = machine()
    await apply(m, await planOf(m))
    const plan = await planOf(m)
    expect(plan.resources.map((r) => r.action)).toEqual(['none', 'none'])
    await m.writeFileAtomic('/srv/hello', new TextEncoder().encode('Goodbye!\n'), { uid: 0, gid: 0, mode: 0o644 }, '.hello.tmp')()
    const stale = await apply(m, plan)
    expect(E.isLeft(stale) && stale.left.map((d) => [d.resource, d.message])).toEqual([
      ['greeting#/srv/hello', expect.stringMatching(/^was a file with sha256 \w{12}, now a file with sha256 \w{12}$/)],
      [undefined, 'refusing a stale plan: 1 resource changed since it was made'],
    ])
    expect(Snapshot.text(m.snapshot(), '/srv/hello')).toBe('Goodbye!\n')
    // A step that does not reach the desired state fails verification and is rolled back.
    const fresh = await planOf(m)
    const wrong = PlanFile.seal({
      ...fresh,
      resources: fresh.resources.map((r) => (r.kind === 'greeting' ? { ...(r as GreetingPlan), desired: { sha256: '0'.repeat(64) } } : r)),
    })
    const r = await apply(m, wrong)
    expect(E.isRight(r) && r.right.resources.find((x) => x.id === 'greeting#/srv/hello')).toMatchObject({ outcome: 'failed', messages: [expect.stringMatching(/did not reach the desired state: the greeting is not there/), 'rolled back to how it was'] })
    expect(Snapshot.text(m.snapshot(), '/srv/hello')).toBe('Goodbye!\n')
    expect(m.snapshot().files[stateDir + '/journal']).toBeUndefined()
  })

  it('is refused when registered twice', () => {
    expect(() => Registry.register(greeting)).toThrow(/already registered/)
  })
})
