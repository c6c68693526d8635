// Memo: a function of a string key that computes each answer once (for one run: it keeps every
// answer until it is dropped), a table that keeps only the answers of the last few keys, and a
// value made on first use.

/** What the table holds for an undefined answer: a miss then costs one lookup, not two. */
const none: unique symbol = Symbol('none')

/** `f`, remembering its answer for each key. */
export const memo = <A>(f: (key: string) => A): ((key: string) => A) => {
  const seen = new Map<string, A | typeof none>()
  return (key) => {
    const known = seen.get(key)
    if (known !== undefined) return known === none ? (undefined as A) : known
    const a = f(key)
    seen.set(key, a === undefined ? none : a)
    return a
  }
}

/**
 * A table of the answers of the last `most` keys asked for: `make` is called for a key it does not
 * hold, and the key first asked among those it holds is forgotten to make room. For answers too
 * large to keep them all (a long string's bytes, the diff of two large texts).
 */
export const recent = <A>(most: number): ((key: string, make: () => A) => A) => {
  const kept = new Map<string, A | typeof none>()
  return (key, make) => {
    const known = kept.get(key)
    if (known !== undefined) return known === none ? (undefined as A) : known
    const a = make()
    if (kept.size >= most) kept.delete(kept.keys().next().value!)
    kept.set(key, a === undefined ? none : a)
    return a
  }
}

/** A value made on first use, once (a manager, a session: made only when a run needs it). */
export const once = <A>(make: () => A): (() => A) => {
  let made: { readonly value: A } | undefined
  return () => (made ??= { value: make() }).value
}
