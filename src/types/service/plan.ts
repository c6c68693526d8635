// plan: the service type's decision tables (pure), in CCM's two phases. First the running state:
//   ensure running, stopped           → start (a subscribe refresh starts it too: never a restart)
//   ensure running, running           → nothing; a restart if a subscribed resource changes
//   ensure stopped, running           → stop (subscribe is ignored)
//   ensure stopped, stopped           → nothing
// then the boot state, independently: enable true and disabled → enable; enable false and
// enabled → disable; enable unset → nothing. A unit systemd does not know is "service not found",
// unless an earlier resource of the run may install it (a package): then it is planned as stopped
// and disabled, and verification finds out.
import * as E from 'fp-ts/lib/Either.js'
import type { ServiceDesired, ServiceResourcePlan } from './ResourcePlan.js'
import * as Status from './Status.js'
import type { ServiceStep } from './Step.js'
import type { ServiceSpec } from './Spec.js'
import * as Plan from '../../core/Plan.js'
import * as Position from '../../core/Position.js'

// model

/** What a subscriber subscribes to: the ids, and those of them that may change in this plan. */
export interface Subscription {
  readonly ids: ReadonlyArray<string>
  readonly changing: ReadonlyArray<string>
}

// the tables

const notYet = 'it is not found now; an earlier resource of this run may install it'

const step = (tag: ServiceStep['_tag'], name: string, reason: string, noop: string): ServiceStep => ({ _tag: tag, name, reason, noop })

/** The running-state phase. */
export const runningStep = (name: string, d: ServiceDesired, s: Status.Status, changing: ReadonlyArray<string>): ServiceStep | undefined => {
  if (s.missing === true) return d.ensure === 'running' ? step('service.start', name, notYet, 'Would have started') : undefined
  if (d.ensure === 'stopped') return s.running ? step('service.stop', name, `it is running (${s.active})`, 'Would have stopped') : undefined
  if (!s.running) return step('service.start', name, `it is stopped (${s.active})`, 'Would have started')
  if (changing.length === 0) return undefined
  const when = `${changing.join(' or ')} change${changing.length === 1 ? 's' : ''}`
  return { ...step('service.restart', name, `refresh: ${when}`, 'Would have restarted via subscribe'), when: [...changing] }
}

/** Unit file states that `systemctl disable` cannot change (is-enabled reads them as enabled). */
const fixedAtBoot: ReadonlyArray<string> = ['static', 'generated', 'transient']

/** The boot-state phase; an error when `enable` is set and systemd cannot say whether the unit is enabled, or cannot disable it. */
export const bootStep = (name: string, d: ServiceDesired, s: Status.Status): E.Either<string, ServiceStep | undefined> => {
  if (d.enable === undefined) return E.right(undefined)
  if (s.missing === true) return E.right(d.enable ? step('service.enable', name, notYet, 'Would have enabled') : undefined)
  if (s.enabled === undefined) return E.left(`cannot tell whether service ${name} is enabled: systemd reports no unit file state for it`)
  if (d.enable && !s.enabled) return E.right(step('service.enable', name, `it is disabled at boot (${s.unitFile})`, 'Would have enabled'))
  // A static, generated or transient unit has no [Install] section to undo: `systemctl disable` leaves it as it is.
  if (!d.enable && s.enabled && fixedAtBoot.includes(s.unitFile)) {
    return E.left(`service ${name} is ${s.unitFile} at boot: systemd starts it when another unit needs it, and it cannot be disabled (leave enable unset, or mask it)`)
  }
  if (!d.enable && s.enabled) return E.right(step('service.disable', name, `it is enabled at boot (${s.unitFile})`, 'Would have disabled'))
  return E.right(undefined)
}

/** Both phases' steps, in order. */
export const decide = (name: string, d: ServiceDesired, s: Status.Status, changing: ReadonlyArray<string>): E.Either<string, ReadonlyArray<ServiceStep>> => {
  const boot = bootStep(name, d, s)
  if (E.isLeft(boot)) return boot
  return E.right([runningStep(name, d, s, changing), boot.right].filter((x): x is ServiceStep => x !== undefined))
}

/** The desired state of a spec, as the plan records it. */
export const desiredOf = (spec: ServiceSpec): ServiceDesired => ({ ensure: spec.ensure, ...(spec.enable !== undefined ? { enable: spec.enable } : {}) })

/** Plans a service resource from what systemd said of it; `installable`: an earlier resource of the run may change something (and so install the unit). */
export const plan = (spec: ServiceSpec, s: Status.Status, subscription: Subscription = { ids: [], changing: [] }, installable = false): E.Either<string, ServiceResourcePlan> => {
  if (s.missing === true && !installable) return E.left('service not found')
  const desired = desiredOf(spec)
  const steps = decide(spec.name, desired, s, subscription.changing)
  if (E.isLeft(steps)) return steps
  return E.right({
    kind: 'service',
    id: spec.id,
    type: 'service',
    name: spec.name,
    at: Position.render(spec.at),
    action: steps.right.length > 0 ? 'update' : 'none',
    observed: Plan.observedLazily(Status.summary(s), () => Status.digest(s)),
    desired,
    steps: [...steps.right],
    ...(subscription.ids.length > 0 ? { subscribe: [...subscription.ids] } : {}),
  })
}

/** The steps to run at the resource's turn: a refresh runs only if one of its `when` changed. */
export const atTurn = (steps: ReadonlyArray<ServiceStep>, changed: (id: string) => boolean): { readonly steps: ReadonlyArray<ServiceStep>; readonly notes: ReadonlyArray<string> } => {
  const kept = steps.filter((s) => s.when === undefined || s.when.some(changed))
  const dropped = steps.filter((s) => s.when !== undefined && !s.when.some(changed))
  return { steps: kept, notes: dropped.map((s) => `not restarted: ${(s.when ?? []).join(', ')} did not change`) }
}

/** How a service misses its desired state (nothing: it is there). */
export const verify = (name: string, d: ServiceDesired, s: Status.Status): ReadonlyArray<string> => {
  if (s.missing === true) return ['service not found']
  const misses: string[] = []
  if ((d.ensure === 'running') !== s.running) misses.push(`service ${name} is ${s.running ? 'running' : 'stopped'} (${s.active}), not ${d.ensure}`)
  if (d.enable !== undefined && d.enable !== s.enabled) {
    misses.push(`service ${name} is ${s.enabled === undefined ? 'of unknown boot state' : s.enabled ? 'enabled' : 'disabled'} at boot (${s.unitFile === '' ? 'no unit file state' : s.unitFile}), not ${d.enable ? 'enabled' : 'disabled'}`)
  }
  return misses
}
