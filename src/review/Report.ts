// Report: the result of `plait diff`: which revisions of which manifest were compared for how many
// hosts, and the hosts' groups; its exit code, summary line and JSON document (pure).
import * as Grouping from './Grouping.js'

// model

/** A revision as asked for and the commit it named. */
export interface Revision {
  readonly rev: string
  readonly commit: string
}

export interface Report {
  /** The manifest's path, as given (relative to the repository's top when inside it). */
  readonly manifest: string
  readonly from: Revision
  readonly to: Revision
  readonly grouped: Grouping.Grouped
}

/** The exit codes: 0 no change, 2 changes (formatting-only ones are none), 1 a host failed to compile. */
export const exitCodes = { same: 0, error: 1, changes: 2 } as const

/** The version of the JSON document's shape (docs/review.md). */
export const jsonVersion = 1

// combinators

/** The number of hosts compared. */
export const hosts = (r: Report): number =>
  r.grouped.unchanged.length + r.grouped.changed.reduce((n, g) => n + g.hosts.length, 0) + r.grouped.failed.reduce((n, g) => n + g.hosts.length, 0)

/** How many hosts change something (formatting-only changes aside). */
export const changing = (r: Report): number => r.grouped.changed.filter(Grouping.changes).reduce((n, g) => n + g.hosts.length, 0)

/** How many hosts fail to compile at either revision. */
export const failing = (r: Report): number => r.grouped.failed.reduce((n, g) => n + g.hosts.length, 0)

/** The exit code: 1 when a host fails to compile, else 2 when a host changes, else 0. */
export const exitCode = (r: Report): number => (failing(r) > 0 ? exitCodes.error : changing(r) > 0 ? exitCodes.changes : exitCodes.same)

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** The summary: `Changes: 3 hosts change, 1 host unchanged, 1 host fails to compile, of 5 hosts.` */
export const summaryLine = (r: Report): string => {
  const formatting = r.grouped.changed.filter((g) => !Grouping.changes(g)).reduce((n, g) => n + g.hosts.length, 0)
  const parts = [
    `${count(changing(r), 'host changes', 'hosts change')}`,
    `${count(r.grouped.unchanged.length + formatting, 'host', 'hosts')} unchanged${formatting > 0 ? ` (${formatting} in formatting only)` : ''}`,
    ...(failing(r) > 0 ? [`${count(failing(r), 'host fails', 'hosts fail')} to compile`] : []),
  ]
  return `Changes: ${parts.join(', ')}, of ${count(hosts(r), 'host', 'hosts')}.`
}

/** The JSON document of `plait diff --json` (its shape is documented in docs/review.md). */
export const json = (r: Report): unknown => ({
  version: jsonVersion,
  manifest: r.manifest,
  from: r.from,
  to: r.to,
  hosts: hosts(r),
  exitCode: exitCode(r),
  unchanged: r.grouped.unchanged,
  changes: r.grouped.changed.map((g) => ({ hosts: g.hosts, formattingOnly: !Grouping.changes(g), entries: g.diff.entries, formatting: g.diff.formatting })),
  failures: r.grouped.failed.map((g) => ({ hosts: g.hosts, from: g.from ?? null, to: g.to ?? null })),
})
