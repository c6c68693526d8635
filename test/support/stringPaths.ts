// stringPaths: the places in a JSON value that hold free text (not the structural fields a codec
// checks), and a copy of the value with one of them replaced: how the fuzzers put hostile text
// wherever a plan carries a name, a reason or content.

/** The paths of the value's strings, except those under a key in `structural`. */
export const stringPaths = (v: unknown, structural: ReadonlySet<string>, path: string[] = []): string[][] => {
  if (typeof v === 'string') return structural.has(path[path.length - 1] ?? '') ? [] : [path]
  if (Array.isArray(v)) return v.flatMap((x, i) => stringPaths(x, structural, [...path, String(i)]))
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => stringPaths(x, structural, [...path, k]))
  return []
}

/** A copy of `v` with the value at `at` replaced by `by`. */
export const replaced = (v: unknown, at: ReadonlyArray<string>, by: string): unknown => {
  if (at.length === 0) return by
  const [k, ...rest] = at
  if (Array.isArray(v)) return v.map((x, i) => (String(i) === k ? replaced(x, rest, by) : x))
  return { ...(v as Record<string, unknown>), [k!]: replaced((v as Record<string, unknown>)[k!], rest, by) }
}
