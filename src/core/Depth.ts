// Depth: how deeply a parsed JSON value nests, found without recursion. A value from outside (a
// facts file, a plan, a plugin's output, fromJSON's text) that nests deeper than the recursive passes
// after it can take (sorting keys, hashing, converting, merging) is refused as a value, with a
// message, instead of being met as a stack overflow half-way through a command.

/** How deep data from outside may nest: as deep as a YAML document may (manifest/Yaml.ts's maxDepth, which a test holds equal). */
export const maxData = 200

/** How deep a plan file may nest: its own structure around values that nest at most `maxData` deep each, with room to spare. */
export const maxPlan = 1000

/** Whether `value` nests arrays and objects more than `limit` levels deep (a scalar is 0 deep, `[]` and `{}` are 1). */
export const deeperThan = (value: unknown, limit: number): boolean => {
  // two parallel stacks (no pair allocated per value), and for-in (no array of values per object): a large plan is walked in a fraction of its JSON.parse
  const values: object[] = []
  const depths: number[] = []
  if (typeof value === 'object' && value !== null) {
    values.push(value)
    depths.push(1)
  }
  while (values.length > 0) {
    const v = values.pop() as Record<string, unknown>
    const depth = depths.pop()!
    if (depth > limit) return true
    if (Array.isArray(v)) {
      for (const child of v as ReadonlyArray<unknown>) {
        if (typeof child === 'object' && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    } else {
      for (const k in v) {
        const child = v[k]
        if (typeof child === 'object' && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    }
  }
  return false
}
