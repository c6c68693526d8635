// Env: what an expression can see, and what evaluating it read (the types Evaluate and the CCM
// functions share; in a module of their own so that neither imports the other), and how an
// environment is made from plain data.
import type * as E from 'fp-ts/lib/Either.js'
import type * as Check from './Check.js'
import * as Value from './Value.js'

export type Root = 'facts' | 'data' | 'environ'

/** What an expression can see. */
export interface Env {
  readonly mode: Check.Mode
  readonly facts: Value.ValueMap
  readonly data: Value.ValueMap
  /** Environment variables: a map of strings (a missing one reads as "", as in CCM). */
  readonly environ: Value.ValueMap
  /** The time `now()` gives; without it `now()` is an error. */
  readonly now?: Value.Time
  /** Reads a file relative to the manifest's directory (the path is cleaned, never absolute). */
  readonly readFile?: (path: string) => E.Either<string, string>
  /** Variables and functions a caller adds (a `@validate` expression's `value` and validators). */
  readonly extra?: Extra
}

/** Extra names: a function gets its evaluated arguments and gives a value or an error message. */
export interface Extra {
  readonly variables?: ReadonlyMap<string, Value.Value>
  readonly functions?: ReadonlyMap<string, (args: ReadonlyArray<Value.Value>) => E.Either<string, Value.Value>>
}

/** One facts, data or environ path an expression read (a missing key counts: its absence was read). */
export interface Read {
  readonly root: Root
  readonly path: ReadonlyArray<string>
}

export interface Reads {
  /** Sorted, without duplicates. */
  readonly values: ReadonlyArray<Read>
  /** Cleaned relative paths given to readFile, sorted. */
  readonly files: ReadonlyArray<string>
  readonly clock: boolean
}

/** Builds an environment from plain data (parsed YAML or JSON), see Value.fromJS. */
export const env = (input: {
  readonly mode?: Check.Mode
  readonly facts?: unknown
  readonly data?: unknown
  readonly environ?: Readonly<Record<string, string>>
  readonly now?: Value.Time
  readonly readFile?: (path: string) => E.Either<string, string>
  readonly extra?: Extra
}): Env => {
  const asMap = (x: unknown): Value.ValueMap => {
    const v = Value.fromJS(x)
    return Value.isMap(v) ? v : Value.map([])
  }
  return {
    mode: input.mode ?? 'manifest',
    facts: asMap(input.facts),
    data: asMap(input.data),
    environ: asMap(input.environ),
    ...(input.now !== undefined ? { now: input.now } : {}),
    ...(input.readFile !== undefined ? { readFile: input.readFile } : {}),
    ...(input.extra !== undefined ? { extra: input.extra } : {}),
  }
}
