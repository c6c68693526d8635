// Markdown: a `plait diff` report as a pull-request comment or a CI job summary, within the byte
// budget of `plait show --format markdown` and with its escaping (cli/Markdown's budget, code and
// fence helpers): the summary first, the hosts that fail to compile, then each group of hosts with
// the same change and a collapsible section per resource (pure; equal inputs, equal text).
import * as Budget from '../cli/Markdown.js'
import type * as CatalogDiff from './CatalogDiff.js'
import * as Grouping from './Grouping.js'
import * as Lines from './Lines.js'
import * as Report from './Report.js'
import * as Text from './Text.js'

const { add, addList, code, cut, fenced } = Budget

/** The last line for what did not fit. */
export const moreLine = (n: number): string => `${n} more resource${n === 1 ? '' : 's'}, see the JSON report (\`plait diff --json\`).\n`

/** An entry's collapsible section: symbol, id and manifest `file:line`, then its lines in a fenced diff block. */
export const section = (e: CatalogDiff.Entry): string => {
  const word = e._tag === 'Added' ? 'added' : e._tag === 'Removed' ? 'removed' : 'changed'
  const body = Lines.body(e).map((l) => cut(l, 400))
  return `<details><summary>${code(Lines.symbol(e))} ${word} ${code(e.id)} at ${code(cut(e.at, 140), 140)}</summary>\n\n${fenced(body.length > 0 ? body : ['(no properties)'], 'diff')}\n</details>\n\n`
}

/** A failure group: its hosts, then its diagnostics (at most 40 lines per revision) in a collapsible fenced block. */
const failure = (g: Grouping.FailureGroup, r: Report.Report): string => {
  const lines = Text.failure(g, r).slice(1).flatMap((l, i, all) => (i < 40 || i === all.length - 1 ? [cut(l, 300)] : i === 40 ? ['  …'] : []))
  return `<details><summary>${g.hosts.length} host${g.hosts.length === 1 ? '' : 's'}: ${g.hosts.slice(0, 5).map((h) => code(h, 60)).join(', ')}${g.hosts.length > 5 ? `, and ${g.hosts.length - 5} more` : ''}</summary>\n\n${fenced(lines, 'text')}\n</details>\n\n`
}

/**
 * A report as Markdown of at most `maxBytes` UTF-8 bytes (at least Budget.minimumBytes): the
 * title, the summary line, the failing hosts, then each group of hosts with its change; what does
 * not fit is cut at a resource boundary and counted in the last line.
 */
export const render = (r: Report.Report, maxBytes: number = Budget.defaultMaxBytes): string => {
  const total = r.grouped.changed.reduce((n, g) => n + g.diff.entries.length, 0)
  const b = Budget.budget(Math.max(maxBytes, Budget.minimumBytes), Budget.bytes(moreLine(Math.max(total, 1))))
  add(b, `### plait diff of ${code(r.manifest, 100)}: ${code(r.from.rev, 40)} → ${code(r.to.rev, 40)}\n\n`)
  add(b, `**${Report.summaryLine(r)}**\n\n`)
  if (Report.hosts(r) > 0 && Report.changing(r) === 0 && Report.failing(r) === 0) add(b, 'No changes: every host compiles to the same catalog at both revisions.\n\n')
  addList(b, `#### Hosts that fail to compile (${Report.failing(r)})\n\n`, r.grouped.failed.map((g) => failure(g, r)), (k) => `and ${k} more groups of failing hosts\n`)
  let shown = 0
  let stopped = false
  for (const g of r.grouped.changed) {
    if (stopped) break
    const hosts = g.hosts.map((h) => `${code(h, 60)} `)
    if (!add(b, `#### ${Text.groupHeading(g)}\n\n`)) break
    addList(b, '', hosts, (k) => `and ${k} more\n`, '\n\n')
    for (const e of g.diff.entries) {
      if (!add(b, section(e))) {
        stopped = true
        break
      }
      shown++
    }
    if (!stopped && g.diff.formatting.length > 0) {
      addList(b, 'Formatting only (the same data, not a change):\n\n', g.diff.formatting.map((x) => `- ${code(x.id, 120)} ${code(x.path, 60)} (${x.format})\n`), (k) => `- and ${k} more\n`)
    }
  }
  const left = total - shown
  return b.parts.join('') + (left > 0 ? moreLine(left) : '')
}
