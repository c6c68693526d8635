// Markdown: a plan as a pull-request comment or a CI job summary (GitHub-flavoured Markdown),
// always within a byte budget (pure; equal inputs, equal text).
//
// Everything from a manifest or a machine is hostile here too: names, paths, reasons and types are
// drawn inside <code> elements with every Markdown and HTML character written as an entity (so
// nothing can start emphasis, a link, a table cell, a tag or a mention), and a resource's lines go
// in a fenced block whose fence is longer than any backtick run inside (so nothing can close it).
import * as Plan from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'
import * as PlanDiff from './PlanDiff.js'
import * as Review from './Review.js'
import { summaryLine } from './render.js'

// model

/** The default budget: GitHub's limit on a pull-request comment (65,536 characters; as bytes, never more characters). */
export const defaultMaxBytes = 65_536

/** The smallest budget: room for the title, the summary line and the "more" line, whatever the names. */
export const minimumBytes = 2_048

/** Text added piece by piece while it fits a budget; `reserved` bytes are kept free for a last line. */
export interface Budget {
  readonly parts: string[]
  used: number
  readonly limit: number
}

// constructors

/** The UTF-8 length of a text in bytes. */
export const bytes = (s: string): number => {
  let n = 0
  for (const c of s) {
    const p = c.codePointAt(0)!
    n += p < 0x80 ? 1 : p < 0x800 ? 2 : p < 0x10000 ? 3 : 4
  }
  return n
}

/** A budget of `limit` bytes, less `reserved` kept for a last line. */
export const budget = (limit: number, reserved = 0): Budget => ({ parts: [], used: 0, limit: limit - reserved })

// combinators

// CommonMark's ASCII punctuation, less `.`, `,`, `/`, `;`, `?` and `%` (which start nothing inside a line).
const special = /[!"#$&'()*+\-:<=>@[\\\]^_`{|}~]/g

/**
 * Hostile text for Markdown or HTML: control characters shown visibly (Terminal.field), cut to
 * `max` characters with `…`, then every character that means something to Markdown or HTML as a
 * numeric entity (which both read as the character itself).
 */
export const escape = (s: string, max = 200): string => cut(f(s), max).replace(special, (c) => `&#${c.charCodeAt(0)};`)

/** Hostile text as inline code: a <code> element (no mention, link or emphasis inside), escaped. */
export const code = (s: string, max = 200): string => `<code>${escape(s, max)}</code>`

/** A text cut to at most `max` characters (code points), ending in `…` when it was cut. */
export const cut = (s: string, max: number): string => {
  const cs = [...s]
  return cs.length <= max ? s : cs.slice(0, Math.max(max - 1, 0)).join('') + '…'
}

/** A code fence longer than any run of backticks in the lines (and at least three), so that none of them can close it. */
export const fence = (lines: ReadonlyArray<string>): string => {
  // a loop, not Math.max(...runs): a long diff has more runs than a call takes arguments
  let longest = 0
  for (const l of lines) if (l.includes('`')) for (const run of l.matchAll(/`+/g)) longest = Math.max(longest, run[0].length)
  return '`'.repeat(Math.max(3, longest + 1))
}

/** A fenced block of lines (a language given for GitHub's highlighting). */
export const fenced = (lines: ReadonlyArray<string>, language: string): string => {
  const fc = fence(lines)
  return `${fc}${language}\n${lines.join('\n')}\n${fc}\n`
}

/** Adds a piece when it fits; true when it did. */
export const add = (b: Budget, piece: string): boolean => {
  const n = bytes(piece)
  if (b.used + n > b.limit) return false
  b.parts.push(piece)
  b.used += n
  return true
}

/**
 * Adds a list: its head, then its items while they fit, then `tail(k)` for the k items left out
 * (room for the longest tail is kept from the start). Nothing when not even the head and a tail fit.
 */
export const addList = (b: Budget, head: string, items: ReadonlyArray<string>, tail: (left: number) => string, end = '\n'): void => {
  if (items.length === 0) return
  const room = bytes(tail(items.length)) + bytes(end)
  if (b.used + bytes(head) + room > b.limit) return
  add(b, head)
  const inner: Budget = { parts: b.parts, used: b.used, limit: b.limit - room }
  let i = 0
  while (i < items.length && add(inner, items[i]!)) i++
  b.used = inner.used
  if (i < items.length) add(b, tail(items.length - i))
  add(b, end)
}

/** The words of each action, as the summary line says them. */
const actionWords: ReadonlyArray<readonly [Plan.Action, string]> = [
  ['create', 'create'],
  ['update', 'change'],
  ['delete', 'delete'],
  ['run', 'run'],
  ['none', 'unchanged'],
]

/** The "N more resources" line of what did not fit. */
export const moreLine = (n: number): string => `${n} more resource${n === 1 ? '' : 's'}, see the plan artifact.\n`

/** A resource's collapsible section: its symbol, id and manifest `file:line`, then its lines (as the text plan draws them) in a fenced block. */
export const section = (r: Plan.ResourcePlan): string => {
  const at = Review.location(r)
  const label = Plan.isSkipped(r) ? 'skipped' : Plan.isFailed(r) ? 'failed' : (actionWords.find(([a]) => a === r.action)?.[1] ?? r.action)
  return `<details><summary>${code(Plan.symbol(r.action))} ${label} ${code(r.id)} at ${code(`${cut(at.file, 120)}:${at.line}`, 140)}</summary>\n\n${fenced(Review.block(r), 'diff')}\n</details>\n\n`
}

/**
 * A plan as Markdown of at most `maxBytes` UTF-8 bytes (at least minimumBytes): the title and the
 * summary line; the destructive steps with their reasons; counts by action and by resource type;
 * then one collapsible section per resource that changes, runs or is skipped, in plan order. What
 * does not fit is cut at a resource boundary and counted in a last line "N more resources, see
 * the plan artifact." (lists and tables end in "and K more").
 */
export const plan = (p: Plan.Body & { readonly hash?: string }, maxBytes: number = defaultMaxBytes): string => {
  const sections = Review.shown(p)
  const b = budget(Math.max(maxBytes, minimumBytes), bytes(moreLine(sections.length)))
  add(b, `### plait plan of ${code(p.inputs.manifest.path, 100)}${p.root === '/' ? '' : ` (root ${code(p.root, 100)})`}\n\n**${summaryLine(p.summary)}**\n\n${p.hash !== undefined ? `Plan hash ${code(p.hash, 80)} (approve it with \`plait apply plan.json --expect HASH\`)\n\n` : ''}`)
  if (sections.length === 0) add(b, 'No changes. The machine matches the manifest.\n')
  const destructive = Review.destructive(p)
  addList(
    b,
    `#### Destructive steps (${destructive.length})\n\n`,
    destructive.map(({ resource, step }) => {
      const at = Review.location(resource)
      return `- ${code(resource.id, 120)} at ${code(`${cut(at.file, 60)}:${at.line}`, 80)}: ${code(step._tag, 40)} ${escape(step.reason, 200)}\n`
    }),
    (k) => `- and ${k} more (see the sections below or the plan artifact)\n`,
  )
  addCounts(b, p)
  let shown = 0
  if (sections.length > 0 && add(b, '#### Resources\n\n')) {
    while (shown < sections.length && add(b, section(sections[shown]!))) shown++
  }
  const left = sections.length - shown
  return b.parts.join('') + (left > 0 ? moreLine(left) : '')
}

/** The counts by action, and by resource type, as tables. */
const addCounts = (b: Budget, p: Plan.Body): void => {
  const actions = actionWords.map(([a, word]) => `| ${a === 'none' ? '' : `${code(Plan.symbol(a))} `}${word} | ${p.resources.filter((r) => r.action === a).length} |\n`)
  addList(b, '| Action | Resources |\n|:--|--:|\n', actions, (k) => `| and ${k} more | |\n`)
  const types = [...new Set(p.resources.map((r) => r.type))]
  const rows = types.map((t) => `| ${code(t, 60)} | ${actionWords.map(([a]) => p.resources.filter((r) => r.type === t && r.action === a).length).join(' | ')} |\n`)
  addList(b, `| Type | ${actionWords.map(([, w]) => w).join(' | ')} |\n|:--|${actionWords.map(() => '--:').join('|')}|\n`, rows, (k) => `| and ${k} more types |${actionWords.map(() => ' ').join('|')}|\n`)
}

/** A comparison entry's collapsible section: its symbol and id, then its step differences in a fenced block. */
export const comparisonSection = (e: PlanDiff.Entry): string => {
  const at = Review.location(e)
  const word = e._tag === 'Added' ? 'only in the new plan' : e._tag === 'Removed' ? 'only in the approved plan' : 'changed'
  return `<details><summary>${code(PlanDiff.symbol(e))} ${word}: ${code(e.id)} at ${code(`${cut(at.file, 120)}:${at.line}`, 140)}</summary>\n\n${fenced(PlanDiff.block(e), 'diff')}\n</details>\n\n`
}

/**
 * A comparison of two plans (PlanDiff) as Markdown of at most `maxBytes` bytes: the title, both
 * hashes, notes and the summary line, then one section per resource that differs; what does not
 * fit is cut at a resource boundary and counted in the last line.
 */
export const comparison = (c: PlanDiff.Comparison, maxBytes: number = defaultMaxBytes): string => {
  const b = budget(Math.max(maxBytes, minimumBytes), bytes(moreLine(c.entries.length)))
  add(b, `### plait plan comparison of ${code(c.manifest, 100)}${c.root === '/' ? '' : ` (root ${code(c.root, 100)})`}\n\napproved ${code(c.approved, 80)}, new ${code(c.current, 80)}\n\n**${PlanDiff.summaryLine(c)}**\n\n`)
  if (PlanDiff.isSame(c)) add(b, 'No differences: the new plan plans the same steps as the approved one.\n')
  addList(b, '', c.notes.map((n) => `- ${escape(n, 300)}\n`), (k) => `- and ${k} more notes\n`)
  let shown = 0
  while (shown < c.entries.length && add(b, comparisonSection(c.entries[shown]!))) shown++
  const left = c.entries.length - shown
  return b.parts.join('') + (left > 0 ? moreLine(left) : '')
}
