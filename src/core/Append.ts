// Append: adds many items to an array one by one. `target.push(...items)` passes every item as an
// argument, on the stack, and throws RangeError ("Maximum call stack size exceeded") past about
// 120,000 of them: `plait diff` of a 260 KB text file of short lines did, and the lines of a diff,
// a plugin's output or a report's resources can be that many.

/** Adds each item to the end of `target`, in order; returns `target`. */
export const append = <A>(target: A[], items: Iterable<A>): A[] => {
  for (const item of items) target.push(item)
  return target
}
