// ResourcePlan: how a file resource's plan is written in a plan file (`kind: file`).
import * as t from 'io-ts'
import { Deferred } from '../../core/Deferred.js'
import * as Plan from '../../core/Plan.js'
import { FileStep, Principal } from './Step.js'

// model

/** The desired state of a file resource as the plan records it (content by digest only). */
export const FileDesired = t.intersection([
  t.type({ ensure: t.keyof({ present: null, absent: null, directory: null }), force: t.boolean }),
  t.partial({
    content: t.type({ sha256: t.string, size: t.number, origin: t.keyof({ content: null, source: null }) }),
    source: t.string,
    owner: Principal,
    group: Principal,
    mode: t.string,
  }),
])
export type FileDesired = t.TypeOf<typeof FileDesired>

/**
 * A file resource's plan. With `deferred`, its content is known only at apply: `steps` is empty,
 * `action` is `create` or `update` by whether the path exists, and the executor plans the resource
 * at its turn.
 */
export const FileResourcePlan = t.intersection([
  t.type({ kind: t.literal('file'), ...Plan.head, type: t.literal('file'), desired: FileDesired, steps: t.array(FileStep) }),
  t.partial({ deferred: Deferred }),
  Plan.Links,
])
export type FileResourcePlan = t.TypeOf<typeof FileResourcePlan>

// guards

/** True for a file resource whose content is known only at apply. */
export const isDeferred = (r: FileResourcePlan): r is FileResourcePlan & { deferred: Deferred } => r.deferred !== undefined
