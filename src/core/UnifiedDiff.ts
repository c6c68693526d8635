// UnifiedDiff: the difference of two texts as `diff -u` draws it (`--- from`, `+++ to`, then the
// hunks), for the plan's diffs and the review's. The one place that tells the headers from the
// hunks' lines: only what comes before the first hunk is a header, so a removed line whose text
// starts with "-- " (drawn `--- ...`) or an added "++ " (`+++ ...`) is never taken for one.
import { createTwoFilesPatch } from 'diff'

/** The diff's lines: the two headers (no trailing tab), then every hunk's lines as they are, and a last empty line. */
export const lines = (from: string, to: string, before: string, after: string): ReadonlyArray<string> => {
  const all = createTwoFilesPatch(from, to, before, after, '', '', { context: 3 }).split('\n')
  const first = all.findIndex((l) => l.startsWith('@@'))
  const headers = first < 0 ? all : all.slice(0, first)
  // before the headers, createTwoFilesPatch writes an "Index:" line and a "====" rule: left out
  const shown = headers.filter((l) => l.startsWith('--- ') || l.startsWith('+++ ')).map((l) => l.replace(/\t$/, ''))
  return first < 0 ? [...shown, ''] : [...shown, ...all.slice(first)]
}

/** The diff as one text, ending with a line break. */
export const text = (from: string, to: string, before: string, after: string): string => lines(from, to, before, after).join('\n')
