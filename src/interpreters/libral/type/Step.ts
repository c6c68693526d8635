// Step: a libral resource's step (`libral.update`) as the plan carries it: exactly the changed
// writable attributes. It cannot be undone.
import * as t from 'io-ts'

// model

/** An attribute value of a libral resource in a plan file: a string, a boolean or a list of strings. */
export const LibralValue = t.union([t.string, t.boolean, t.array(t.string)])
export type LibralValue = t.TypeOf<typeof LibralValue>

export const LibralChange = t.intersection([t.type({ attr: t.string, is: LibralValue }), t.partial({ was: LibralValue })])
export type LibralChange = t.TypeOf<typeof LibralChange>

/** A libral provider's `update` of one resource with exactly the changed writable attributes; it cannot be undone. */
export const LibralUpdate = t.type({
  _tag: t.literal('libral.update'),
  /** The provider's full name, `type::name`. */
  provider: t.string,
  /** The resource's name. */
  name: t.string,
  /** The changes to send, in metadata order; never `name`, never a read-only attribute. */
  changes: t.array(LibralChange),
  reason: t.string,
  noop: t.string,
})
export type LibralUpdate = t.TypeOf<typeof LibralUpdate>
