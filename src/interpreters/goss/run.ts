// run: checks a health check's goss rules (as the plan carries them) on a machine: decodes them,
// probes each resource in order and summarizes (OK when every check passes, CRITICAL otherwise;
// rules a plan carries that do not decode are UNKNOWN).
import type * as Net from '../../goss/Net.js'
import { memo } from '../../core/Memo.js'
import * as Outcome from '../../goss/Outcome.js'
import * as Rules from '../../goss/Rules.js'
import type * as Health from '../../types/Health.js'
import * as Probes from './probes.js'

export type { Context } from './probes.js'

/** The status and message of one try of goss rules. */
export const check = async (goss: unknown, c: Probes.Context): Promise<{ readonly status: Health.Status; readonly message: string }> => {
  const decoded = Rules.decodeJson(goss)
  if (decoded.problems.length > 0) return { status: 'UNKNOWN', message: `goss rules do not decode: ${decoded.problems.map((d) => d.message).join('; ')}` }
  const observed: Outcome.Observed[] = []
  // users and groups, processes and sockets read once for this try, not once per rule (a later try
  // reads them again: it may be waiting for one to appear)
  let accounts: ReturnType<NonNullable<Probes.Context['accounts']>> | undefined
  let processes: ReturnType<NonNullable<Probes.Context['processes']>> | undefined
  const listeners = memo((proto) => Probes.readListeners(c.proc, proto as Net.Proto))
  // the package and service rules of the try asked of their manager at once (a process or two for all)
  const named = (kind: string): ReadonlyArray<string> => decoded.rules.filter((r) => r.kind === kind).map((r) => r.name)
  const once: Probes.Context = {
    ...c,
    accounts: () => (accounts ??= Probes.readAccounts(c.machine)),
    processes: () => (processes ??= Probes.readProcesses(c.proc)),
    listeners,
    packageStatus: Probes.batched(named('package'), (ns) => c.packages().status(ns)),
    serviceStatus: Probes.batched(named('service'), (ns) => c.services().status(ns)),
  }
  for (const r of decoded.rules) observed.push(await Probes.probe(r, once))
  const s = Outcome.summarize(decoded.rules, observed)
  return { status: s.status, message: s.message }
}

