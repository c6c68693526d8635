// service: the service resource type (CCM's `service`): a unit running or stopped, enabled at
// boot or not, restarted when a resource it subscribes to changes. Everything the pipeline knows
// of it is in this value; systemd is asked through the `service` request family and changed
// through the `service.*` step family (src/interpreters/services/).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type * as Fault from '../../core/Fault.js'
import * as Obs from '../../core/Observation.js'
import type * as Plan from '../../core/Plan.js'
import { field as f } from '../../core/Terminal.js'
import * as Render from '../Render.js'
import { changingSubscriptions, earlierMayChange, type ResourceType } from '../ResourceType.js'
import * as Observe from './observe.js'
import * as ServicePlan from './plan.js'
import { ServiceResourcePlan } from './ResourcePlan.js'
import * as Spec from './Spec.js'
import * as Status from './Status.js'
import { verbs, type ServiceStep } from './Step.js'

// observation

/** One diagnostic per failed systemctl run: every service of the batch gets the same fault, and so the same diagnostic (reported once, at the first). */
const failures = new WeakMap<Fault.Fault, Diagnostic.Diagnostic>()
const problemOf = (spec: Spec.ServiceSpec, p: Observe.Problem): Diagnostic.Diagnostic => {
  if (p._tag === 'Unreadable') return Diagnostic.make('Observe', p.message, { at: spec.at, resource: spec.id })
  let d = failures.get(p.fault)
  if (d === undefined) {
    d = Diagnostic.make('Observe', p.fault.description, { at: spec.at, resource: spec.id })
    failures.set(p.fault, d)
  }
  return d
}

// rendering

const stepLine = (s: ServiceStep): string => `${Render.stepHead(s)}${s.when !== undefined ? ` (runs only if ${f(s.when.join(' or '))} change${s.when.length === 1 ? 's' : ''})` : ''}`

export const service: ResourceType<Spec.ServiceSpec, Status.Status, ServiceResourcePlan> = {
  kind: 'service',
  codec: ServiceResourcePlan,
  keys: Spec.keys,
  subscribes: true,
  decode: (raw, env) => Spec.decode(raw, env.scope),
  observe: (spec) => Obs.map(E.mapLeft((p: Observe.Problem) => problemOf(spec, p)))(Observe.status(spec.name)),
  planner: () => (spec, s, env) => {
    const changing = changingSubscriptions(env)
    return E.mapLeft((message: string) => Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id }))(ServicePlan.plan(spec, s, { ids: env.subscribe, changing }, earlierMayChange(env)))
  },
  pending: () => undefined,
  mayChange: (r) => r.steps.length > 0,
  needs: () => [],
  check: (r, _accounts, same) =>
    Obs.map((now: E.Either<Observe.Problem, Status.Status>) => {
      if (E.isLeft(now)) return now.left._tag === 'Unanswered' ? { drift: Observe.describe(now.left), shared: now.left.fault } : { drift: Observe.describe(now.left) }
      return same(r.observed.digest, Status.digest(now.right)) ? {} : { drift: `was ${r.observed.summary}, now ${Status.summary(now.right)}` }
    })(Observe.status(r.name)),
  // A subscribe restart runs only if what it waits on changed; the rest was decided by the plan.
  turn: (r, env) => {
    const decided = ServicePlan.atTurn(r.steps, env.changed)
    return Obs.done(E.right({ steps: decided.steps, expected: r, notes: decided.notes }))
  },
  verify: (r) => Obs.map((now: E.Either<Observe.Problem, Status.Status>) => (E.isLeft(now) ? [Observe.describe(now.left)] : ServicePlan.verify(r.name, r.desired, now.right)))(Observe.status(r.name)),
  // A plan file is input too: a step's unit name must be one a manifest could give.
  stepChecks: Object.fromEntries(Object.keys(verbs).map((tag) => [tag, (s: Plan.Step) => Spec.nameProblem((s as ServiceStep).name)])),
  render: (r, options) => Render.changes(r, (s) => [stepLine(s as ServiceStep)], options.verbose),
  show: (spec) => f(`ensure=${spec.ensure}${spec.enable !== undefined ? ` enable=${spec.enable}` : ''} provider=${spec.provider}`),
}
