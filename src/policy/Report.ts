// Report: a policy verdict as text for a terminal and as JSON (pure). Every finding is drawn at
// its manifest `file:line:col`; every name, message and reason from a policy or a plan is hostile
// and escaped (Terminal.field) before it reaches a terminal.
import * as Diagnostic from '../core/Diagnostic.js'
import * as Position from '../core/Position.js'
import { field as f } from '../core/Terminal.js'
import * as Verdict from './Verdict.js'

/** The text report: one line per finding (`file:line:col: level: rule: message`), the overrides, rule errors, then the summary line. */
export const text = (v: Verdict.Verdict): string => {
  const lines: string[] = []
  for (const x of v.findings) {
    const state = x.overridden !== undefined ? ' (overridden)' : ''
    lines.push(`${f(Position.render(x.at))}: ${x.level}${state}: ${f(x.rule)}: ${f(x.message)}${x.resource !== undefined ? ` [${f(x.resource)}]` : ''}`)
  }
  for (const o of v.overrides) lines.push(`override: ${f(o.rule)} (soft): ${f(o.reason)}${o.used ? '' : ' (no finding needed it)'}`)
  for (const e of v.errors) lines.push(Diagnostic.render(e).replace(/\n$/, ''))
  lines.push(Verdict.summaryLine(v))
  return lines.join('\n') + '\n'
}

/** The JSON report: the verdict, every finding with its position and level, the overrides with their reasons, the errors. */
export const json = (v: Verdict.Verdict, policy: string, plan: string | undefined): unknown => ({
  format: 'plait.policy-report/1',
  policy,
  plan: plan ?? null,
  passed: v.passed,
  counts: Verdict.counts(v),
  findings: v.findings.map((x) => ({
    rule: x.rule,
    level: x.level,
    message: x.message,
    file: x.at.file,
    line: x.at.line,
    col: x.at.col,
    resource: x.resource ?? null,
    fails: x.fails,
    overridden: x.overridden ?? null,
  })),
  overrides: v.overrides.map((o) => ({ rule: o.rule, reason: o.reason, used: o.used })),
  errors: v.errors.map((e) => ({ message: e.message, file: e.at?.file ?? null, line: e.at?.line ?? null, col: e.at?.col ?? null })),
})
