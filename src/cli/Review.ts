// Review: what the review renderers (markdown, GitHub annotations) read of a plan: which
// resources a reviewer is shown, which steps destroy something, and where in the manifest a
// resource was declared (pure).
import * as Plan from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'
import * as Registry from '../types/registry.js'

// model

/** A manifest position as a reviewer needs it: the file and the line. */
export interface Location {
  readonly file: string
  readonly line: number
}

/** A step that destroys or stops something, with its resource. */
export interface Destructive {
  readonly resource: Plan.ResourcePlan
  readonly step: Plan.Step
}

/** The step verbs (the part of a tag after its family) that destroy or stop something. */
export const destructiveVerbs: ReadonlySet<string> = new Set(['remove', 'delete', 'purge', 'uninstall', 'stop', 'disable'])

// constructors

/** Where a resource was declared: its `at` (`file:line:col`) as file and line; line 1 of `at` when it has no position. */
export const location = (r: Pick<Plan.ResourcePlan, 'at'>): Location => {
  const m = /^(.*):([0-9]+):[0-9]+$/s.exec(r.at)
  return m === null ? { file: r.at, line: 1 } : { file: m[1]!, line: Math.max(Number(m[2]), 1) }
}

/** The lines the text plan draws for a resource (none for an unchanged one), escaped as there, without its trailing empty line. */
export const block = (r: Plan.ResourcePlan): ReadonlyArray<string> => {
  const lines = Plan.isSkipped(r) ? [`  ${f(r.id)}: skipped: ${f(r.skipped)}`] : Plan.isFailed(r) ? [`  ${f(r.id)}: failed: ${f(r.failed)}`] : [...Registry.ofKind(r.kind).render(r, { verbose: false })]
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** The resources a reviewer is shown one by one: those that change, run, are skipped or could not be planned (the text plan's blocks). */
export const shown = (p: Plan.Body): ReadonlyArray<Plan.ResourcePlan> => p.resources.filter((r) => block(r).length > 0)

/** Every destructive step of a plan, in plan order: a step of a resource being deleted, or one whose verb destroys or stops (destructiveVerbs). */
export const destructive = (p: Plan.Body): ReadonlyArray<Destructive> =>
  p.resources.flatMap((r) => r.steps.filter((s) => r.action === 'delete' || destructiveVerbs.has(verbOf(s._tag))).map((step) => ({ resource: r, step })))

/** True when a plan changes something (a step to run): what `--detailed-exitcode` exits 2 for. */
export const changes = (p: Plan.Body): boolean => p.resources.some((r) => r.steps.length > 0)

/** The verb of a step tag: `file.remove` → `remove`. */
const verbOf = (tag: string): string => tag.slice(tag.lastIndexOf('.') + 1)
