// UnifiedDiff: the difference of two texts as `diff -u` draws it (`--- from`, `+++ to`, then the
// hunks), for the plan's diffs and the review's. The one place that tells the headers from the
// hunks' lines: only what comes before the first hunk is a header, so a removed line whose text
// starts with "-- " (drawn `--- ...`) or an added "++ " (`+++ ...`) is never taken for one.
//
// The least diff is searched for only up to `editLimit` edits: the search costs about the square
// of the edits it needs (a file of 9,000 lines rewritten took 33 s to plan), and a plan or a review
// must not hang on a file. Beyond the limit the diff is `coarse`: the lines the texts share at
// their start and their end are context, and every line between them is removed and added. Both
// apply to the old text to give the new; only how many lines are shown as changed differs. The
// search is not even begun when counting the lines the texts have in common shows that it would
// need more edits than the limit.
import { createTwoFilesPatch, formatPatch, type StructuredPatch } from 'diff'

/** Lines of context around each change, as `diff -u`. */
const context = 3

/**
 * The most line edits (lines removed plus lines added) the least diff is searched for. Searching to
 * the limit took at most 1.3 s for the texts of up to 1 MiB tried (docs/performance.md).
 */
export const editLimit = 1000

/** A text's lines, each with its line break, the last maybe without one: as the diff library splits them. */
const split = (text: string): string[] => {
  const out: string[] = []
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start)
    const end = nl < 0 ? text.length : nl + 1
    out.push(text.slice(start, end))
    start = end
  }
  return out
}

/**
 * At least how many edits any diff of two texts needs (`a`, `b`: their lines): a line can be kept
 * at most as many times as both texts have it, and every other line is removed or added.
 */
const leastEdits = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const left = new Map<string, number>()
  for (const l of a) left.set(l, (left.get(l) ?? 0) + 1)
  let kept = 0
  for (const l of b) {
    const n = left.get(l)
    if (n !== undefined && n > 0) {
      left.set(l, n - 1)
      kept++
    }
  }
  return a.length + b.length - 2 * kept
}

/**
 * The diff of two texts that differ as one hunk: their shared first and last lines are kept (up to
 * `context` of each shown), every line between is removed, then every line between in the new text
 * added. Linear in the texts, whatever they are.
 */
export const coarse = (from: string, to: string, before: string, after: string): StructuredPatch => hunkOf(from, to, split(before), split(after))

/** The coarse diff of two texts given as their lines. */
const hunkOf = (from: string, to: string, a: ReadonlyArray<string>, b: ReadonlyArray<string>): StructuredPatch => {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const lead = Math.min(head, context)
  const trail = Math.min(tail, context)
  const marked = [
    ...a.slice(head - lead, head).map((l) => ' ' + l),
    ...a.slice(head, a.length - tail).map((l) => '-' + l),
    ...b.slice(head, b.length - tail).map((l) => '+' + l),
    ...a.slice(a.length - tail, a.length - tail + trail).map((l) => ' ' + l),
  ]
  // as the library draws hunk lines: without their line break, a line that has none followed by the marker
  const drawn = marked.flatMap((l) => (l.endsWith('\n') ? [l.slice(0, -1)] : [l, '\\ No newline at end of file']))
  const start = head - lead + 1
  const hunk = { oldStart: start, oldLines: lead + a.length - tail - head + trail, newStart: start, newLines: lead + b.length - tail - head + trail, lines: drawn }
  return { oldFileName: from, newFileName: to, oldHeader: '', newHeader: '', hunks: [hunk] }
}

/** The diff as the library draws it: the least one when it needs at most `limit` edits, else the coarse one. */
const draw = (from: string, to: string, before: string, after: string, limit: number): string => {
  // no more lines than characters: texts this short cannot need more edits than the limit
  if (before.length + after.length <= limit) return createTwoFilesPatch(from, to, before, after, '', '', { context })
  const a = split(before)
  const b = split(after)
  if (leastEdits(a, b) > limit) return formatPatch(hunkOf(from, to, a, b))
  return createTwoFilesPatch(from, to, before, after, '', '', { context, maxEditLength: limit }) ?? formatPatch(hunkOf(from, to, a, b))
}

/**
 * The diff's lines: the two headers (no trailing tab), then every hunk's lines as they are, and a
 * last empty line. The least diff when it needs at most `limit` edits, else the coarse one.
 */
export const lines = (from: string, to: string, before: string, after: string, limit: number = editLimit): ReadonlyArray<string> => {
  const all = draw(from, to, before, after, limit).split('\n')
  const first = all.findIndex((l) => l.startsWith('@@'))
  const headers = first < 0 ? all : all.slice(0, first)
  // before the headers, the library writes an "Index:" line and a "====" rule: left out
  const shown = headers.filter((l) => l.startsWith('--- ') || l.startsWith('+++ ')).map((l) => l.replace(/\t$/, ''))
  return first < 0 ? [...shown, ''] : [...shown, ...all.slice(first)]
}

/** The diff as one text, ending with a line break. */
export const text = (from: string, to: string, before: string, after: string, limit: number = editLimit): string => lines(from, to, before, after, limit).join('\n')
