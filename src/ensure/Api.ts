// Api: CCM's JSON API of one resource (pure): the ensure request (`io.choria.ccm.v1.resource.ensure.request`,
// JSON or YAML) as a resource to ensure, and the response (`…ensure.response`) with the outcome as
// CCM's transaction event, or an error. Every malformed request is an error text, never a throw.
import * as E from 'fp-ts/lib/Either.js'
import * as Y from 'yaml'
import * as Depth from '../core/Depth.js'
import * as Health from '../types/Health.js'
import * as YamlKeys from '../manifest/YamlKeys.js'
import type * as Args from './Args.js'
import type * as SessionRecord from './SessionRecord.js'

// model

export const requestProtocol = 'io.choria.ccm.v1.resource.ensure.request'
export const responseProtocol = 'io.choria.ccm.v1.resource.ensure.response'
export const eventProtocol = 'io.choria.ccm.v1.transaction.event'

/** The most bytes of a request (a resource's properties, a file's content among them). */
export const maxBytes = 4 * 1024 * 1024

/** A decoded request: the resource, and its references to resources of the session. */
export interface Request {
  readonly resource: Args.Resource
  readonly require: ReadonlyArray<string>
  readonly subscribe: ReadonlyArray<string>
}

/** CCM's result of one health check: its status in lower case, how many times it ran, and its first line of output. */
export interface HealthCheckResult {
  readonly status: 'ok' | 'warning' | 'critical' | 'unknown'
  readonly tries: number
  readonly output: string
}

/** CCM's transaction event of one resource (the response's `state`). */
export interface Event {
  readonly protocol: typeof eventProtocol
  readonly event_id: string
  readonly timestamp: string
  readonly type: string
  readonly provider: string
  readonly name: string
  readonly alias?: string
  readonly requested_ensure: string
  readonly final_ensure: string
  /** Nanoseconds. */
  readonly duration: number
  readonly noop_message?: string
  /** The results of the resource's health checks, when it has some and they ran. */
  readonly health_check?: ReadonlyArray<HealthCheckResult>
  readonly error?: ReadonlyArray<string>
  readonly changed: boolean
  readonly refreshed?: boolean
  readonly failed: boolean
  readonly skipped?: boolean
  readonly noop: boolean
  readonly unmet_requirements?: ReadonlyArray<string>
}

export type Response = { readonly protocol: typeof responseProtocol; readonly state: Event } | { readonly protocol: typeof responseProtocol; readonly error: string }

const referencePattern = /^[a-z]+#.+$/

// codec

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const references = (v: unknown, key: string): E.Either<string, ReadonlyArray<string>> => {
  if (v === undefined) return E.right([])
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string')) return E.left(`properties.${key} must be a list of TYPE#NAME texts`)
  const bad = v.find((x) => !referencePattern.test(x))
  return bad === undefined ? E.right(v) : E.left(`properties.${key}: ${JSON.stringify(bad.slice(0, 200))} is not TYPE#NAME`)
}

const tooDeep = `the request nests deeper than ${Depth.maxData} levels`

/** Whether the character at `i` starts a token: the first, or one after white space or flow punctuation. */
const startsToken = (text: string, i: number): boolean => i === 0 || /[\s[{,:]/.test(text[i - 1]!)

/**
 * Whether a request written as a flow collection (JSON, the protocol's form, or YAML's flow style)
 * nests deeper than `most`, found in one pass before the YAML library builds a tree of it (some
 * 550 bytes for each byte: a 4 MB request of brackets took 44 s and 2.2 GB to be refused). Quoted
 * texts ("…" with \\ escapes, '…' with '' for a quote: a quote that starts a token, as in JSON and
 * YAML, not one inside a plain word) and comments are skipped; in flow style a plain text cannot
 * hold a bracket, so what is counted is the nesting.
 */
export const flowDeeperThan = (text: string, most: number): boolean => {
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return false
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x5b || c === 0x7b) {
      if (++depth > most) return true
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1)
    else if (c === 0x22 && startsToken(text, i)) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x27 && startsToken(text, i)) {
      for (i++; i < text.length; i++) if (text.charCodeAt(i) === 0x27 && text.charCodeAt(++i) !== 0x27) break
      i--
    } else if (c === 0x23 && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf('\n', i)
      i = nl < 0 ? text.length : nl
    }
  }
  return false
}

/** A request's text (JSON or YAML) as the resource it asks for; `types` are the resource types there are. */
export const decode = (text: string, types: ReadonlyArray<string>): E.Either<string, Request> => {
  if (text.length > maxBytes) return E.left(`the request is larger than ${maxBytes} bytes`)
  if (text.trim().length === 0) return E.left('the request is empty')
  if (flowDeeperThan(text, Depth.maxData)) return E.left(tooDeep)
  let v: unknown
  try {
    // keys checked unique by YamlKeys, in linear time: the library's own check is quadratic
    const doc = YamlKeys.checkUnique(Y.parseDocument(text, { uniqueKeys: false, prettyErrors: false }))
    if (doc.errors.length > 0) return E.left(/call stack/i.test(doc.errors[0]!.message) ? tooDeep : `the request is not JSON or YAML: ${doc.errors[0]!.message.split('\n')[0]!}`)
    v = doc.toJS({ maxAliasCount: 100 })
  } catch (e) {
    // the library's own recursion, on nesting far beyond what a request may have
    return E.left(e instanceof RangeError ? tooDeep : `the request is not JSON or YAML: ${(e as Error).message.split('\n')[0]!}`)
  }
  if (Depth.deeperThan(v, Depth.maxData)) return E.left(tooDeep)
  if (!isObject(v)) return E.left('the request must be an object with protocol, type and properties')
  const extra = Object.keys(v).find((k) => k !== 'protocol' && k !== 'type' && k !== 'properties')
  if (extra !== undefined) return E.left(`unknown request field ${JSON.stringify(extra.slice(0, 100))}; a request has protocol, type and properties`)
  if (v['protocol'] !== requestProtocol) return E.left(`invalid protocol ${JSON.stringify(typeof v['protocol'] === 'string' ? v['protocol'].slice(0, 200) : v['protocol'] ?? null)}`)
  const type = v['type']
  if (typeof type !== 'string') return E.left('type must be a text, the resource type')
  if (!types.includes(type)) return E.left(`unknown resource type ${JSON.stringify(type.slice(0, 100))}; plait has ${types.join(', ')}`)
  const props = v['properties']
  if (!isObject(props)) return E.left('properties must be an object with the resource name and its properties')
  const name = props['name']
  if (typeof name !== 'string' || name.length === 0) return E.left('properties.name must be a non-empty text')
  const require = references(props['require'], 'require')
  if (E.isLeft(require)) return require
  const subscribe = references(props['subscribe'], 'subscribe')
  if (E.isLeft(subscribe)) return subscribe
  const properties = Object.fromEntries(Object.entries(props).filter(([k]) => k !== 'name' && k !== 'require' && k !== 'subscribe'))
  return E.right({ resource: { type, name, properties }, require: require.right, subscribe: subscribe.right })
}

/** A response carrying the resource's event. */
export const success = (state: Event): Response => ({ protocol: responseProtocol, state })

/** A response carrying an error. */
export const failure = (error: string): Response => ({ protocol: responseProtocol, error })

/** How many problems an error response names: the rest are counted (a request with 100,000 unknown properties is one screen, not 14 MB). */
export const maxProblems = 20

/** A response carrying the problems that stopped a request (the first maxProblems, "; " between them, then how many more). */
export const failures = (problems: ReadonlyArray<string>): Response => {
  const shown = problems.length <= maxProblems ? problems : [...problems.slice(0, maxProblems), `(and ${problems.length - maxProblems} more)`]
  return failure(shown.join('; '))
}

/** A response as JSON text (with a newline). */
export const encode = (r: Response): string => JSON.stringify(r, null, 2) + '\n'

/** The ensure a type has when none is asked for (CCM's defaults). */
export const defaultEnsure = (type: string): string => (type === 'service' ? 'running' : 'present')

/** What one ensure did, as the event is made of it. */
export interface Done {
  readonly resource: Args.Resource
  /** The compiled resource's id (its name may have been a template). */
  readonly id: string
  readonly outcome: SessionRecord.Outcome
  readonly messages: ReadonlyArray<string>
  readonly noop: boolean
  readonly durationNs: number
  /** What the plan said of it (`create`: it was not there). */
  readonly action?: string
  /** The provider its plan names (`auto`: the machine's). */
  readonly provider?: string
  readonly eventId: string
  readonly timestamp: string
  /** The results of its health checks, as the executor ran them (none: it has none, or they did not run). */
  readonly health?: ReadonlyArray<Health.Result>
}

const statuses: Readonly<Record<Health.Status, HealthCheckResult['status']>> = { OK: 'ok', WARNING: 'warning', CRITICAL: 'critical', UNKNOWN: 'unknown' }

/** A health check's result as CCM's event carries it. */
export const healthCheckResult = (r: Health.Result): HealthCheckResult => ({ status: statuses[r.status], tries: r.tries, output: r.message })

/**
 * The messages of an outcome without its health check results (they go to `health_check`): the
 * executor adds each OK result as a line, and the results that are not OK as the failure, joined.
 * A failure by health checks stays a reason in `error`: one line naming the checks that were not
 * OK, pointing to `health_check` for their results.
 */
export const withoutHealth = (messages: ReadonlyArray<string>, results: ReadonlyArray<Health.Result>): ReadonlyArray<string> => {
  if (results.length === 0) return messages
  const bad = results.filter((r) => r.status !== 'OK')
  const failure = bad.map(Health.render).join('; ')
  const lines = new Set(results.map(Health.render))
  const rest = messages.filter((m) => !lines.has(m) && m !== failure)
  return bad.length > 0 && messages.includes(failure) ? [`health check ${bad.map((r) => `${r.name} is ${r.status}`).join(', ')} (see health_check)`, ...rest] : rest
}

const typeProviders: Readonly<Record<string, string>> = { file: 'posix', exec: 'posix', service: 'systemd', package: 'auto' }

/**
 * CCM's transaction event of one ensure. `final_ensure` is the ensure asked for when it was met (the
 * executor verified it), `absent` when it was not and the plan found nothing there, else `unknown`.
 */
export const event = (d: Done): Event => {
  const asked = d.resource.properties['ensure']
  const requested = typeof asked === 'string' ? asked : defaultEnsure(d.resource.type)
  const wanted = d.resource.properties['provider']
  const provider = d.provider !== undefined && d.provider !== 'auto' ? d.provider : typeof wanted === 'string' ? wanted : (typeProviders[d.resource.type] ?? d.resource.type)
  const met = d.outcome === 'stable' || (d.outcome === 'changed' && !d.noop)
  const hash = d.id.indexOf('#')
  const alias = d.resource.properties['alias']
  const unmet = d.messages.filter((m) => m.startsWith('unmet requirement'))
  const health = d.health ?? []
  const messages = withoutHealth(d.messages, health)
  return {
    protocol: eventProtocol,
    event_id: d.eventId,
    timestamp: d.timestamp,
    type: d.resource.type,
    provider,
    name: hash >= 0 ? d.id.slice(hash + 1) : d.resource.name,
    ...(typeof alias === 'string' ? { alias } : {}),
    requested_ensure: requested,
    final_ensure: met ? requested : d.action === 'create' ? 'absent' : 'unknown',
    duration: d.durationNs,
    ...(d.noop && d.outcome === 'changed' ? { noop_message: messages.join('; ') } : {}),
    ...(health.length > 0 ? { health_check: health.map(healthCheckResult) } : {}),
    ...(d.outcome === 'failed' || d.outcome === 'skipped' ? { error: [...messages] } : {}),
    changed: d.outcome === 'changed',
    failed: d.outcome === 'failed',
    skipped: d.outcome === 'skipped',
    noop: d.noop,
    ...(d.outcome === 'skipped' && unmet.length > 0 ? { unmet_requirements: unmet } : {}),
  }
}
