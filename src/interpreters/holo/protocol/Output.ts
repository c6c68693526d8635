// Output: what a plugin printed on stdout and stderr, as chunks in the order they came, so that a
// host can pass it on as Holo does (stdout to stdout, stderr to stderr, interleaved as written).

// model

/** One piece of output: the descriptor it came on (1 stdout, 2 stderr) and its text. */
export interface Chunk {
  readonly fd: 1 | 2
  readonly text: string
}

export interface Output {
  readonly _tag: 'Output'
  /** In arrival order; no chunk is empty. */
  readonly chunks: ReadonlyArray<Chunk>
}

// constructors

/** Output of chunks (empty ones dropped). */
export const make = (chunks: ReadonlyArray<Chunk>): Output => Object.freeze({ _tag: 'Output', chunks: Object.freeze(chunks.filter((c) => c.text !== '')) })

/** No output. */
export const empty: Output = make([])

// combinators

/** Everything printed on one descriptor. */
export const of = (o: Output, fd: 1 | 2): string =>
  o.chunks
    .filter((c) => c.fd === fd)
    .map((c) => c.text)
    .join('')

/** Everything printed, both descriptors interleaved as they came. */
export const text = (o: Output): string => o.chunks.map((c) => c.text).join('')
