// The holo type's pure parts: selectors, what a diff says of local changes, the plan from the
// plugins' scans (laws: a converged scan plans nothing, one step per entity that is not, in
// order), the staleness digest, the plan codec and the steps' lines in a review.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Holo from '../../../src/types/holo/index.js'
import * as Observed from '../../../src/types/holo/Observed.js'
import * as HoloPlan from '../../../src/types/holo/plan.js'
import { HoloResourcePlan } from '../../../src/types/holo/ResourcePlan.js'
import * as Spec from '../../../src/types/holo/Spec.js'
import * as Step from '../../../src/types/holo/Step.js'

const at = { file: 'm.yaml', line: 3, col: 7 }
const spec = (name: string): Spec.HoloSpec => ({ _tag: 'holo', id: `holo#${name}`, name, at, selector: E.getOrElseW(() => ({ _tag: 'All' as const }))(Spec.selectorOf(name)) })
const entity = (over: Partial<Observed.Found> = {}): Observed.Found => ({ plugin: 'settings', id: 'settings:/etc/app.conf', verb: 'Working on', reason: '', upToDate: false, ...over })

const arbFound: fc.Arbitrary<Observed.Found> = fc.record({
  plugin: fc.constantFrom('files', 'settings', 'oneshot'),
  id: fc.stringMatching(/^[a-z]{1,6}:[a-z/.]{1,10}$/),
  verb: fc.constantFrom('Working on', 'Applying', 'Running'),
  reason: fc.constantFrom('', 'never ran', 'settings changed'),
  upToDate: fc.boolean(),
  local: fc.option(fc.record({ _tag: fc.constantFrom('Modified' as const, 'Deleted' as const), diff: fc.string() }), { nil: undefined }),
}).map((r) => (r.local === undefined ? { ...r, local: undefined } : r))
const arbObserved: fc.Arbitrary<Observed.Observed> = fc.array(arbFound, { maxLength: 8 }).map((entities) => ({ plugins: ['files', 'settings', 'oneshot'], entities: entities.map((e) => (e.local === undefined ? (({ local: _l, ...rest }) => rest)(e) : e)) }))

describe('selectors', () => {
  it.each([
    ['*', { _tag: 'All' }],
    ['settings', { _tag: 'Plugin', plugin: 'settings' }],
    ['file:/etc/foo.conf', { _tag: 'Entity', id: 'file:/etc/foo.conf' }],
    ['oneshot:10-motd', { _tag: 'Entity', id: 'oneshot:10-motd' }],
  ])('reads %j as a selector', (name, selector) => {
    expect(Spec.selectorOf(name)).toEqual(E.right(selector))
  })

  it.each([
    ['', /empty/],
    ['/etc/foo.conf', /is not a Holo entity ID/],
    ['Files', /neither a plugin ID nor an entity ID/],
    ['file:/etc/a\nENTITY: x', /control characters/],
    ['-x:y', /not a Holo entity ID/],
  ])('refuses %j with a message that says why', (name, message) => {
    const r = Spec.selectorOf(name)
    expect(E.isLeft(r) && r.left).toMatch(message)
  })

  fcTest.prop([fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/)])('every plugin ID selects that plugin', (id) => {
    expect(Spec.selectorOf(id)).toEqual(E.right({ _tag: 'Plugin', plugin: id }))
  })

  it('refuses properties: what an entity should be is in its plugin\'s resources', () => {
    const r = Spec.decode({ type: 'holo', name: 'settings', nameAt: at, props: [{ key: 'ensure', keyAt: { ...at, line: 4 }, value: { _tag: 'Scalar', value: 'present', at } as never }] })
    expect(E.isLeft(r) && r.left.map((d) => [d.code, d.message])).toEqual([['UnknownKey', 'unknown property "ensure" for a holo resource']])
  })
})

describe('local changes from a diff', () => {
  it('is none without a diff, with equal files, or when the entity was never applied', () => {
    expect(Observed.localOf({ _tag: 'None' })).toBeUndefined()
    expect(Observed.localOf({ _tag: 'Files', fromMissing: false, toMissing: false, text: '' })).toBeUndefined()
    expect(Observed.localOf({ _tag: 'Files', fromMissing: true, toMissing: false, text: 'diff --holo /dev/null /etc/a\n+x\n' })).toBeUndefined()
  })

  it('is Modified when the current state differs from what was applied, Deleted when it is gone', () => {
    expect(Observed.localOf({ _tag: 'Files', fromMissing: false, toMissing: false, text: '-a\n+b\n' })).toEqual({ _tag: 'Modified', diff: '-a\n+b\n' })
    expect(Observed.localOf({ _tag: 'Files', fromMissing: false, toMissing: true, text: '-a\n' })).toEqual({ _tag: 'Deleted', diff: '-a\n' })
  })

  it('takes an entity as up to date only without an ACTION line and with `state: up to date`', () => {
    const report = { plugin: 'p', id: 'p:x', actionVerb: 'Working on', actionReason: '', sources: [], info: [{ key: 'state', value: 'up to date' }] }
    expect(Observed.found(report, { _tag: 'None' }).upToDate).toBe(true)
    expect(Observed.found({ ...report, actionVerb: 'Running', actionReason: 'never ran' }, { _tag: 'None' }).upToDate).toBe(false)
    expect(Observed.found({ ...report, info: [{ key: 'state', value: 'pending' }] }, { _tag: 'None' }).upToDate).toBe(false)
  })
})

describe('the plan', () => {
  fcTest.prop([arbObserved])('a converged scan plans nothing', (o) => {
    const converged = { ...o, entities: o.entities.map((e) => (({ local: _l, ...rest }) => ({ ...rest, upToDate: true }))(e)) }
    const r = HoloPlan.plan(spec('*'), converged)
    expect(E.isRight(r) && r.right.steps).toEqual([])
    expect(E.isRight(r) && r.right.action).toBe('none')
  })

  fcTest.prop([arbObserved])('plans one holo.apply per entity that is not converged, in scan order, each naming its plugin and entity', (o) => {
    const r = HoloPlan.plan(spec('*'), o)
    const expected = o.entities.filter((e) => !Observed.converged(e)).map((e) => [e.plugin, e.id])
    expect(E.isRight(r) && r.right.steps.map((s) => [s.plugin, s.entity])).toEqual(expected)
    expect(E.isRight(r) && r.right.action).toBe(expected.length === 0 ? 'none' : 'update')
  })

  fcTest.prop([arbObserved])('every plan it makes is one the plan codec reads back unchanged', (o) => {
    const r = HoloPlan.plan(spec('*'), o)
    expect(E.isRight(r)).toBe(true)
    if (E.isRight(r)) expect(HoloResourcePlan.decode(JSON.parse(JSON.stringify(r.right)))).toEqual(E.right(r.right))
  })

  fcTest.prop([arbObserved, fc.constantFrom('files', 'settings', 'oneshot')])('a plugin selector takes exactly that plugin\'s entities', (o, plugin) => {
    const r = HoloPlan.plan(spec(plugin), o)
    expect(E.isRight(r) && r.right.steps.every((s) => s.plugin === plugin)).toBe(true)
  })

  it('shows the ACTION verb and reason of the scan', () => {
    const r = HoloPlan.plan(spec('oneshot'), { plugins: ['oneshot'], entities: [entity({ plugin: 'oneshot', id: 'oneshot:10-motd', verb: 'Running', reason: 'never ran' })] })
    expect(E.isRight(r) && r.right.steps).toEqual([{ _tag: 'holo.apply', plugin: 'oneshot', entity: 'oneshot:10-motd', verb: 'Running', action: 'never ran', reason: 'never ran', noop: 'Would have applied oneshot:10-motd with the Holo plugin oneshot' }])
  })

  it('says that an entity changed locally needs --force, and keeps its diff', () => {
    const r = HoloPlan.plan(spec('settings:/etc/app.conf'), { plugins: ['settings'], entities: [entity({ upToDate: true, local: { _tag: 'Modified', diff: '-port=80\n+port=81\n' } })] })
    const step = E.isRight(r) ? r.right.steps[0] : undefined
    expect(step?.local).toEqual({ kind: 'modified', diff: '-port=80\n+port=81\n' })
    expect(step?.reason).toBe('modified locally since it was last applied; only plait apply --force overwrites it')
  })

  it('refuses an entity no plugin reports and a plugin that is not configured, naming what is configured', () => {
    const o = { plugins: ['files'], entities: [entity({ plugin: 'files', id: 'file:/etc/a' })] }
    expect(HoloPlan.plan(spec('file:/etc/b'), o)).toEqual(E.left('no configured Holo plugin reports the entity file:/etc/b (configured: files)'))
    expect(HoloPlan.plan(spec('settings'), o)).toEqual(E.left('the Holo plugin settings is not configured in etc/holorc or etc/holorc.d (configured: files)'))
  })

  it.each([
    ['/usr/share/holo/settings/10-app/etc/app.conf', true],
    ['/etc/holorc', true],
    ['/etc/holorc.d/50-plait', true],
    ['/var/lib/holo/oneshot/a.sha256', true],
    ['/usr/share/holo', true],
    ['/usr/share/holochain/x', false],
    ['/etc/holorc.bak', false],
    ['/etc/app.conf', false],
  ])('takes %s as feeding the plugins: %s', (path, feeds) => {
    expect(HoloPlan.feedsHolo(path)).toBe(feeds)
  })

  fcTest.prop([arbObserved, fc.array(fc.constantFrom('file#/usr/share/holo/a', 'file#/etc/holorc'), { minLength: 1, maxLength: 2 })])(
    'a resource fed by earlier ones may change (it is scanned again at its turn), whatever its scan says now',
    (o, rescan) => {
      const r = HoloPlan.plan(spec('*'), o, rescan)
      expect(E.isRight(r) && r.right.rescan).toEqual(rescan)
      expect(E.isRight(r) && r.right.action).toBe('update')
      expect(E.isRight(r) && Holo.holo.mayChange(r.right)).toBe(true)
      expect(E.isRight(r) && Holo.holo.pending(r.right)).toMatch(/scanned again at its turn/)
    },
  )

  it('verification misses an entity that still shows a local change', () => {
    expect(HoloPlan.verify([entity(), entity({ id: 'settings:/etc/b', local: { _tag: 'Deleted', diff: '' } })])).toEqual(['settings:/etc/b still differs from what settings last applied'])
  })
})

describe('the staleness digest', () => {
  fcTest.prop([arbObserved, fc.stringMatching(/^[a-z0-9]{1,12}$/)])('does not change with the temporary file names in a diff header', (o, tmp) => {
    const withHeader = (name: string) => ({ ...o, entities: o.entities.map((e) => (e.local === undefined ? e : { ...e, local: { ...e.local, diff: `diff --holo /tmp/${name}/a /etc/a\n--- /tmp/${name}/a\n+++ /etc/a\n${e.local.diff}` } })) })
    expect(Observed.digest(withHeader(tmp))).toBe(Observed.digest(withHeader('other')))
  })

  it('changes when an entity\'s ACTION or local change does', () => {
    const o = { plugins: ['settings'], entities: [entity()] }
    expect(Observed.digest(o)).not.toBe(Observed.digest({ ...o, entities: [entity({ reason: 'settings changed' })] }))
    expect(Observed.digest(o)).not.toBe(Observed.digest({ ...o, entities: [entity({ local: { _tag: 'Modified', diff: '+x' } })] }))
  })

  it('changes when what the plugin reports of an entity\'s resources does (a script\'s sha256 info line)', () => {
    const report = (sha: string) => Observed.found({ plugin: 'oneshot', id: 'oneshot:a', actionVerb: 'Running', actionReason: 'script changed since it last ran', sources: ['/usr/share/holo/oneshot/a'], info: [{ key: 'sha256', value: sha }] }, { _tag: 'None' })
    expect(Observed.digest({ plugins: ['oneshot'], entities: [report('aa')] })).not.toBe(Observed.digest({ plugins: ['oneshot'], entities: [report('bb')] }))
  })
})

describe('steps', () => {
  it('refuses a step whose plugin or entity no scan could report', () => {
    const s = Step.make(entity())
    expect(Step.problem(s)).toBeUndefined()
    expect(Step.problem({ ...s, plugin: '../x' })).toMatch(/not a plugin ID/)
    expect(Step.problem({ ...s, entity: '/etc/passwd' })).toMatch(/not a Holo entity ID/)
  })

  it('draws a local change\'s diff with every control character visible', () => {
    const s = Step.make(entity({ local: { _tag: 'Modified', diff: '-a\n+\u001b[2Jb\n' } }))
    const lines = Holo.stepLines(s).join('\n')
    expect(lines).toContain('plait apply --force overwrites it')
    expect(lines).toContain('+\\x1b[2Jb')
    expect(lines).not.toContain('\u001b')
  })
})
