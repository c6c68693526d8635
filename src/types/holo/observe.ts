// observe: what a holo resource asks of the machine, as data: the `holo` request family's one
// question (the entities its selector takes, each with its scan report and its diff). A run's
// questions are answered with one `scan` per plugin (see src/interpreters/holoSteps/probes.ts).
import type * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../../core/Fault.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import type * as Observed from './Observed.js'
import type * as Spec from './Spec.js'

/** The body of a `holo` request. */
export interface Request {
  readonly selector: Spec.Selector
}

/** The request a holo resource asks: what the plugins report of what its selector takes (a fault shared by the batch when the host cannot run). */
export const entities = (name: string, selector: Spec.Selector): Observation<E.Either<Fault.Fault, Observed.Observed>> => Obs.ask('holo', name, { selector } satisfies Request)
