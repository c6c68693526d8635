// guards: evaluates an exec resource's creates and guard commands, lazily and in the decision
// table's order (creates existing means the guards never run; a failed onlyif means unless never
// runs), at plan time and again at the step's turn.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../core/Fault.js'
import type * as Step from '../core/Step.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Runner from '../interpreters/Runner.js'
import type { ExecStatus } from '../types/exec/plan.js'

/** What the guards say now; a guard that cannot run (not found, timed out) is an error, a non-zero exit is not. */
export const evaluate = async (g: Step.ExecRun['guards'], machine: Machine, runner: Runner.Runner): Promise<E.Either<string, ExecStatus>> => {
  let status: ExecStatus = {}
  if (g.creates !== undefined) {
    const p = await machine.probe(g.creates, { contentLimit: 0 })()
    if (E.isLeft(p)) return E.left(`cannot check creates ${g.creates}: ${Fault.render(p.left)}`)
    status = { creates: p.right._tag !== 'Absent' }
    if (status.creates === true) return E.right(status)
  }
  for (const k of ['onlyif', 'unless'] as const) {
    const c = g[k]
    if (c === undefined) continue
    const r = await runner.run(c)
    if (E.isLeft(r)) return E.left(`the ${k} guard could not run: ${Fault.render(r.left)}`)
    const passed = r.right.exitCode === 0
    status = { ...status, [k]: passed }
    if (k === 'onlyif' && !passed) return E.right(status)
  }
  return E.right(status)
}
