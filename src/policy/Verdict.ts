// Verdict: whether a plan passes a policy, given the overrides a person recorded: advisory
// findings never fail it, a soft rule's findings fail it unless the rule is overridden with a
// reason, a hard rule's findings (and a rule that cannot be evaluated) always fail it.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Engine from './Engine.js'
import type * as Policy from './Policy.js'

// model

/** `--override RULE=REASON`: a soft rule waived, and why (printed and kept in the JSON report). */
export interface Override {
  readonly rule: string
  readonly reason: string
}

/** A finding with what became of it. */
export interface Judged extends Engine.Finding {
  /** The reason of the override that waived it (soft rules only). */
  readonly overridden?: string
  /** True when it fails the check. */
  readonly fails: boolean
}

export interface Verdict {
  readonly passed: boolean
  readonly findings: ReadonlyArray<Judged>
  readonly errors: ReadonlyArray<Diagnostic.Diagnostic>
  readonly overrides: ReadonlyArray<Override & { readonly used: boolean }>
  readonly rules: ReadonlyArray<Pick<Policy.Rule, 'name' | 'level' | 'message'>>
}

/** The longest override reason kept. */
export const maxReason = 1_000

// constructors

/** Reads `RULE=REASON` arguments against a policy: only soft rules can be overridden, each once, with a non-empty reason. */
export const overrides = (policy: Policy.Policy, args: ReadonlyArray<string>): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ReadonlyArray<Override>> => {
  const problems: Diagnostic.Diagnostic[] = []
  const out: Override[] = []
  const bad = (arg: string, why: string): void => {
    problems.push(Diagnostic.make('Validation', `--override ${arg.length > 120 ? `${arg.slice(0, 119)}…` : arg}: ${why}`))
  }
  for (const arg of args) {
    const eq = arg.indexOf('=')
    const rule = eq < 0 ? arg : arg.slice(0, eq)
    const reason = eq < 0 ? '' : arg.slice(eq + 1).trim()
    const r = policy.rules.find((x) => x.name === rule)
    if (eq < 0 || reason === '') bad(arg, 'expected RULE=REASON with a reason (it is recorded in the report)')
    else if (reason.length > maxReason) bad(arg, `the reason is longer than ${maxReason} characters`)
    else if (r === undefined) bad(arg, `no rule named "${rule}" in ${policy.file}`)
    else if (r.level !== 'soft') bad(arg, `rule ${rule} is ${r.level}: only soft rules can be overridden`)
    else if (out.some((o) => o.rule === rule)) bad(arg, `rule ${rule} is overridden twice`)
    else out.push({ rule, reason })
  }
  return problems.length > 0 ? E.left(problems) : E.right(out)
}

/** The verdict on a policy check's outcome with the given overrides. */
export const of = (policy: Policy.Policy, outcome: Engine.Outcome, given: ReadonlyArray<Override>): Verdict => {
  const reasons = new Map(given.map((o) => [o.rule, o.reason]))
  const findings = outcome.findings.map((f): Judged => {
    const reason = f.level === 'soft' ? reasons.get(f.rule) : undefined
    return { ...f, ...(reason !== undefined ? { overridden: reason } : {}), fails: f.level === 'hard' || (f.level === 'soft' && reason === undefined) }
  })
  const found = new Set(findings.map((f) => f.rule))
  return {
    passed: outcome.errors.length === 0 && !findings.some((f) => f.fails),
    findings,
    errors: outcome.errors,
    overrides: given.map((o) => ({ ...o, used: found.has(o.rule) })),
    rules: policy.rules.map((r) => ({ name: r.name, level: r.level, message: r.message })),
  }
}

/** Counts of findings by level, and how many of the soft ones were overridden. */
export const counts = (v: Verdict): Readonly<Record<Policy.Level, number>> & { readonly overridden: number } => ({
  advisory: v.findings.filter((f) => f.level === 'advisory').length,
  soft: v.findings.filter((f) => f.level === 'soft').length,
  hard: v.findings.filter((f) => f.level === 'hard').length,
  overridden: v.findings.filter((f) => f.overridden !== undefined).length,
})

/** The one-line summary: `policy failed: 1 hard, 2 soft (1 overridden), 0 advisory findings`. */
export const summaryLine = (v: Verdict): string => {
  const c = counts(v)
  const errors = v.errors.length > 0 ? `, ${v.errors.length} rule${v.errors.length === 1 ? '' : 's'} could not be evaluated` : ''
  return `policy ${v.passed ? 'passed' : 'failed'}: ${c.hard} hard, ${c.soft} soft (${c.overridden} overridden), ${c.advisory} advisory finding${c.hard + c.soft + c.advisory === 1 ? '' : 's'}${errors}`
}
