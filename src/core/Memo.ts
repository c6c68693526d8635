// Memo: a function of a string key that computes each answer once (for one run: it keeps every
// answer until it is dropped).

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
