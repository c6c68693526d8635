// ResourcePlan: how a package resource's plan is written in a plan file (`kind: package`).
import * as t from 'io-ts'
import * as Plan from '../../core/Plan.js'
import { PackageStep } from './Step.js'

// model

/** The desired state: `ensure` as the manifest wrote it (present, absent, latest or a version), and the provider (`auto`: the machine's). */
export const PackageDesired = t.type({ ensure: t.string, provider: t.keyof({ apt: null, dnf: null, auto: null }) })
export type PackageDesired = t.TypeOf<typeof PackageDesired>

/** A package resource's plan: at most one step; `observed.digest` is Observed.digest of what the package manager said. */
export const PackageResourcePlan = t.intersection([
  t.type({ kind: t.literal('package'), ...Plan.head, type: t.literal('package'), desired: PackageDesired, steps: t.array(PackageStep) }),
  Plan.Links,
])
export type PackageResourcePlan = t.TypeOf<typeof PackageResourcePlan>
