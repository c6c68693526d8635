// timer: waits of any length. Node fires a timer longer than 2^31-1 ms (about 24.8 days) at once,
// with a warning; plait's durations go up to Go's limit (about 292 years), so long ones are chained.

/** The longest single timer Node supports. */
const maxTimer = 2 ** 31 - 1

/** A timer of any length (Node fires timers over 2^31-1 ms at once, so long ones are chained); returns its cancel. */
export const after = (ms: number, fn: () => void): (() => void) => {
  let left = Math.max(1, Math.ceil(ms))
  let t: NodeJS.Timeout | undefined
  const arm = (): void => {
    const step = Math.min(left, maxTimer)
    left -= step
    t = setTimeout(() => (left > 0 ? arm() : fn()), step)
  }
  arm()
  return () => clearTimeout(t)
}

/** A duration for a message: `30 s`, `1.5 s`, `0.25 s`; under a millisecond `0.000001 ms`. */
export const formatDuration = (ms: number): string => (ms >= 1 ? `${Number((ms / 1000).toFixed(3))} s` : `${Number(ms.toPrecision(6))} ms`)
