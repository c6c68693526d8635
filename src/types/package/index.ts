// package: the package resource type (CCM's `package`): a package installed, at the newest version
// available, at an exact version, or absent. Everything the pipeline knows of it is in this value;
// the package manager is asked through the `package` request family (one status query for all of
// a run's packages) and changed through the `package.*` step family (src/interpreters/packages/).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type * as Fault from '../../core/Fault.js'
import * as Obs from '../../core/Observation.js'
import type * as Plan from '../../core/Plan.js'
import { field as f } from '../../core/Terminal.js'
import * as Render from '../Render.js'
import type { ResourceType } from '../ResourceType.js'
import * as Observe from './observe.js'
import * as Observed from './Observed.js'
import * as PackagePlan from './plan.js'
import { PackageResourcePlan } from './ResourcePlan.js'
import * as Spec from './Spec.js'
import * as Step from './Step.js'

// observation

/** One diagnostic per failed query: every package of the batch gets the same fault, and so the same diagnostic (reported once, at the first). */
const failures = new WeakMap<Fault.Fault, Diagnostic.Diagnostic>()
const problemOf = (spec: Spec.PackageSpec, fault: Fault.Fault): Diagnostic.Diagnostic => {
  let d = failures.get(fault)
  if (d === undefined) {
    d = Diagnostic.make('Observe', fault.description, { at: spec.at, resource: spec.id })
    failures.set(fault, d)
  }
  return d
}

/** The version a plan's `ensure: latest` step named, which verification holds the package to. */
const plannedTo = (r: PackageResourcePlan): string | undefined => r.steps[0]?.to

export const pkg: ResourceType<Spec.PackageSpec, Observed.Observed, PackageResourcePlan> = {
  kind: 'package',
  codec: PackageResourcePlan,
  keys: Spec.keys,
  decode: (raw, env) => Spec.decode(raw, env.scope),
  observe: (spec) => Obs.map(E.mapLeft((fault: Fault.Fault) => problemOf(spec, fault)))(Observe.status(spec.name, spec.provider)),
  planner: () => (spec, o) => E.mapLeft((message: string) => Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id }))(PackagePlan.plan(spec, o)),
  pending: () => undefined,
  mayChange: (r) => r.steps.length > 0,
  needs: () => [],
  check: (r, _accounts, same) =>
    Obs.map((now: E.Either<Fault.Fault, Observed.Observed>) => {
      if (E.isLeft(now)) return { drift: now.left.description, shared: now.left }
      return same(r.observed.digest, Observed.digest(now.right, r.desired.ensure)) ? {} : { drift: `was ${r.observed.summary}, now ${Observed.summary(now.right)}` }
    })(Observe.status(r.name, r.desired.provider)),
  turn: (r) => Obs.done(E.right({ steps: r.steps, expected: r, notes: [] })),
  verify: (r) => Obs.map((now: E.Either<Fault.Fault, Observed.Observed>) => (E.isLeft(now) ? [now.left.description] : PackagePlan.verify(r.name, r.desired, now.right, plannedTo(r))))(Observe.status(r.name, r.desired.provider)),
  // A plan file is input too: a step's name and versions must be ones a manifest could give.
  stepChecks: Object.fromEntries(Object.keys(Step.tags).map((tag) => [tag, (s: Plan.Step) => Step.problem(s as Step.PackageStep)])),
  render: (r, options) => Render.changes(r, (s) => [`${f(Step.describe(s as Step.PackageStep))}: ${f(s.reason)}`], options.verbose),
  show: (spec) => f(`ensure=${spec.ensure} provider=${spec.provider}`),
}
