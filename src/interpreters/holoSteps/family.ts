// family: the holo request and step families as a run's interpreter tables make them, over the
// real Holo host on the machine's root (loaded on first use, so a run without holo resources never
// loads it; each plugin run killed with its process group after --plugin-timeout, 300 s by
// default), or over a host a test gives. An apply's families share one host (shared.ts).
import * as Probes from './probes.js'
import * as Shared from './shared.js'
import * as Steps from './steps.js'
import type { Family } from '../../core/Observation.js'
import type { StepFamily } from '../steps.js'

export type { OpenHost } from './probes.js'

/** What a run may give the holo families (tests give a host double; the CLI gives --force). */
export interface HoloServices {
  /** Opens a Holo host (default: the real host with $HOLO_ROOT_DIR the machine's root). */
  readonly open?: Probes.OpenHost
  /** `force-apply` instead of `apply` (`plait apply --force`). */
  readonly force?: boolean
  /** How long one plugin run may take before its process group is killed, in seconds (`--plugin-timeout`; default defaultTimeoutSeconds). */
  readonly timeoutSeconds?: number
}

/** How long one Holo plugin run may take by default, in seconds: as long as a Bolt plugin task (`--plugin-timeout`). */
export const defaultTimeoutSeconds = 300

/** The timeout a run's services give, in milliseconds (a value that is not a positive number is the default). */
export const timeoutMsOf = (s: HoloServices | undefined): number => {
  const t = s?.timeoutSeconds
  return Math.round((t !== undefined && Number.isFinite(t) && t > 0 ? t : defaultTimeoutSeconds) * 1000)
}

/** The real Holo host on a root, each plugin run killed with its process group after timeoutMs, its module loaded on first use. */
export const real =
  (root: string, timeoutMs: number = defaultTimeoutSeconds * 1000): Probes.OpenHost =>
  () =>
  async () =>
    (await import('../holo/runtime.js')).open({ root, timeoutMs })()

/** The `holo` request family of a run on a root. */
export const requests = (root: string, s: HoloServices | undefined): Family => Probes.family(s?.open ?? real(root, timeoutMsOf(s)))

/** The host an apply's holo families share: each opens it through `open` (see shared.ts). */
export const shared = (root: string, s: HoloServices | undefined): Shared.Shared => Shared.shared(s?.open ?? real(root, timeoutMsOf(s)))

/** The `holo` step family of a run on a root. */
export const steps = (root: string, s: HoloServices | undefined): StepFamily => Steps.family(() => ({ open: s?.open ?? real(root, timeoutMsOf(s)), force: s?.force ?? false }))
