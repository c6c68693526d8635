// steps: the interpreter of `libral.*` steps: a provider's `update`, made against what the
// staleness check found of the resource. An update cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import type { LibralUpdate } from './type/Step.js'
import * as Render from './protocol/Render.js'
import type * as Resource from './protocol/Resource.js'
import * as UpdateStep from './protocol/UpdateStep.js'
import type { StepFamily } from '../steps.js'
import type { Runtime } from './Runtime.js'

/** The `libral` family over the plan's providers. */
export const family = (runtime: () => Runtime): StepFamily => ({
  describe: (step: Plan.Step) => {
    const u = step as LibralUpdate
    return `update ${u.provider} '${u.name}': ${UpdateStep.changesOf(u).map(Render.change).join(', ')}`
  },
  prepare: async (step) => E.right({ _tag: 'Irreversible', reason: `${(step as LibralUpdate).provider} updates cannot be undone` }),
  run: (step, env) => {
    const u = step as LibralUpdate
    const r = runtime()
    return r.session.update(r.target(u.provider), env.now as Resource.Found, UpdateStep.changesOf(u), { noop: false })
  },
  failure: Fault.render,
})
