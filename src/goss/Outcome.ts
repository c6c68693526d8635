// Outcome: what checking goss rules found (pure): each rule's probe result against its checks,
// the failures named (kind, name, attribute, expected and actual, escaped for a terminal), and
// the health check's status: OK when every check passes, CRITICAL otherwise.
import * as Terminal from '../core/Terminal.js'
import type * as Health from '../types/Health.js'
import * as M from './Matcher.js'
import type { Rule } from './Rules.js'

// model

/** What a probe found of one rule's resource: each attribute's actual value (undefined: not there), or why it could not look. */
export type Observed = { readonly _tag: 'Observed'; readonly values: Readonly<Record<string, M.Json | undefined>> } | { readonly _tag: 'Failed'; readonly reason: string }

/** One check that did not pass. */
export interface Failure {
  readonly kind: string
  readonly name: string
  readonly attribute: string
  readonly expected: string
  readonly actual: string
}

/** The most characters of one actual value a message shows. */
export const maxShown = 200
/** The most failures a message names (the count says how many more). */
export const maxNamed = 20

// evaluation

const shown = (v: M.Json | undefined): string => {
  if (v === undefined) return 'nothing (not there)'
  const s = JSON.stringify(v)
  return s.length > maxShown ? `${s.slice(0, maxShown)}… (${s.length} characters)` : s
}

/** The failed checks of one rule, given what its probe found. */
export const failures = (rule: Rule, observed: Observed): ReadonlyArray<Failure> =>
  rule.checks.flatMap((c) => {
    const base = { kind: rule.kind, name: rule.name, attribute: c.attribute, expected: M.render(c.matcher) }
    if (observed._tag === 'Failed') return [{ ...base, actual: `could not be checked: ${observed.reason}` }]
    const actual = observed.values[c.attribute]
    if (actual !== undefined && M.matches(c.matcher, actual)) return []
    if (actual !== undefined && c.matcher._tag === 'Patterns' && typeof actual === 'string') return [{ ...base, expected: `patterns ${JSON.stringify(M.failedPatterns(c.matcher.patterns, actual))}`, actual: `no match in ${shown(actual)}` }]
    return [{ ...base, actual: shown(actual) }]
  })

/** One failure for people: `file "/etc/motd" mode: expected "0644", got "0600"`, every control character visible. */
export const render = (f: Failure): string => Terminal.field(`${f.kind} ${JSON.stringify(f.name)} ${f.attribute}: expected ${f.expected}, got ${f.actual}`)

/** The health check's status and message for rules and what their probes found (in the same order). */
export const summarize = (rules: ReadonlyArray<Rule>, observed: ReadonlyArray<Observed>): { readonly status: Health.Status; readonly message: string; readonly failures: ReadonlyArray<Failure> } => {
  const all = rules.flatMap((r, i) => failures(r, observed[i] ?? { _tag: 'Failed', reason: 'not probed' }))
  const checks = rules.reduce((n, r) => n + r.checks.length, 0)
  if (all.length === 0) return { status: 'OK', message: `goss: ${checks} check${checks === 1 ? '' : 's'} of ${rules.length} rule${rules.length === 1 ? '' : 's'} passed`, failures: all }
  const named = all.slice(0, maxNamed).map(render).join('; ')
  const more = all.length > maxNamed ? `; and ${all.length - maxNamed} more` : ''
  return { status: 'CRITICAL', message: `goss: ${all.length} of ${checks} checks failed: ${named}${more}`, failures: all }
}
