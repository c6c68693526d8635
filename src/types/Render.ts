// Render: the pieces of `plait plan`'s output every resource type draws its block with (pure).
// Every name, value, message and content line is drawn with `f` (Terminal.field), so that nothing
// a manifest, a machine or a provider supplies can add a line or a terminal control to the review.
import type * as Plan from '../core/Plan.js'
import * as PlanM from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'

/** Indents every non-empty line of a text. */
export const indent = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n')

/** A content diff, each of its lines escaped on its own (the diff's own newlines are kept). */
export const diffLines = (diff: string): string =>
  diff
    .replace(/\n+$/, '')
    .split('\n')
    .map(f)
    .join('\n')

/** The symbol of an action. */
export const symbol = PlanM.symbol

/** A step's first line: its tag (and what runs it, when given) and why it is needed. */
export const stepHead = (s: Plan.Step, runBy?: string): string => `${s._tag}${runBy === undefined ? '' : ` (${f(runBy)})`}: ${f(s.reason)}`

/**
 * The block of a resource with steps: its symbol and id, what was observed, then each step's lines;
 * an unchanged one only with `verbose`. Ends with an empty line.
 */
export const changes = (r: Plan.ResourcePlan & { readonly observed: Plan.Observed }, stepLines: (s: Plan.Step) => ReadonlyArray<string>, verbose: boolean): ReadonlyArray<string> => {
  if (r.steps.length === 0) return verbose ? [`  ${f(r.id)}: unchanged (${f(r.observed.summary)})`, ''] : []
  return [`${PlanM.symbol(r.action)} ${f(r.id)}`, `    was: ${f(r.observed.summary)}`, ...r.steps.map((s) => indent(stepLines(s).join('\n'), '    ')), '']
}
