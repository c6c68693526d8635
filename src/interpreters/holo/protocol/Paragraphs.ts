// Paragraphs: how Holo 3 lays out its output in paragraphs. One tracker is shared by stdout and
// stderr: before the first text written through it, a newline goes to stdout; it counts the
// newlines the output ends with; ending a paragraph (after output) writes newlines until the
// output ends in a blank line. Text Holo writes past the tracker (`scan --short`, diffs) is not
// counted. A pure state machine: each step returns the writes to make.

// model

/** A write to stdout (1) or stderr (2). */
export interface Write {
  readonly fd: 1 | 2
  readonly text: string
}

export interface State {
  /** Whether anything was written through the tracker. */
  readonly hadOutput: boolean
  /** How many newlines the tracked output ends with. */
  readonly trailing: number
}

export const initial: State = Object.freeze({ hadOutput: false, trailing: 0 })

// combinators

/** Writes text through the tracker: the writes to make (the first one's leading newline included) and the next state. An empty text writes nothing. */
export const write = (s: State, fd: 1 | 2, text: string): readonly [State, ReadonlyArray<Write>] => {
  if (text === '') return [s, []]
  const writes: Write[] = s.hadOutput ? [] : [{ fd: 1, text: '\n' }]
  writes.push({ fd, text })
  let n = 0
  while (n < text.length && text[text.length - 1 - n] === '\n') n++
  return [Object.freeze({ hadOutput: true, trailing: n === text.length ? s.trailing + n : n }), writes]
}

/** Ends a paragraph: after output, newlines on stdout until the output ends in a blank line. */
export const end = (s: State): readonly [State, ReadonlyArray<Write>] => {
  if (!s.hadOutput || s.trailing >= 2) return [s, []]
  return [Object.freeze({ hadOutput: true, trailing: 2 }), [{ fd: 1, text: '\n'.repeat(2 - s.trailing) }]]
}
