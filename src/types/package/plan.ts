// plan: the package type's plan and verification (pure), over Decision's table: what `ensure`
// asks, what is installed and the candidate observed at plan time decide at most one step, so a
// converged machine plans nothing (ensure latest included). After the step, the desired state is
// checked: present and latest need the package installed (latest at least at the version the plan
// named), absent needs it gone, a version needs exactly that version.
import * as E from 'fp-ts/lib/Either.js'
import * as DebianVersion from './DebianVersion.js'
import * as Decision from './Decision.js'
import * as Invalid from './Invalid.js'
import * as Observed from './Observed.js'
import * as RpmVersion from './RpmVersion.js'
import type { PackageDesired, PackageResourcePlan } from './ResourcePlan.js'
import * as Step from './Step.js'
import type { PackageSpec } from './Spec.js'
import * as Spec from './Spec.js'
import * as Plan from '../../core/Plan.js'
import * as Position from '../../core/Position.js'

/** The version order of the provider that answered: Debian's for apt, rpm's for dnf (a version without a release matches any release). */
const orderOf = (o: Observed.Observed): Decision.Compare => (o.provider === 'dnf' ? RpmVersion.compareWantedText : DebianVersion.compareText)

/** The resource's plan from what the package manager said of it; Left: a malformed version (the message says which). */
export const plan = (spec: PackageSpec, o: Observed.Observed): E.Either<string, PackageResourcePlan> => {
  const ensure = Spec.ensureOf(spec.ensure, o.provider)
  if (E.isLeft(ensure)) return E.left(Invalid.message(ensure.left))
  const name = Spec.nameProblem(spec.name, o.provider)
  if (name !== undefined) return E.left(`${name} (the ${o.provider} provider answered)`)
  const action = Decision.decide(ensure.right, o.installed, Observed.candidateOf(o), orderOf(o))
  if (E.isLeft(action)) return E.left(Invalid.message(action.left))
  const step = Step.ofAction(spec.name, ensure.right, action.right, o.provider)
  return E.right({
    kind: 'package',
    id: spec.id,
    type: 'package',
    name: spec.name,
    at: Position.render(spec.at),
    action: step === undefined ? 'none' : step._tag === 'package.install' ? 'create' : step._tag === 'package.remove' ? 'delete' : 'update',
    observed: Plan.observedLazily(Observed.summary(o), () => Observed.digest(o, spec.ensure)),
    desired: { ensure: spec.ensure, provider: spec.provider },
    steps: step === undefined ? [] : [step],
  })
}

/** How a package misses its desired state (nothing: it is there); `to`: the version a planned `ensure: latest` step named. */
export const verify = (name: string, d: PackageDesired, o: Observed.Observed, to: string | undefined): ReadonlyArray<string> => {
  const ensure = Spec.ensureOf(d.ensure, o.provider)
  if (E.isLeft(ensure)) return [Invalid.message(ensure.left)]
  const now = o.installed._tag === 'Installed' ? `installed at ${o.installed.version}` : 'not installed'
  const ok = Decision.isDesired(ensure.right, o.installed, orderOf(o))
  if (E.isLeft(ok)) return [Invalid.message(ok.left)]
  if (!ok.right) return [`package ${name} is ${now}, not ${ensure.right._tag === 'Version' ? `at ${ensure.right.version}` : ensure.right._tag === 'Absent' ? 'absent' : 'installed'}`]
  if (ensure.right._tag === 'Latest' && to !== undefined && o.installed._tag === 'Installed') {
    const c = orderOf(o)(o.installed.version, to)
    if (E.isLeft(c)) return [Invalid.message(c.left)]
    if (c.right < 0) return [`package ${name} is ${now}, older than ${to}, the newest available at plan time`]
  }
  return []
}
