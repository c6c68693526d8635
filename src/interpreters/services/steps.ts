// steps: the interpreter of `service.*` steps: a systemctl verb on one unit, run by a Manager. The
// manager's unit files are reloaded once per run, before the first change (a file resource may
// have written a unit file), never for a status query. A service step cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import { nameProblem } from '../../types/service/Spec.js'
import { verbs, type ServiceStep } from '../../types/service/Step.js'
import type { StepFamily } from '../steps.js'
import type { Manager } from './Manager.js'

/** The `service` family over a manager (made on the first step). */
export const family = (manager: () => Manager): StepFamily => {
  let reloaded = false
  return {
    describe: (step: Plan.Step) => `${verbs[(step as ServiceStep)._tag]} service ${(step as ServiceStep).name}`,
    prepare: async () => E.right({ _tag: 'Irreversible', reason: 'a service that was started, stopped or enabled cannot be put back as it was' }),
    run: async (step) => {
      const s = step as ServiceStep
      // The plan file is input too: a name that could not come from a manifest is refused here.
      const bad = nameProblem(s.name)
      if (bad !== undefined) return E.left(Fault.make('ProtocolViolation', 'service', verbs[s._tag], s.name, bad))
      const m = manager()
      if (!reloaded) {
        const r = await m.reload()
        if (E.isLeft(r)) return r
        reloaded = true
      }
      return m.act(verbs[s._tag], s.name)
    },
    failure: (fault) => fault.description,
  }
}
