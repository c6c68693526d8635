// family: the holo request and step families as a run's interpreter tables make them, over the
// real Holo host on the machine's root (loaded on first use, so a run without holo resources never
// loads it), or over a host a test gives.
import * as Probes from './probes.js'
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
}

/** The real Holo host on a root, its module loaded on first use. */
export const real =
  (root: string): Probes.OpenHost =>
  () =>
  async () =>
    (await import('../holo/runtime.js')).open({ root })()

/** The `holo` request family of a run on a root. */
export const requests = (root: string, s: HoloServices | undefined): Family => Probes.family(s?.open ?? real(root))

/** The `holo` step family of a run on a root. */
export const steps = (root: string, s: HoloServices | undefined): StepFamily => Steps.family(() => ({ open: s?.open ?? real(root), force: s?.force ?? false }))
