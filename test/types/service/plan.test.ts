// The service decision tables (CCM's two phases), verification and the turn, as examples from the
// spec's tables and as laws over every status and desired state.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as ServicePlan from '../../../src/types/service/plan.js'
import type { ServiceDesired } from '../../../src/types/service/ResourcePlan.js'
import type { ServiceSpec } from '../../../src/types/service/Spec.js'
import * as Status from '../../../src/types/service/Status.js'
import type { ServiceStep } from '../../../src/types/service/Step.js'

const status = (running: boolean, enabled: boolean | undefined): Status.Status => ({
  running,
  enabled,
  active: running ? 'active' : 'inactive',
  unitFile: enabled === undefined ? '' : enabled ? 'enabled' : 'disabled',
})
const spec = (over: Partial<ServiceSpec> = {}): ServiceSpec => ({ _tag: 'service', id: 'service#web', name: 'web', at: { file: 'm.yaml', line: 3, col: 7 }, ensure: 'running', provider: 'systemd', ...over })
const tags = (d: ServiceDesired, s: Status.Status, changing: ReadonlyArray<string> = []) => E.map((steps: ReadonlyArray<ServiceStep>) => steps.map((x) => x._tag))(ServicePlan.decide('web', d, s, changing))

describe('the running state (phase 1)', () => {
  it.each([
    ['running', true, []],
    ['running', false, ['service.start']],
    ['stopped', false, []],
    ['stopped', true, ['service.stop']],
  ] as const)('ensure %s, running=%s → %j', (ensure, running, expected) => {
    expect(tags({ ensure }, status(running, false))).toEqual(E.right(expected))
  })

  it('a subscribed resource that changes restarts a running service, as a refresh that waits on it', () => {
    const steps = ServicePlan.decide('web', { ensure: 'running' }, status(true, true), ['file#/etc/web.conf'])
    expect(steps).toEqual(E.right([{ _tag: 'service.restart', name: 'web', reason: 'refresh: file#/etc/web.conf changes', noop: 'Would have restarted via subscribe', when: ['file#/etc/web.conf'] }]))
  })

  it('starts (never restarts) a stopped service that should run, whatever it subscribes to', () => {
    expect(ServicePlan.decide('web', { ensure: 'running' }, status(false, true), ['file#/a', 'file#/b'])).toEqual(
      E.right([{ _tag: 'service.start', name: 'web', reason: 'it is stopped (inactive)', noop: 'Would have started' }]),
    )
  })

  it('ignores subscribe when ensure is stopped', () => {
    expect(tags({ ensure: 'stopped' }, status(false, true), ['file#/a'])).toEqual(E.right([]))
    expect(tags({ ensure: 'stopped' }, status(true, true), ['file#/a'])).toEqual(E.right(['service.stop']))
  })
})

describe('the boot state (phase 2)', () => {
  it.each([
    [true, true, []],
    [true, false, ['service.enable']],
    [false, true, ['service.disable']],
    [false, false, []],
    [undefined, true, []],
    [undefined, false, []],
    [undefined, undefined, []],
  ] as const)('enable %s, enabled=%s → %j', (enable, enabled, expected) => {
    expect(tags({ ensure: 'running', ...(enable !== undefined ? { enable } : {}) }, status(true, enabled))).toEqual(E.right(expected))
  })

  it('is an error when enable is set and systemd knows no unit file state', () => {
    expect(tags({ ensure: 'running', enable: true }, status(true, undefined))).toEqual(E.left('cannot tell whether service web is enabled: systemd reports no unit file state for it'))
  })

  it.each(['static', 'generated', 'transient'])('refuses enable: false for a %s unit, which systemctl disable leaves enabled', (unitFile) => {
    const fixed = { ...status(true, true), unitFile }
    expect(tags({ ensure: 'running', enable: false }, fixed)).toEqual(
      E.left(`service web is ${unitFile} at boot: systemd starts it when another unit needs it, and it cannot be disabled (leave enable unset, or mask it)`),
    )
    expect(tags({ ensure: 'running', enable: true }, fixed)).toEqual(E.right([]))
    expect(tags({ ensure: 'running' }, fixed)).toEqual(E.right([]))
  })

  it('comes after the running state, with the noop messages of the spec', () => {
    expect(ServicePlan.decide('web', { ensure: 'stopped', enable: false }, status(true, true), [])).toEqual(
      E.right([
        { _tag: 'service.stop', name: 'web', reason: 'it is running (active)', noop: 'Would have stopped' },
        { _tag: 'service.disable', name: 'web', reason: 'it is enabled at boot (enabled)', noop: 'Would have disabled' },
      ]),
    )
    expect(ServicePlan.decide('web', { ensure: 'running', enable: true }, status(false, false), [])).toEqual(
      E.right([
        { _tag: 'service.start', name: 'web', reason: 'it is stopped (inactive)', noop: 'Would have started' },
        { _tag: 'service.enable', name: 'web', reason: 'it is disabled at boot (disabled)', noop: 'Would have enabled' },
      ]),
    )
  })
})

describe('a service resource plan', () => {
  it('records the desired state, what was observed and its digest; no steps is action none', () => {
    const p = ServicePlan.plan(spec({ enable: true }), status(true, true))
    expect(p).toEqual(
      E.right({
        kind: 'service',
        id: 'service#web',
        type: 'service',
        name: 'web',
        at: 'm.yaml:3:7',
        action: 'none',
        observed: { summary: 'running (active), enabled at boot (enabled)', digest: Status.digest(status(true, true)) },
        desired: { ensure: 'running', enable: true },
        steps: [],
      }),
    )
  })

  it('is an update when it has steps, and keeps the ids it subscribes to', () => {
    const p = ServicePlan.plan(spec(), status(true, true), { ids: ['file#/a', 'file#/b'], changing: ['file#/a'] })
    expect(E.isRight(p) && [p.right.action, p.right.subscribe, p.right.steps.map((s) => s.when)]).toEqual(['update', ['file#/a', 'file#/b'], [['file#/a']]])
  })
})

describe('a unit systemd does not know', () => {
  it('is "service not found" when no earlier resource of the run may install it', () => {
    expect(ServicePlan.plan(spec(), Status.missing)).toEqual(E.left('service not found'))
    expect(ServicePlan.verify('web', { ensure: 'stopped' }, Status.missing)).toEqual(['service not found'])
  })

  it('is planned as stopped and disabled when an earlier resource may install it: start and enable, never a restart', () => {
    const why = 'it is not found now; an earlier resource of this run may install it'
    const p = ServicePlan.plan(spec({ enable: true }), Status.missing, { ids: ['package#web'], changing: ['package#web'] }, true)
    expect(E.isRight(p) && [p.right.observed.summary, p.right.steps]).toEqual([
      'not found',
      [
        { _tag: 'service.start', name: 'web', reason: why, noop: 'Would have started' },
        { _tag: 'service.enable', name: 'web', reason: why, noop: 'Would have enabled' },
      ],
    ])
    const stopped = ServicePlan.plan(spec({ ensure: 'stopped', enable: false }), Status.missing, undefined, true)
    expect(E.isRight(stopped) && stopped.right.steps).toEqual([])
  })

  it('has a digest of its own, so a unit that appears between plan and apply is drift', () => {
    expect(Status.digest(Status.missing)).not.toBe(Status.digest(status(false, false)))
  })
})

describe('at its turn', () => {
  const restart: ServiceStep = { _tag: 'service.restart', name: 'web', reason: 'refresh', noop: 'n', when: ['file#/a'] }
  const enable: ServiceStep = { _tag: 'service.enable', name: 'web', reason: 'r', noop: 'n' }
  it('restarts only when what it waits on changed in this run, and says so when not', () => {
    expect(ServicePlan.atTurn([restart, enable], (id) => id === 'file#/a')).toEqual({ steps: [restart, enable], notes: [] })
    expect(ServicePlan.atTurn([restart, enable], () => false)).toEqual({ steps: [enable], notes: ['not restarted: file#/a did not change'] })
  })
})

describe('verification', () => {
  it('says how a service misses its desired state', () => {
    expect(ServicePlan.verify('web', { ensure: 'running', enable: true }, status(false, false))).toEqual([
      'service web is stopped (inactive), not running',
      'service web is disabled at boot (disabled), not enabled',
    ])
    expect(ServicePlan.verify('web', { ensure: 'stopped' }, status(false, true))).toEqual([])
    expect(ServicePlan.verify('web', { ensure: 'running', enable: false }, status(true, undefined))).toEqual(['service web is of unknown boot state at boot (no unit file state), not disabled'])
  })
})

// laws

const desired = fc.record({ ensure: fc.constantFrom('running' as const, 'stopped' as const), enable: fc.option(fc.boolean(), { nil: undefined }) }).map(({ ensure, enable }): ServiceDesired => ({ ensure, ...(enable !== undefined ? { enable } : {}) }))
const anyStatus = fc.record({ running: fc.boolean(), enabled: fc.boolean() }).map(({ running, enabled }) => status(running, enabled))
const changing = fc.array(fc.constantFrom('file#/a', 'package#b', 'exec#c'), { maxLength: 3 }).map((a) => [...new Set(a)])

/** What a step does to a status (as systemd would). */
const after = (s: Status.Status, steps: ReadonlyArray<ServiceStep>): Status.Status =>
  steps.reduce((x, step) => {
    switch (step._tag) {
      case 'service.start':
      case 'service.restart':
        return { ...x, running: true, active: 'active' }
      case 'service.stop':
        return { ...x, running: false, active: 'inactive' }
      case 'service.enable':
        return { ...x, enabled: true, unitFile: 'enabled' }
      case 'service.disable':
        return { ...x, enabled: false, unitFile: 'disabled' }
    }
  }, s)

describe('laws', () => {
  fcTest.prop([desired, anyStatus, changing])('after its steps, a service is verified and plans nothing more (idempotence)', (d, s, ch) => {
    const steps = ServicePlan.decide('web', d, s, ch)
    if (E.isLeft(steps)) throw new Error(steps.left)
    const now = after(s, steps.right)
    expect(ServicePlan.verify('web', d, now)).toEqual([])
    expect(ServicePlan.decide('web', d, now, [])).toEqual(E.right([]))
  })

  fcTest.prop([desired, anyStatus])('without a subscription, it plans nothing exactly when it is verified', (d, s) => {
    const steps = ServicePlan.decide('web', d, s, [])
    expect(E.isRight(steps) && steps.right.length === 0).toBe(ServicePlan.verify('web', d, s).length === 0)
  })

  fcTest.prop([desired, anyStatus, changing])('a restart is planned only for a running service that should run, and only as a refresh', (d, s, ch) => {
    const steps = ServicePlan.decide('web', d, s, ch)
    const restarts = E.isRight(steps) ? steps.right.filter((x) => x._tag === 'service.restart') : []
    expect(restarts.length).toBe(d.ensure === 'running' && s.running && ch.length > 0 ? 1 : 0)
    for (const r of restarts) expect(r.when).toEqual(ch)
    // every other step is unconditional
    if (E.isRight(steps)) for (const x of steps.right.filter((y) => y._tag !== 'service.restart')) expect(x.when).toBeUndefined()
  })

  fcTest.prop([anyStatus, anyStatus])('the digest changes exactly when the running or boot state does', (a, b) => {
    expect(Status.digest(a) === Status.digest(b)).toBe(a.running === b.running && a.enabled === b.enabled)
  })
})
