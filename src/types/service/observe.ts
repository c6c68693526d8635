// observe: what a service resource asks of the machine, as data: the `service` request family's
// one question (what systemd says of a unit; a run's questions are answered by one systemctl
// process, see src/interpreters/services/probes.ts), turned into its Status by the tables.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import * as Status from './Status.js'
import type * as Systemctl from './Systemctl.js'

// model

/** Why a service could not be observed: systemd did not answer (the same fault for every service of the batch), or its answer does not fit the tables. */
export type Problem = { readonly _tag: 'Unanswered'; readonly fault: Fault.Fault } | { readonly _tag: 'Unreadable'; readonly message: string }

// observation

/** The request a service asks: what systemd says of the unit `name`. */
export const unit = (name: string): Observation<E.Either<Fault.Fault, Systemctl.Unit>> => Obs.ask('service', name, { name })

/** The status of a unit now. */
export const status = (name: string): Observation<E.Either<Problem, Status.Status>> =>
  Obs.map((r: E.Either<Fault.Fault, Systemctl.Unit>): E.Either<Problem, Status.Status> => {
    if (E.isLeft(r)) return E.left({ _tag: 'Unanswered', fault: r.left })
    const s = Status.of(r.right)
    return E.isLeft(s) ? E.left({ _tag: 'Unreadable', message: s.left }) : E.right(s.right)
  })(unit(name))

/** A problem in one line: a fault is shown as its description (it says what is missing, as "no suitable provider: systemd is not running"). */
export const describe = (p: Problem): string => (p._tag === 'Unanswered' ? p.fault.description : p.message)
