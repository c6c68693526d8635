// steps: the interpreter of `package.*` steps: an install, upgrade, downgrade or removal of one
// package, run by a Manager (which holds the run's package lock). A package step cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import * as Step from '../../types/package/Step.js'
import type { StepFamily } from '../steps.js'
import type { Manager } from './Manager.js'

/** The `package` family over a manager (made on the first step). */
export const family = (manager: () => Manager): StepFamily => ({
  describe: (step: Plan.Step) => Step.describe(step as Step.PackageStep),
  prepare: async () => E.right({ _tag: 'Irreversible', reason: 'a package that was installed, upgraded, downgraded or removed cannot be put back as it was' }),
  run: async (step) => {
    const s = step as Step.PackageStep
    // The plan file is input too: a name or version that could not come from a manifest is refused here.
    const bad = Step.problem(s)
    if (bad !== undefined) return E.left(Fault.make('ProtocolViolation', 'package', s._tag, s.name, bad))
    return manager().act(Step.operation(s))
  },
  failure: (fault) => fault.description,
})
