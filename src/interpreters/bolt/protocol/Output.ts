// Output: what a plugin task's run means, read as Bolt reads task output. Stdout must be one JSON
// object. An `_error` object ({msg, kind, details}) or a non-zero exit is an error the plugin
// reports, worded as Bolt words it ("Error executing plugin NAME from HOOK in NAME: MSG"): only the
// `_error`'s msg is shown, as Bolt shows it; its kind and details (a Ruby task's backtrace) are not.
// A hook whose value is used must give `value`. Anything else breaks the protocol.
import * as E from 'fp-ts/lib/Either.js'
import * as Depth from '../../../core/Depth.js'

// model

/** Why a run gave no value: an error the plugin reported (or its non-zero exit), or output that breaks the protocol. */
export interface Problem {
  readonly _tag: 'Reported' | 'ProtocolViolation'
  readonly message: string
}

/** How a task ended and what it printed. */
export interface Ended {
  readonly exitCode?: number
  readonly signal?: string
  readonly stdout: string
  readonly stderr: string
}

/** Where a run happened, for messages: the plugin and the hook; `secret` for a secret plugin, whose output a message never quotes (it may hold the secret). */
export interface Origin {
  readonly plugin: string
  readonly hook: string
  readonly secret?: boolean
}

/** The most characters of plugin text (a message, stderr, output) a message quotes. */
export const quoteLimit = 2000

// constructors

/** A message in Bolt's wording for an error of a plugin run ("Error executing plugin pkcs7 from resolve_reference in pkcs7: MSG"). */
export const executionError = (o: Origin, msg: string): string => `Error executing plugin ${o.plugin} from ${o.hook} in ${o.plugin}: ${msg}`

/** Reads a run: the whole result object (with `value` when `needValue`), or the problem. */
export const read = (o: Origin, ended: Ended, needValue: boolean): E.Either<Problem, Readonly<Record<string, unknown>>> => {
  const reported = (msg: string): E.Either<Problem, never> => E.left({ _tag: 'Reported', message: executionError(o, msg) })
  const violation = (msg: string): E.Either<Problem, never> => E.left({ _tag: 'ProtocolViolation', message: executionError(o, msg) })
  const clip = (s: string): string => (o.secret === true ? '(not shown: the output of a secret plugin)' : clipped(s))
  const parsed = object(ended.stdout)
  // what follows (quoting an _error, merging the value into data) recurses over the value
  if (parsed !== undefined && Depth.deeperThan(parsed, Depth.maxData)) return violation(`its output nests deeper than ${Depth.maxData} levels`)
  const failed = ended.exitCode !== 0
  if (parsed !== undefined && '_error' in parsed) {
    const err = errorOf(parsed['_error'], clipped)
    if (err !== undefined) return reported(err)
    if (!failed) return violation(`its _error must be an object with a string msg, got ${clip(JSON.stringify(parsed['_error']) ?? 'undefined')}`)
  }
  if (failed) {
    const how = ended.exitCode !== undefined ? `exit code ${ended.exitCode}` : `signal ${ended.signal ?? 'unknown'}`
    const stderr = ended.stderr.trim()
    return reported(`The task failed with ${how}${stderr === '' ? '' : `: ${clip(stderr)}`}`)
  }
  if (parsed === undefined) {
    const out = ended.stdout.trim()
    return violation(out === '' ? 'it printed nothing; a plugin prints a JSON object such as {"value": ...}' : `it printed ${clip(out)}, which is not a JSON object; a plugin prints one such as {"value": ...}`)
  }
  if (needValue && !('value' in parsed)) return violation(`Plugin ${o.plugin} result did not include a value, got ${clip(JSON.stringify(parsed))}`)
  return E.right(parsed)
}

const object = (text: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The message of a well-formed `_error` (its msg only, as Bolt shows it), or undefined. */
const errorOf = (e: unknown, clip: (s: string) => string): string | undefined => {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return undefined
  const { msg } = e as Record<string, unknown>
  return typeof msg === 'string' ? clip(msg) : undefined
}

const clipped = (s: string): string => (s.length > quoteLimit ? `${s.slice(0, quoteLimit)}... (${s.length - quoteLimit} more characters)` : s)
