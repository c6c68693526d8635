// pool: runs tasks with a bounded number in flight (a batch's temp files and directory fsyncs:
// libuv runs a few fsyncs at once, and the disk's journal commits concurrent ones together).

/** Runs `task` on every item, at most `limit` at once; the results in the items' order. */
export const all = async <A, B>(items: ReadonlyArray<A>, limit: number, task: (item: A) => Promise<B>): Promise<ReadonlyArray<B>> => {
  const out = new Array<B>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await task(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker))
  return out
}
