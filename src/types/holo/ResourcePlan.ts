// ResourcePlan: how a holo resource's plan is written in a plan file (`kind: holo`).
import * as t from 'io-ts'
import * as Plan from '../../core/Plan.js'
import { HoloApply } from './Step.js'

// model

/** The desired state: the selector as the manifest wrote it (an entity ID, a plugin ID, or `*`). */
export const HoloDesired = t.type({ selector: t.string })
export type HoloDesired = t.TypeOf<typeof HoloDesired>

/**
 * A holo resource's plan: one `holo.apply` step per entity it takes that is not up to date or was
 * changed locally, in Holo's order; `observed.digest` is Observed.digest of the scans and diffs.
 * `rescan` names the earlier resources of the plan that may change Holo's configuration, resources
 * or state (paths below /etc/holorc, /etc/holorc.d, /usr/share/holo, /var/lib/holo): when one of
 * them changed in the run, the plugins are scanned again at the resource's turn and its steps are
 * planned from that scan.
 */
export const HoloResourcePlan = t.intersection([
  t.type({ kind: t.literal('holo'), ...Plan.head, type: t.literal('holo'), desired: HoloDesired, steps: t.array(HoloApply) }),
  t.partial({ rescan: t.array(t.string) }),
  Plan.Links,
])
export type HoloResourcePlan = t.TypeOf<typeof HoloResourcePlan>
