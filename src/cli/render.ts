// render: plans, reports and diagnostics drawn as terminal text (pure; equal inputs, equal text).
import * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'
import * as Report from '../executor/Report.js'
import * as Registry from '../types/registry.js'
import * as Append from '../core/Append.js'

/** The summary line of a plan. */
export const summaryLine = (s: Plan.Summary): string =>
  `Plan: ${s.create} to create, ${s.update} to change, ${s.delete} to delete, ${s.run !== undefined ? `${s.run} to run, ` : ''}${s.unchanged} unchanged${s.failed !== undefined ? `, ${s.failed} failed` : ''}.`

// Every name, value, message and content line is drawn with `f` (Terminal.field), so that nothing
// a manifest, a machine or a provider supplies can add a line or a terminal control to the review.
// Each resource's block is drawn by its type (see src/types/Render.ts).

/** Draws a plan: one block per resource that changes, then the summary line. */
export const plan = (p: Plan.Plan, options: { readonly verbose?: boolean } = {}): string => {
  const lines: string[] = [`plait plan of ${f(p.inputs.manifest.path)}${p.root === '/' ? '' : ` (root ${f(p.root)})`}`, '']
  for (const r of p.resources) {
    if (Plan.isSkipped(r)) lines.push(`  ${f(r.id)}: skipped: ${f(r.skipped)}`, '')
    else if (Plan.isFailed(r)) lines.push(failedLine(r), '')
    else Append.append(lines, Registry.ofKind(r.kind).render(r, { verbose: options.verbose === true }))
  }
  if (Registry.isEmpty(p) && p.summary.failed === undefined) lines.push('No changes. The machine matches the manifest.', '')
  lines.push(summaryLine(p.summary))
  return lines.join('\n') + '\n'
}

/** A resource that could not be planned, as the plan shows it. */
const failedLine = (r: Plan.ResourcePlan & { readonly failed: string }): string => `  ${f(r.id)}: failed: ${f(r.failed)}`

/** How many other resources a reason several share names on its error line: the rest are counted. */
export const maxNamed = 20

/**
 * The error lines of a plan's resources that could not be planned (nothing when there are none),
 * for stderr: one per reason, at the first resource it fails (a reason shared by several, such as
 * a provider that cannot list, is said once, naming the next maxNamed and counting the rest).
 */
export const failures = (p: Plan.Plan): string => {
  const failed = Plan.failures(p)
  if (failed.length === 0) return ''
  const byReason = new Map<string, Array<Plan.ResourcePlan & { readonly failed: string }>>()
  for (const r of failed) {
    const same = byReason.get(r.failed)
    if (same === undefined) byReason.set(r.failed, [r])
    else same.push(r)
  }
  const lines = [...byReason].map(([reason, all]) => {
    const first = all[0]!
    const others = all.slice(1, 1 + maxNamed).map((o) => f(o.id))
    if (all.length > 1 + maxNamed) others.push(`and ${all.length - 1 - maxNamed} more`)
    return `error: ${f(first.at)}: ${f(first.id)}${others.length > 0 ? ` (and ${others.join(', ')})` : ''}: ${f(reason)}`
  })
  lines.push(`error: ${failed.length} resource${failed.length === 1 ? '' : 's'} could not be planned; the rest of the plan stands, and apply fails ${failed.length === 1 ? 'it' : 'them'} (what requires ${failed.length === 1 ? 'it' : 'them'} is skipped)`)
  return lines.join('\n') + '\n'
}

/** Draws an apply report: one line per resource, then a summary (recovered steps are printed as they happen). */
export const report = (r: Report.Report): string => {
  const lines: string[] = []
  const width = r.resources.reduce((w, x) => Math.max(w, x.outcome.length), 7)
  for (const x of r.resources) {
    const head = `${x.outcome.padEnd(width)}  ${f(x.id)}`
    lines.push(x.messages.length === 0 ? head : `${head}: ${f(x.messages[0]!)}`)
    for (const m of x.messages.slice(1)) lines.push(`${' '.repeat(width + 2)}  ${f(m)}`)
  }
  if (r.rolledBack.length > 0) {
    lines.push('', 'Rolled back:')
    for (const x of r.rolledBack) lines.push(`  ${f(x)}`)
  }
  if (r.irreversible.length > 0) {
    lines.push('', 'Ran and cannot be undone:')
    for (const x of r.irreversible) lines.push(`  ${f(x)}`)
  }
  const c = Report.counts(r)
  const parts = [`${c.changed} ${r.noop ? 'would change' : 'changed'}`, `${c.stable} stable`, `${c.failed} failed`, `${c.skipped} skipped`]
  if (c['rolled back'] > 0) parts.push(`${c['rolled back']} rolled back`)
  lines.push('', `${r.noop ? 'Apply (noop)' : 'Apply'}: ${parts.join(', ')}.`)
  if (r.generation !== undefined) lines.push('number' in r.generation ? `Recorded generation ${r.generation.number} (plait history; plait rollback --to ${r.generation.number - 1} undoes it).` : `warning: ${f(r.generation.problem)}`)
  return lines.join('\n') + '\n'
}

/** Draws warnings (problems that do not stop the run), one per paragraph. */
export const warnings = (ds: ReadonlyArray<Diagnostic.Diagnostic>): string => ds.map(Diagnostic.renderWarning).join('\n') + '\n'

/** Draws diagnostics, one per paragraph. */
export const diagnostics = (ds: ReadonlyArray<Diagnostic.Diagnostic>): string => ds.map(Diagnostic.render).join('\n') + '\n'
