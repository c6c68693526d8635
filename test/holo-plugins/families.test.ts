// The holo request and step families (src/interpreters/holoSteps) over the host's scripted double
// (src/interpreters/holo/memory.ts): a batch scans each plugin it needs once and diffs each entity
// once, a failing plugin fails only the resources that need it, and a step's outcome ("not
// changed", a --force message, a failure) reads as the executor needs it.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Fault from '../../src/core/Fault.js'
import * as Memory from '../../src/interpreters/holo/memory.js'
import * as Entity from '../../src/interpreters/holo/protocol/Entity.js'
import * as Outcome from '../../src/interpreters/holo/protocol/Outcome.js'
import * as Output from '../../src/interpreters/holo/protocol/Output.js'
import * as Family from '../../src/interpreters/holoSteps/family.js'
import * as Probes from '../../src/interpreters/holoSteps/probes.js'
import * as Steps from '../../src/interpreters/holoSteps/steps.js'
import type * as Observed from '../../src/types/holo/Observed.js'
import * as ObservedM from '../../src/types/holo/Observed.js'
import type * as Spec from '../../src/types/holo/Spec.js'
import * as Step from '../../src/types/holo/Step.js'

const entity = (plugin: string, id: string, over: Partial<Entity.Entity> = {}) => Entity.make({ plugin, id, actionVerb: 'Working on', actionReason: '', sources: [], info: [], ...over })
const modified: Memory.Script = {
  diff: () => E.right({ _tag: 'Files', from: '/var/lib/holo/greet/a', to: '/etc/a', fromFile: '/var/lib/holo/greet/a', toFile: '/etc/a', text: 'diff --holo /var/lib/holo/greet/a /etc/a\n-old\n+new\n', output: Output.empty }),
}

const host = (scanFault?: Fault.Fault) =>
  Memory.make([
    { id: 'greet', entities: [{ ...entity('greet', 'greeting:a'), script: modified }, entity('greet', 'greeting:b', { info: [{ key: 'state', value: 'up to date' }] })] },
    { id: 'files', entities: [entity('files', 'file:/etc/x', { actionVerb: 'Scrubbing', actionReason: 'target was deleted' })], ...(scanFault !== undefined ? { scanFault } : {}) },
    { id: 'idle', entities: [entity('idle', 'idle:z')] },
  ])

type Answer = E.Either<Fault.Fault, Observed.Observed>

describe('the holo request family', () => {
  it('answers a batch with one scan per plugin and one diff per entity taken, however many resources ask (an entity ID needs every plugin scanned)', async () => {
    const h = host()
    const answers = (await Probes.family(() => TE.right(h)).answer([
      { selector: { _tag: 'Plugin', plugin: 'greet' } },
      { selector: { _tag: 'Entity', id: 'greeting:a' } },
      { selector: { _tag: 'Plugin', plugin: 'greet' } },
    ])) as ReadonlyArray<Answer>
    expect(h.calls()).toEqual(['scan greet', 'scan files', 'scan idle', 'diff greeting:a', 'diff greeting:b'])
    expect(answers.every(E.isRight)).toBe(true)
    const first = answers[0] as E.Right<Observed.Observed>
    expect(first.right.plugins).toEqual(['greet', 'files', 'idle'])
    expect(first.right.entities.map((e) => [e.id, e.upToDate, e.local?._tag])).toEqual([
      ['greeting:a', false, 'Modified'],
      ['greeting:b', true, undefined],
    ])
  })

  it('scans only the plugin a plugin selector names', async () => {
    const h = host()
    await Probes.family(() => TE.right(h)).answer([{ selector: { _tag: 'Plugin', plugin: 'files' } }])
    expect(h.calls()).toEqual(['scan files', 'diff file:/etc/x'])
  })

  it("scans every configured plugin for '*', in configuration order", async () => {
    const h = host()
    const [all] = (await Probes.family(() => TE.right(h)).answer([{ selector: { _tag: 'All' } }])) as ReadonlyArray<Answer>
    expect(h.calls().filter((c) => c.startsWith('scan'))).toEqual(['scan greet', 'scan files', 'scan idle'])
    expect(E.isRight(all!) && all.right.entities.map((e) => e.id)).toEqual(['greeting:a', 'greeting:b', 'file:/etc/x', 'idle:z'])
  })

  it('fails only the resources that need a plugin whose scan fails', async () => {
    const fault = Fault.make('ProtocolViolation', 'holo', 'scan', 'files', 'printed garbage')
    const [greet, files, all] = (await Probes.family(() => TE.right(host(fault))).answer([
      { selector: { _tag: 'Plugin', plugin: 'greet' } },
      { selector: { _tag: 'Plugin', plugin: 'files' } },
      { selector: { _tag: 'All' } },
    ])) as ReadonlyArray<Answer>
    expect(E.isRight(greet!)).toBe(true)
    expect(files).toEqual(E.left(fault))
    expect(all).toEqual(E.left(fault))
  })

  it('answers an entity ID a plugin that scanned reports though another plugin\'s scan failed, and fails one only the failed plugin could report', async () => {
    const fault = Fault.make('ProtocolViolation', 'holo', 'scan', 'files', 'printed garbage')
    const [good, unknown] = (await Probes.family(() => TE.right(host(fault))).answer([
      { selector: { _tag: 'Entity', id: 'greeting:b' } },
      { selector: { _tag: 'Entity', id: 'file:/etc/x' } },
    ])) as ReadonlyArray<Answer>
    expect(E.isRight(good!) && good.right.entities.map((e) => [e.id, e.upToDate])).toEqual([['greeting:b', true]])
    expect(unknown).toEqual(E.left(fault))
  })

  it('fails only the resources that take an entity whose diff fails', async () => {
    const fault = Fault.make('Failed', 'holo', 'diff', 'greet greeting:a', 'plugin greet, entity greeting:a: diff failed: exit status 1')
    const h = Memory.make([
      { id: 'greet', entities: [{ ...entity('greet', 'greeting:a'), script: { diff: () => E.left(fault) } }, entity('greet', 'greeting:b')] },
      { id: 'idle', entities: [entity('idle', 'idle:z')] },
    ])
    const [a, b, idle, greet, all] = (await Probes.family(() => TE.right(h)).answer([
      { selector: { _tag: 'Entity', id: 'greeting:a' } },
      { selector: { _tag: 'Entity', id: 'greeting:b' } },
      { selector: { _tag: 'Plugin', plugin: 'idle' } },
      { selector: { _tag: 'Plugin', plugin: 'greet' } },
      { selector: { _tag: 'All' } },
    ])) as ReadonlyArray<Answer>
    expect(a).toEqual(E.left(fault))
    expect(E.isRight(b!) && b.right.entities.map((e) => e.id)).toEqual(['greeting:b'])
    expect(E.isRight(idle!) && idle.right.entities.map((e) => e.id)).toEqual(['idle:z'])
    expect(greet).toEqual(E.left(fault))
    expect(all).toEqual(E.left(fault))
    // the failing diff ran once for the batch
    expect(h.calls().filter((c) => c === 'diff greeting:a')).toHaveLength(1)
  })

  it('gives every request the same Left when the host cannot open', async () => {
    const fault = Fault.make('NotFound', 'holo', 'configure', '/etc/holorc', 'cannot read /etc/holorc')
    const answers = await Probes.family(() => TE.left(fault)).answer([{ selector: { _tag: 'All' } }, { selector: { _tag: 'Plugin', plugin: 'greet' } }])
    expect(answers).toEqual([E.left(fault), E.left(fault)])
  })

  /** The family as first written: each request copies every entity its plugins reported and filters them (the model of what it answers). */
  const model = async (h: ReturnType<typeof Memory.make>, requests: ReadonlyArray<{ selector: Spec.Selector }>): Promise<ReadonlyArray<Answer>> => {
    const configured = h.plugins.map((p) => p.id)
    const scans = new Map<string, Awaited<ReturnType<ReturnType<typeof h.scan>>>>()
    for (const p of h.plugins) scans.set(p.id, await h.scan(p)())
    const out: Answer[] = []
    for (const r of requests) {
      const reported: Entity.Entity[] = []
      let fault: Fault.Fault | undefined
      for (const p of ObservedM.pluginsFor(r.selector, configured)) {
        const s = scans.get(p)!
        if (E.isLeft(s)) fault ??= s.left
        else reported.push(...s.right.entities)
      }
      if (fault !== undefined && r.selector._tag === 'Entity' && ObservedM.select(r.selector, reported).length > 0) fault = undefined
      const found: Observed.Found[] = []
      for (const e of fault === undefined ? ObservedM.select(r.selector, reported) : []) {
        const d = await h.diff(e)()
        if (E.isLeft(d)) {
          fault = d.left
          break
        }
        found.push(ObservedM.found(e, Probes.diffSeen(d.right)))
      }
      out.push(fault !== undefined ? E.left(fault) : E.right({ plugins: configured, entities: found }))
    }
    return out
  }

  const ids = fc.constantFrom('a', 'b', 'c')
  const plugins = fc.uniqueArray(
    fc.record({
      id: fc.constantFrom('p', 'q', 'r'),
      entities: fc.uniqueArray(fc.record({ id: ids, diffFails: fc.boolean() }), { selector: (e) => e.id, maxLength: 4 }),
      scanFails: fc.boolean(),
    }),
    { selector: (p) => p.id, maxLength: 3 },
  )
  const selectors = fc.array(
    fc.oneof(
      ids.map((id): Spec.Selector => ({ _tag: 'Entity', id })),
      fc.constantFrom('p', 'q', 'r', 's').map((plugin): Spec.Selector => ({ _tag: 'Plugin', plugin })),
      fc.constant<Spec.Selector>({ _tag: 'All' }),
    ),
    { maxLength: 8 },
  )

  test.prop([plugins, selectors], { numRuns: 500 })('answers each request what filtering every entity its plugins reported answers, faults included', async (ps, sels) => {
    const script = (): Memory.PluginScript[] =>
      ps.map((p) => ({
        id: p.id,
        entities: p.entities.map((e) => ({
          ...entity(p.id, `${p.id === 'r' ? 'p' : p.id}:${e.id}`),
          ...(e.diffFails ? { script: { diff: () => E.left(Fault.make('Failed', 'holo', 'diff', `${p.id} ${e.id}`, 'diff failed')) } } : { script: modified }),
        })),
        ...(p.scanFails ? { scanFault: Fault.make('ProtocolViolation', 'holo', 'scan', p.id, 'printed garbage') } : {}),
      }))
    // entity IDs are p:… and q:…; plugin r reports IDs of p's form, so one ID can come from two plugins
    const requests = sels.map((selector) => ({ selector: selector._tag === 'Entity' ? { _tag: 'Entity' as const, id: `p:${selector.id}` } : selector }))
    const answers = await Probes.family(() => TE.right(Memory.make(script()))).answer(requests)
    expect(answers).toEqual(await model(Memory.make(script()), requests))
  })

})

describe('the plugin timeout of the holo families', () => {
  it('is --plugin-timeout in milliseconds, and 300 s, as for Bolt plugins, when none or no positive number is given', () => {
    expect(Family.timeoutMsOf({ timeoutSeconds: 2 })).toBe(2000)
    expect(Family.timeoutMsOf({ timeoutSeconds: 0.5 })).toBe(500)
    expect(Family.timeoutMsOf(undefined)).toBe(300_000)
    expect(Family.timeoutMsOf({ force: true })).toBe(300_000)
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(Family.timeoutMsOf({ timeoutSeconds: bad })).toBe(300_000)
  })
})

describe('the holo step family', () => {
  const step = (id: string, plugin = 'greet') => Step.make({ plugin, id, verb: 'Working on', reason: '' })
  const run = async (h: ReturnType<typeof Memory.make>, s: Step.HoloApply, force = false) => {
    const output: string[] = []
    const r = await Steps.family(() => ({ open: () => TE.right(h), force })).run(s, { id: 'holo#x', now: undefined, output })
    return { r, output }
  }

  it('applies a scanned entity, and marks a "not changed" answer as unchanged for the report', async () => {
    const h = host()
    expect((await run(h, step('greeting:b'))).r).toEqual(E.right(undefined))
    expect((await run(h, step('greeting:b'))).r).toEqual(E.right(Steps.unchanged))
    expect(h.calls()).toEqual(['scan greet', 'apply greeting:b', 'scan greet', 'apply greeting:b'])
  })

  it('runs force-apply when the run forces', async () => {
    const h = host()
    await run(h, step('greeting:b'), true)
    expect(h.calls()).toContain('force-apply greeting:b')
  })

  it('fails an entity that needs --force with its diff in the output', async () => {
    const h = Memory.make([{ id: 'greet', entities: [{ ...entity('greet', 'greeting:a'), script: { ...modified, apply: () => E.right({ outcome: Outcome.overwrite, output: Output.empty }) } }] }])
    const { r, output } = await run(h, step('greeting:a'))
    expect(E.isLeft(r) && r.left.description).toBe('greeting:a was modified locally since it was last applied; plait apply --force overwrites it')
    expect(output).toEqual(['diff --holo /var/lib/holo/greet/a /etc/a', '-old', '+new'])
  })

  it('fails with the words of the plugin\'s exit, keeping what it printed', async () => {
    const h = Memory.make([{ id: 'greet', entities: [{ ...entity('greet', 'greeting:a'), script: { apply: () => E.right({ outcome: Outcome.failed({ code: 3 }), output: Output.make([{ fd: 2, text: 'cannot do it\n' }]) }) } }] }])
    const { r, output } = await run(h, step('greeting:a'))
    expect(E.isLeft(r) && r.left.description).toBe('greet could not apply greeting:a: exit status 3')
    expect(output).toEqual(['cannot do it'])
  })

  it('fails a step whose entity its plugin no longer reports, and refuses one no scan could report without running anything', async () => {
    const h = host()
    expect(E.isLeft((await run(h, step('greeting:gone'))).r)).toBe(true)
    const bad = await run(h, { ...step('greeting:a'), plugin: 'Not/A/Plugin' })
    expect(E.isLeft(bad.r) && bad.r.left._tag).toBe('ProtocolViolation')
    expect(h.calls()).toEqual(['scan greet'])
  })
})
