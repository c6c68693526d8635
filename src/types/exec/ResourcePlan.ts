// ResourcePlan: how an exec resource's plan is written in a plan file (`kind: exec`).
import * as t from 'io-ts'
import { DeferredExec } from '../../core/Deferred.js'
import * as Plan from '../../core/Plan.js'
import { ExecRun } from './Step.js'

// model

/**
 * An exec resource's plan: one `exec.run` step when the command would run (action `run`), none
 * when it is skipped; `observed.summary` says which and why. Guards are evaluated again at apply
 * and are not part of the staleness check, so `observed.digest` is not compared.
 */
export const ExecResourcePlan = t.intersection([
  t.type({
    kind: t.literal('exec'),
    ...Plan.head,
    type: t.literal('exec'),
    desired: t.type({ line: t.string, provider: t.keyof({ posix: null, shell: null }), returns: t.array(t.number) }),
    steps: t.array(ExecRun),
  }),
  t.partial({
    /**
     * For a command its creates or guards skip at plan time: the step to run if, at its turn, their
     * answer has changed (an earlier resource may have removed the creates file, say).
     */
    recheck: ExecRun,
    /**
     * Properties that read a file an earlier resource manages: `steps` is empty, and the executor
     * renders the templates at its turn into `base` (the step with the other properties), then
     * decides with refresh_only, its subscriptions and its guards.
     */
    deferred: t.intersection([DeferredExec, t.type({ refreshOnly: t.boolean, base: ExecRun })]),
  }),
  Plan.Links,
])
export type ExecResourcePlan = t.TypeOf<typeof ExecResourcePlan>
