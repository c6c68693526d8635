// Memo: a function of a string key that computes each answer once (for one run: it keeps every
// answer until it is dropped).

/** `f`, remembering its answer for each key. */
export const memo = <A>(f: (key: string) => A): ((key: string) => A) => {
  const seen = new Map<string, A>()
  return (key) => {
    const known = seen.get(key)
    if (known !== undefined || seen.has(key)) return known as A
    const a = f(key)
    seen.set(key, a)
    return a
  }
}
