// render: plans, reports and diagnostics drawn as terminal text (pure; equal inputs, equal text).
import * as Deferred from '../core/Deferred.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import type { Step } from '../core/Step.js'
import * as Report from '../executor/Report.js'
import * as LibralValue from '../libral/Value.js'

/** The summary line of a plan. */
export const summaryLine = (s: Plan.Summary): string =>
  `Plan: ${s.create} to create, ${s.update} to change, ${s.delete} to delete, ${s.run !== undefined ? `${s.run} to run, ` : ''}${s.unchanged} unchanged.`

const indent = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n')

const stepLines = (s: Step): string[] => {
  const head = s._tag === 'libral.update' ? `${s._tag} (${s.provider}): ${s.reason}` : `${s._tag}: ${s.reason}`
  const out = [head]
  if (s._tag === 'libral.update') for (const c of s.changes) out.push(`  ${c.attr}: ${c.was === undefined ? '' : `${LibralValue.render(c.was)} `}→ ${LibralValue.render(c.is)}`)
  if (s._tag === 'file.write') {
    if (s.diff !== undefined && s.diff.trim() !== '') out.push(indent(s.diff.replace(/\n+$/, ''), '  '))
    else if (s.content.encoding === 'base64') out.push(`  (binary content, ${s.content.size} bytes, sha256 ${s.content.sha256.slice(0, 12)})`)
    else if (s.content.size === 0) out.push('  (empty file)')
    else if (s.diff === undefined) out.push(`  (content not shown: ${s.content.size} bytes, sha256 ${s.content.sha256.slice(0, 12)})`)
  }
  return out
}

/** Draws a plan: one block per resource that changes, then the summary line. */
export const plan = (p: Plan.Plan, options: { readonly verbose?: boolean } = {}): string => {
  const lines: string[] = [`plait plan of ${p.inputs.manifest.path}${p.root === '/' ? '' : ` (root ${p.root})`}`, '']
  for (const r of p.resources) {
    if (Plan.isSkipped(r)) {
      lines.push(`  ${r.id}: skipped: ${r.skipped}`, '')
      continue
    }
    if (Plan.isDeferred(r)) {
      lines.push(`${Plan.symbol(r.action)} ${r.id}`, `    was: ${r.observed.summary}`, `    (${Deferred.describe(r.deferred)})`, '')
      continue
    }
    if (Plan.isExec(r)) {
      // Commands are always listed: whether one runs is what a reviewer wants to see.
      const s = r.steps[0]
      if (r.deferred !== undefined) {
        lines.push(`${Plan.symbol(r.action)} ${r.id}\n    (${r.observed.summary})`, '')
        continue
      }
      lines.push(s === undefined ? `  ${r.id}: ${r.observed.summary}` : `${Plan.symbol(r.action)} ${r.id}\n    exec.run (${s.provider}): ${s.line}\n      ${r.observed.summary}`, '')
      continue
    }
    if (r.steps.length === 0) {
      if (options.verbose === true) lines.push(`  ${r.id}: unchanged (${r.observed.summary})`, '')
      continue
    }
    lines.push(`${Plan.symbol(r.action)} ${r.id}`)
    lines.push(`    was: ${r.observed.summary}`)
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
    const head = `${x.outcome.padEnd(width)}  ${x.id}`
    lines.push(x.messages.length === 0 ? head : `${head}: ${x.messages[0]}`)
    for (const m of x.messages.slice(1)) lines.push(`${' '.repeat(width + 2)}  ${m}`)
  }
  if (r.rolledBack.length > 0) {
    lines.push('', 'Rolled back:')
    for (const x of r.rolledBack) lines.push(`  ${x}`)
  }
  if (r.irreversible.length > 0) {
    lines.push('', 'Ran and cannot be undone:')
    for (const x of r.irreversible) lines.push(`  ${x}`)
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
