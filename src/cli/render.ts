// render: plans, reports and diagnostics drawn as terminal text (pure; equal inputs, equal text).
import * as Deferred from '../core/Deferred.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import type { Step } from '../core/Step.js'
import * as Report from '../executor/Report.js'
import * as LibralValue from '../libral/Value.js'
import { field as f } from '../core/Terminal.js'

/** The summary line of a plan. */
export const summaryLine = (s: Plan.Summary): string =>
  `Plan: ${s.create} to create, ${s.update} to change, ${s.delete} to delete, ${s.run !== undefined ? `${s.run} to run, ` : ''}${s.unchanged} unchanged.`

// Every name, value, message and content line is drawn with `f` (Terminal.field), so that nothing
// a manifest, a machine or a provider supplies can add a line or a terminal control to the review.
const indent = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n')

/** A content diff, each of its lines escaped on its own (the diff's own newlines are kept). */
const diffLines = (diff: string): string =>
  diff
    .replace(/\n+$/, '')
    .split('\n')
    .map(f)
    .join('\n')

const stepLines = (s: Step): string[] => {
  const head = s._tag === 'libral.update' ? `${s._tag} (${f(s.provider)}): ${f(s.reason)}` : `${s._tag}: ${f(s.reason)}`
  const out = [head]
  if (s._tag === 'libral.update') for (const c of s.changes) out.push(`  ${f(c.attr)}: ${c.was === undefined ? '' : `${f(LibralValue.render(c.was))} `}→ ${f(LibralValue.render(c.is))}`)
  if (s._tag === 'file.write') {
    if (s.diff !== undefined && s.diff.trim() !== '') out.push(indent(diffLines(s.diff), '  '))
    else if (s.content.encoding === 'base64') out.push(`  (binary content, ${s.content.size} bytes, sha256 ${f(s.content.sha256.slice(0, 12))})`)
    else if (s.content.size === 0) out.push('  (empty file)')
    else if (s.diff === undefined) out.push(`  (content not shown: ${s.content.size} bytes, sha256 ${f(s.content.sha256.slice(0, 12))})`)
  }
  return out
}

/** Draws a plan: one block per resource that changes, then the summary line. */
export const plan = (p: Plan.Plan, options: { readonly verbose?: boolean } = {}): string => {
  const lines: string[] = [`plait plan of ${f(p.inputs.manifest.path)}${p.root === '/' ? '' : ` (root ${f(p.root)})`}`, '']
  for (const r of p.resources) {
    if (Plan.isSkipped(r)) {
      lines.push(`  ${f(r.id)}: skipped: ${f(r.skipped)}`, '')
      continue
    }
    if (Plan.isDeferred(r)) {
      lines.push(`${Plan.symbol(r.action)} ${f(r.id)}`, `    was: ${f(r.observed.summary)}`, `    (${f(Deferred.describe(r.deferred))})`, '')
      continue
    }
    if (Plan.isExec(r)) {
      // Commands are always listed: whether one runs is what a reviewer wants to see.
      const s = r.steps[0]
      if (r.deferred !== undefined) {
        lines.push(`${Plan.symbol(r.action)} ${f(r.id)}\n    (${f(r.observed.summary)})`, '')
        continue
      }
      lines.push(s === undefined ? `  ${f(r.id)}: ${f(r.observed.summary)}` : `${Plan.symbol(r.action)} ${f(r.id)}\n    exec.run (${f(s.provider)}): ${f(s.line)}\n      ${f(r.observed.summary)}`, '')
      continue
    }
    if (r.steps.length === 0) {
      if (options.verbose === true) lines.push(`  ${f(r.id)}: unchanged (${f(r.observed.summary)})`, '')
      continue
    }
    lines.push(`${Plan.symbol(r.action)} ${f(r.id)}`)
    lines.push(`    was: ${f(r.observed.summary)}`)
    for (const s of r.steps) lines.push(indent(stepLines(s).join('\n'), '    '))
    lines.push('')
  }
  if (Plan.isEmpty(p)) lines.push('No changes. The machine matches the manifest.', '')
  lines.push(summaryLine(p.summary))
  return lines.join('\n') + '\n'
}

/** Draws an apply report: one line per resource, then a summary (recovered steps are printed as they happen). */
export const report = (r: Report.Report): string => {
  const lines: string[] = []
  const width = Math.max(...r.resources.map((x) => x.outcome.length), 7)
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
  return lines.join('\n') + '\n'
}

/** Draws warnings (problems that do not stop the run), one per paragraph. */
export const warnings = (ds: ReadonlyArray<Diagnostic.Diagnostic>): string => ds.map(Diagnostic.renderWarning).join('\n') + '\n'

/** Draws diagnostics, one per paragraph. */
export const diagnostics = (ds: ReadonlyArray<Diagnostic.Diagnostic>): string => ds.map(Diagnostic.render).join('\n') + '\n'
