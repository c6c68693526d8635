// Report: what an apply did, resource by resource, for the renderers.

/** `rolled back`: it changed, then an --atomic run undid it because a later resource failed. */
export type Outcome = 'stable' | 'changed' | 'failed' | 'skipped' | 'rolled back'

export interface ResourceReport {
  readonly id: string
  readonly outcome: Outcome
  /** What ran (changed), why it failed (failed), why it did not run (skipped). */
  readonly messages: ReadonlyArray<string>
}

export interface Report {
  readonly noop: boolean
  /** Steps a recovered unfinished run rolled back before this one started. */
  readonly recovered: ReadonlyArray<string>
  readonly resources: ReadonlyArray<ResourceReport>
  /** Steps undone because of a failure in this run. */
  readonly rolledBack: ReadonlyArray<string>
  /** Steps that ran and cannot be undone (none for files and directories). */
  readonly irreversible: ReadonlyArray<string>
  /** The generation this run recorded (docs/generations.md), or why it could not; absent when it changed nothing. */
  readonly generation?: { readonly number: number } | { readonly problem: string }
}

/** True when any resource failed. */
export const failed = (r: Report): boolean => r.resources.some((x) => x.outcome === 'failed')

/** Counts outcomes. */
export const counts = (r: Report): Readonly<Record<Outcome, number>> => {
  const c: Record<Outcome, number> = { stable: 0, changed: 0, failed: 0, skipped: 0, 'rolled back': 0 }
  for (const x of r.resources) c[x.outcome] += 1
  return c
}
