// Fault: the one error vocabulary of effects, shared by every interpreter and plugin protocol.

// model

/** The closed set of fault kinds. */
export type Tag =
  | 'NotFound'
  | 'PermissionDenied'
  | 'Exists'
  | 'NotADirectory'
  | 'IsADirectory'
  | 'NotEmpty'
  | 'Escape' // a path that leaves the confined root
  | 'TimedOut'
  | 'ProtocolViolation'
  | 'Crashed' // injected crash (memory interpreter): the process is gone
  | 'Failed'

export interface Fault {
  readonly _tag: Tag
  readonly module: string
  readonly op: string
  readonly subject: string
  readonly description: string
  readonly cause?: unknown
}

// constructors

/** Builds a fault. */
export const make = (
  tag: Tag,
  module: string,
  op: string,
  subject: string,
  description: string,
  cause?: unknown,
): Fault => Object.freeze(cause === undefined ? { _tag: tag, module, op, subject, description } : { _tag: tag, module, op, subject, description, cause })

// interop

/** Renders a fault in one line: `op subject: description`. */
export const render = (f: Fault): string => `${f.op} ${f.subject}: ${f.description}`
