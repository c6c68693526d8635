// Review: a policy verdict for a pull request (pure): Markdown within a byte budget, as `plait
// show --format markdown` is, and GitHub workflow annotations at the manifest lines, capped per
// level with a roll-up as `plait show --format github` is. Hostile text is escaped by the same
// helpers (cli/Markdown.ts, cli/Github.ts).
import * as Github from '../cli/Github.js'
import * as Markdown from '../cli/Markdown.js'
import { field as f } from '../core/Terminal.js'
import * as Verdict from './Verdict.js'
import * as Append from '../core/Append.js'

const moreLine = (n: number): string => `${n} more finding${n === 1 ? '' : 's'}, see the JSON or SARIF report.\n`

/** The verdict as Markdown of at most `maxBytes` UTF-8 bytes: the verdict line, overrides with their reasons, then a table row per finding; what does not fit is counted in the last line. */
export const markdown = (v: Verdict.Verdict, policy: string, maxBytes: number = Markdown.defaultMaxBytes): string => {
  const b = Markdown.budget(Math.max(maxBytes, Markdown.minimumBytes), Markdown.bytes(moreLine(v.findings.length)))
  Markdown.add(b, `### plait policy ${Markdown.code(policy, 100)}: ${v.passed ? 'passed' : '**failed**'}\n\n${Verdict.summaryLine(v)}\n\n`)
  Markdown.addList(
    b,
    '#### Overrides\n\n',
    v.overrides.map((o) => `- ${Markdown.code(o.rule, 100)} (soft): ${Markdown.escape(o.reason, 300)}${o.used ? '' : ' (no finding needed it)'}\n`),
    (k) => `- and ${k} more overrides\n`,
  )
  Markdown.addList(b, '#### Rules that could not be evaluated\n\n', v.errors.map((e) => `- ${Markdown.escape(e.message, 300)}\n`), (k) => `- and ${k} more\n`)
  let shown = 0
  if (v.findings.length > 0 && Markdown.add(b, '| Level | Rule | Where | Message |\n|:--|:--|:--|:--|\n')) {
    while (shown < v.findings.length) {
      const x = v.findings[shown]!
      const level = `${x.level}${x.overridden !== undefined ? ' (overridden)' : x.fails ? ' (fails)' : ''}`
      const row = `| ${level} | ${Markdown.code(x.rule, 100)} | ${Markdown.code(`${Markdown.cut(x.at.file, 100)}:${x.at.line}`, 120)} | ${Markdown.escape(x.message, 300)} |\n`
      if (!Markdown.add(b, row)) break
      shown++
    }
  }
  const left = v.findings.length - shown
  return b.parts.join('') + (left > 0 ? moreLine(left) : '')
}

/** The GitHub level of a finding: error when it fails the check, warning for an overridden soft one, notice for advisory. */
const levelOf = (x: Verdict.Judged): 'error' | 'warning' | 'notice' => (x.fails ? 'error' : x.level === 'soft' ? 'warning' : 'notice')

/** The verdict as workflow commands: one annotation per finding at its manifest line, at most Github.perType per level (the last a roll-up), then the summary line. */
export const github = (v: Verdict.Verdict): string => {
  const out: string[] = []
  for (const level of ['error', 'warning', 'notice'] as const) {
    const xs = v.findings.filter((x) => levelOf(x) === level)
    const one = (x: Verdict.Judged): string => {
      const why = x.overridden !== undefined ? ` (overridden: ${x.overridden})` : ''
      const message = `${f(x.rule)} (${x.level}): ${f(x.message)}${f(why)}`
      return Github.command(level, message.length <= Github.maxMessage ? message : `${message.slice(0, Github.maxMessage - 1)}…`, { file: f(x.at.file), line: x.at.line }, `plait policy: ${f(x.rule)}`)
    }
    if (xs.length <= Github.perType) Append.append(out, xs.map(one))
    else out.push(...xs.slice(0, Github.perType - 1).map(one), Github.command(level, `${xs.length - (Github.perType - 1)} more ${level} findings, see the JSON or SARIF report`))
  }
  for (const e of v.errors) out.push(Github.command('error', f(e.message), e.at !== undefined ? { file: f(e.at.file), line: e.at.line } : undefined, 'plait policy: rule error'))
  for (const o of v.overrides) out.push(`override: ${Github.escapeData(f(o.rule))} (soft): ${Github.escapeData(f(o.reason))}`)
  return [...out, Verdict.summaryLine(v)].join('\n') + '\n'
}
