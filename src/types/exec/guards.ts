// guards: an exec resource's creates and guard commands as an observation program, asked lazily
// and in the decision table's order (creates existing means the guards never run; a failed onlyif
// means unless never runs), at plan time and again at the step's turn.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import type * as Step from './Step.js'
import type { ExecStatus } from './plan.js'

/**
 * What the guards say now. A guard that cannot run (not found, timed out) is a fault of its kind,
 * caused by the command's fault, whose description is the whole sentence the report shows; a
 * non-zero exit is an answer, not a fault.
 */
export const evaluate = (g: Step.ExecRun['guards']): Observation<E.Either<Fault.Fault, ExecStatus>> => {
  const commands = (status: ExecStatus): Observation<E.Either<Fault.Fault, ExecStatus>> => {
    const ask = (k: 'onlyif' | 'unless', s: ExecStatus, rest: (s: ExecStatus) => Observation<E.Either<Fault.Fault, ExecStatus>>): Observation<E.Either<Fault.Fault, ExecStatus>> => {
      const c = g[k]
      if (c === undefined) return rest(s)
      return Obs.chain((r: E.Either<Fault.Fault, Obs.Exit>) => {
        if (E.isLeft(r)) return Obs.done(E.left(Fault.make(r.left._tag, 'exec', k, r.left.subject, `the ${k} guard could not run: ${Fault.render(r.left)}`, r.left)))
        const passed = r.right.exitCode === 0
        const next = { ...s, [k]: passed }
        return k === 'onlyif' && !passed ? Obs.done(E.right(next)) : rest(next)
      })(Obs.command(c))
    }
    return ask('onlyif', status, (s) => ask('unless', s, (t) => Obs.done(E.right(t))))
  }
  if (g.creates === undefined) return commands({})
  const creates = g.creates
  return Obs.chain((p: E.Either<Fault.Fault, import('../../core/Probe.js').Probe>) => {
    if (E.isLeft(p)) return Obs.done(E.left(Fault.make(p.left._tag, 'exec', 'creates', creates, `cannot check creates ${creates}: ${Fault.render(p.left)}`, p.left)))
    const status = { creates: p.right._tag !== 'Absent' }
    return status.creates ? Obs.done(E.right(status)) : commands(status)
  })(Obs.probe(creates, { contentLimit: 0 }))
}
