// observe: what a package resource asks of the machine, as data: the `package` request family's
// one question (what the package manager says of a package; a run's questions are answered by one
// status query and one policy query, see src/interpreters/packages/probes.ts).
import type * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../../core/Fault.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import type * as Observed from './Observed.js'

// observation

/**
 * The request a package asks: what the provider (`auto`: the machine's) says of `name` (a fault
 * shared by the whole batch when it cannot answer).
 */
export const status = (name: string, provider: 'apt' | 'dnf' | 'auto'): Observation<E.Either<Fault.Fault, Observed.Observed>> => Obs.ask('package', `${provider}:${name}`, { name, provider })
