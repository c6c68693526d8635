// ResourcePlan: how a libral resource's plan is written in a plan file (`kind: libral`).
import * as t from 'io-ts'
import * as Plan from '../../../core/Plan.js'
import { LibralUpdate, LibralValue } from './Step.js'

// model

/**
 * A libral resource's plan: `provider` is the provider's full name (`type::name`), one of
 * `inputs.providers`; `desired` holds the writable attributes the manifest set; at most one step.
 */
export const LibralResourcePlan = t.intersection([
  t.type({ kind: t.literal('libral'), ...Plan.head, provider: t.string, desired: t.record(t.string, LibralValue), steps: t.array(LibralUpdate) }),
  Plan.Links,
])
export type LibralResourcePlan = t.TypeOf<typeof LibralResourcePlan>
