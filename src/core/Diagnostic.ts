// Diagnostic: a user-facing error value, with the source position and resource it concerns.
import * as Position from './Position.js'
import * as Terminal from './Terminal.js'

// model

/** The closed set of diagnostic kinds; each names the stage that found the problem. */
export type Code =
  | 'Syntax' // the YAML (or JSON) does not parse
  | 'Decode' // a value has the wrong shape or type
  | 'UnknownKey' // a key that the schema does not allow
  | 'Validation' // a value of the right type that is not allowed (bad mode, relative path, ...)
  | 'Duplicate' // two resources with the same type and name
  | 'Reference' // a require or subscribe that names no earlier resource
  | 'Unsupported' // a construct plait does not support (yet), named explicitly
  | 'Expression' // a template or expression that does not evaluate
  | 'Io' // an input file could not be read
  | 'PlanFile' // a plan file that is malformed, tampered, of an unknown format or for another root
  | 'Stale' // the machine changed since the plan was made
  | 'Locked' // another apply holds the run lock
  | 'Observe' // a resource could not be observed
  | 'Apply' // a step failed
  | 'Verify' // a resource did not reach its desired state after apply
  | 'Recovery' // an unfinished journal was found or rolled back

export interface Diagnostic {
  readonly _tag: 'Diagnostic'
  readonly code: Code
  readonly message: string
  readonly at?: Position.Position
  readonly resource?: string
  readonly hint?: string
}

// constructors

/** Builds a diagnostic; optional fields are left out when undefined. */
export const make = (
  code: Code,
  message: string,
  extra: { at?: Position.Position | undefined; resource?: string | undefined; hint?: string | undefined } = {},
): Diagnostic => {
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { _tag: 'Diagnostic', code, message }
  if (extra.at !== undefined) d.at = extra.at
  if (extra.resource !== undefined) d.resource = extra.resource
  if (extra.hint !== undefined) d.hint = extra.hint
  return Object.freeze(d)
}

// combinators

/** Attaches a resource id to a diagnostic that has none. */
export const withResource = (resource: string) => (d: Diagnostic): Diagnostic =>
  d.resource === undefined ? make(d.code, d.message, { at: d.at, resource, hint: d.hint }) : d

/** Orders diagnostics by file, line, column, then message, for stable output. */
export const compare = (a: Diagnostic, b: Diagnostic): number => {
  const fa = a.at?.file ?? ''
  const fb = b.at?.file ?? ''
  if (fa !== fb) return fa < fb ? -1 : 1
  const la = a.at?.line ?? 0
  const lb = b.at?.line ?? 0
  if (la !== lb) return la - lb
  const ca = a.at?.col ?? 0
  const cb = b.at?.col ?? 0
  if (ca !== cb) return ca - cb
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0
}

// interop

/** Draws a diagnostic for a person: `file:line:col: resource: message (hint)`. */
export const render = (d: Diagnostic): string => draw(d, 'error')

/** Renders a diagnostic that does not stop the run: `warning: file:line:col: resource: message`. */
export const renderWarning = (d: Diagnostic): string => draw(d, 'warning')

const draw = (d: Diagnostic, severity: 'error' | 'warning'): string => {
  const parts: string[] = []
  if (d.at !== undefined) parts.push(Position.render(d.at))
  if (d.resource !== undefined) parts.push(d.resource)
  parts.push(d.message)
  // Messages quote names and values from manifests, machines and providers: one line each, always.
  const head = parts.map(Terminal.field).join(': ')
  return d.hint === undefined ? `${severity}: ${head}` : `${severity}: ${head}\n  hint: ${Terminal.field(d.hint)}`
}
