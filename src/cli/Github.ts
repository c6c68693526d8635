// Github: a plan as GitHub Actions workflow commands, one annotation per changing resource at the
// manifest line that declares it (pure; equal inputs, equal text).
//
// GitHub shows at most 10 annotations of each type (notice, warning, error) per step, and 50 per
// job; plait writes at most `perType` of each, the last one a roll-up of the rest, so none is lost
// without a word. Hostile text is escaped by GitHub's rules: in a message `%`, CR and LF; in a
// property `:` and `,` too. Control characters are first shown visibly (Terminal.field), so
// nothing in a name can end a command or start another.
import * as Plan from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'
import * as Review from './Review.js'
import { summaryLine } from './render.js'

// model

/** Annotations of one type a step shows at most (GitHub's documented limit per step). */
export const perType = 10

/** A message's longest length, in characters, before it is cut (the steps are in the plan artifact). */
export const maxMessage = 2_000

export type Level = 'notice' | 'warning' | 'error'

// combinators

/** A message (the data of a workflow command) escaped: `%`, CR and LF as `%25`, `%0D`, `%0A`. */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

/** A property value escaped: as a message, and `:` and `,` as `%3A` and `%2C`. */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')

/** One workflow command: `::level file=F,line=L,title=T::message` (properties when given). */
export const command = (level: Level, message: string, at?: Review.Location, title?: string): string => {
  const props = [...(at !== undefined ? [`file=${escapeProperty(at.file)}`, `line=${at.line}`] : []), ...(title !== undefined ? [`title=${escapeProperty(title)}`] : [])]
  return `::${level}${props.length > 0 ? ` ${props.join(',')}` : ''}::${escapeData(message)}`
}

/** The message of a resource's annotation: its symbol and id, then one line per step (tag and reason), every field escaped. */
const messageOf = (r: Plan.ResourcePlan): string => {
  const text = Plan.isFailed(r) ? `${f(r.id)}: failed: ${f(r.failed)}` : [`${Plan.symbol(r.action)} ${f(r.id)}`, ...r.steps.map((s) => `${f(s._tag)}: ${f(s.reason)}`)].join('\n')
  return text.length <= maxMessage ? text : `${text.slice(0, maxMessage - 1)}…`
}

/** The annotations of one level, at most perType: past that, perType - 1 and a roll-up of the rest. */
const capped = (level: Level, rs: ReadonlyArray<Plan.ResourcePlan>, title: string, rest: (n: number) => string): ReadonlyArray<string> => {
  const one = (r: Plan.ResourcePlan): string => command(level, messageOf(r), Review.location(r), title)
  if (rs.length <= perType) return rs.map(one)
  return [...rs.slice(0, perType - 1).map(one), command(level, rest(rs.length - (perType - 1)))]
}

/**
 * A plan as workflow commands: an `error` at each resource that could not be planned, a `warning`
 * at each resource with a destructive step (see Review.destructive), a `notice` at each other
 * resource that changes or runs, each capped per type with a roll-up; then the summary line as
 * plain text.
 */
export const plan = (p: Plan.Body): string => {
  const destroying = new Set(Review.destructive(p).map((d) => d.resource))
  const changing = p.resources.filter((r) => r.steps.length > 0)
  const warnings = capped('warning', changing.filter((r) => destroying.has(r)), 'plait: destructive change', (n) => `${n} more resources with destructive steps, see the plan artifact`)
  const notices = capped('notice', changing.filter((r) => !destroying.has(r)), 'plait: change', (n) => `${n} more resources change, see the plan artifact`)
  const errors = capped('error', Plan.failures(p), 'plait: could not be planned', (n) => `${n} more resources could not be planned, see the plan artifact`)
  return [...errors, ...warnings, ...notices, summaryLine(p.summary)].join('\n') + '\n'
}
