// Reply: what a provider answered, once its output parsed: a typed value (with notes about what
// was ignored), or the error it reported (`ral_error` ... `ral_eom`, or a json `error` object).
//
// Output that does not parse at all is not a Reply: the parsers return it as `Left` (a protocol
// violation), so "the provider said no" and "the provider is broken" stay apart.
import type { Change, Found, Resource } from './Resource.js'

// model

export type Reply<A> =
  | { readonly _tag: 'Ok'; readonly value: A; readonly notes: ReadonlyArray<string> }
  | { readonly _tag: 'Error'; readonly message: string; readonly kind: ErrorKind }

/** `unknown`: the named resource does not exist and can not be created; `failed`: anything else. */
export type ErrorKind = 'unknown' | 'failed'

/** What update reported: the changes it named, whether the rest is to be derived, or that the resource is unknown. */
export interface UpdateReport {
  readonly unknown: boolean
  readonly derive: boolean
  readonly changes: ReadonlyArray<Change>
}

export type ListReply = Reply<ReadonlyArray<Resource>>
export type FindReply = Reply<Found>
export type UpdateReply = Reply<UpdateReport>

// constructors

/** A successful reply. */
export const ok = <A>(value: A, notes: ReadonlyArray<string> = []): Reply<A> => Object.freeze({ _tag: 'Ok', value, notes: Object.freeze([...notes]) })

/** A reported error. */
export const error = <A>(message: string, kind: ErrorKind = 'failed'): Reply<A> => Object.freeze({ _tag: 'Error', message, kind })
