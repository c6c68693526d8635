// Text: a `plait diff` report for a terminal: the title and summary, the hosts that fail to
// compile with their diagnostics, then each group of hosts with the same change and that change,
// resource by resource (pure; escaped; Colour.comparison colours it like a plan).
import { field as f } from '../core/Terminal.js'
import * as Grouping from './Grouping.js'
import * as Lines from './Lines.js'
import * as Report from './Report.js'
import * as Append from '../core/Append.js'

// constructors

const hostsWord = (n: number): string => `${n} host${n === 1 ? '' : 's'}`

/** The title line: the manifest, both revisions and their commits. */
export const title = (r: Report.Report): string =>
  `plait diff of ${f(r.manifest)}: ${f(r.from.rev)} (${f(r.from.commit.slice(0, 12))}) → ${f(r.to.rev)} (${f(r.to.commit.slice(0, 12))})`

/** A change group's heading: `3 hosts: same change`, `1 host`, or `2 hosts: formatting only`. */
export const groupHeading = (g: Grouping.ChangeGroup): string =>
  `${hostsWord(g.hosts.length)}${!Grouping.changes(g) ? ': formatting only' : g.hosts.length > 1 ? ': same change' : ''}`

/** A failure group's lines: its hosts, then the diagnostics at each revision that failed. */
export const failure = (g: Grouping.FailureGroup, r: Report.Report): ReadonlyArray<string> => [
  `${hostsWord(g.hosts.length)} failing at ${[g.from !== undefined ? f(r.from.rev) : undefined, g.to !== undefined ? f(r.to.rev) : undefined].filter((x) => x !== undefined).join(' and ')}:`,
  ...Lines.wrap(g.hosts, '  '),
  ...(g.from !== undefined ? [`  at ${f(r.from.rev)}:`, ...g.from.flatMap((d) => d.split('\n')).map((l) => `    ${f(l)}`)] : []),
  ...(g.to !== undefined ? [`  at ${f(r.to.rev)}:`, ...g.to.flatMap((d) => d.split('\n')).map((l) => `    ${f(l)}`)] : []),
]

/** A report as text, ending in a newline. */
export const render = (r: Report.Report): string => {
  const out: string[] = [title(r), Report.summaryLine(r), '']
  for (const g of r.grouped.failed) Append.append(out, failure(g, r)).push('')
  for (const g of r.grouped.changed) {
    out.push(`${groupHeading(g)}:`, ...Lines.wrap(g.hosts, '  '), '')
    for (const e of g.diff.entries) Append.append(out, Lines.entry(e)).push('')
    if (g.diff.formatting.length > 0) out.push('Formatting only (not a change):', ...Lines.formatting(g.diff.formatting), '')
  }
  if (r.grouped.unchanged.length > 0) out.push(`Unchanged: ${hostsWord(r.grouped.unchanged.length)}`, ...Lines.wrap(r.grouped.unchanged, '  '), '')
  if (Report.hosts(r) > 0 && Report.changing(r) === 0 && Report.failing(r) === 0) out.push('No changes. Every host compiles to the same catalog at both revisions.', '')
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out.join('\n') + '\n'
}
