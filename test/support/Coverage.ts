// Coverage: how much a property really checked. A law labels what each generated run exercised
// ('applied', 'refused as stale', 'Left examined', ...); after the property ran, `check` fails the
// test when a label's share of runs falls under its floor, so that a law cannot quietly stop
// checking (a generator change that makes most worlds unplannable, say). In the spirit of
// fast-check's fc.statistics, but asserted rather than printed.

export interface Coverage {
  /** Counts one run of the property. */
  readonly run: () => void
  /** Counts one label for the current run (a run may carry several). */
  readonly label: (name: string) => void
  /** Throws when a label's share of runs is under its floor (0..1); returns the shares. */
  readonly check: (floors: Readonly<Record<string, number>>) => Readonly<Record<string, number>>
}

export const make = (law: string): Coverage => {
  let runs = 0
  const counts = new Map<string, number>()
  return {
    run: () => {
      runs += 1
    },
    label: (name) => {
      counts.set(name, (counts.get(name) ?? 0) + 1)
    },
    check: (floors) => {
      const shares: Record<string, number> = {}
      for (const [k, n] of counts) shares[k] = runs === 0 ? 0 : n / runs
      const low = Object.entries(floors).filter(([k, floor]) => (shares[k] ?? 0) < floor)
      if (runs === 0 || low.length > 0) {
        const seen = [...counts].map(([k, n]) => `${k}: ${n}`).join(', ')
        throw new Error(`${law}: checked too little in ${runs} runs (${seen || 'no labels'}); below floor: ${low.map(([k, f]) => `${k} < ${Math.round(f * 100)}%`).join(', ')}`)
      }
      return shares
    },
  }
}
