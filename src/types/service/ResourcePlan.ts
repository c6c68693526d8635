// ResourcePlan: how a service resource's plan is written in a plan file (`kind: service`).
import * as t from 'io-ts'
import * as Plan from '../../core/Plan.js'
import { ServiceStep } from './Step.js'

// model

/** The desired state: running or stopped, and enabled at boot or not (absent: left as it is). */
export const ServiceDesired = t.intersection([t.type({ ensure: t.keyof({ running: null, stopped: null }) }), t.partial({ enable: t.boolean })])
export type ServiceDesired = t.TypeOf<typeof ServiceDesired>

/**
 * A service resource's plan: its running-state step first (start, stop, or a restart that waits
 * on `when`), then its boot-state step; `observed.digest` is Status.digest of what systemd said.
 */
export const ServiceResourcePlan = t.intersection([
  t.type({ kind: t.literal('service'), ...Plan.head, type: t.literal('service'), desired: ServiceDesired, steps: t.array(ServiceStep) }),
  Plan.Links,
])
export type ServiceResourcePlan = t.TypeOf<typeof ServiceResourcePlan>
