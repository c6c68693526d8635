// holo: the holo resource type: Holo entities (holo-plugin-interface(7)) as resources of a plan.
// A resource names one entity, every entity of one plugin, or every entity of every configured
// plugin; the plugins are asked through the `holo` request family (one `scan` per plugin per
// round, a `diff` per entity taken) and applied through the `holo.*` step family
// (src/interpreters/holoSteps/), with `apply`, or `force-apply` under `plait apply --force`.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Fault from '../../core/Fault.js'
import * as Obs from '../../core/Observation.js'
import type * as Plan from '../../core/Plan.js'
import { field as f } from '../../core/Terminal.js'
import * as Render from '../Render.js'
import type { PlanEnv, ResourceType, Turn } from '../ResourceType.js'
import * as Observe from './observe.js'
import * as Observed from './Observed.js'
import * as HoloPlan from './plan.js'
import { HoloResourcePlan } from './ResourcePlan.js'
import * as Spec from './Spec.js'
import * as Step from './Step.js'

// observation

/** One diagnostic per failed host: every holo resource of the batch gets the same fault, and so the same diagnostic (reported once, at the first). */
const failures = new WeakMap<Fault.Fault, Diagnostic.Diagnostic>()
const problemOf = (spec: Spec.HoloSpec, fault: Fault.Fault): Diagnostic.Diagnostic => {
  let d = failures.get(fault)
  if (d === undefined) {
    d = Diagnostic.make('Observe', fault.description, { at: spec.at, resource: spec.id })
    failures.set(fault, d)
  }
  return d
}

// rendering

/** A step's lines in `plait plan`: what the scan said, and a local change with its diff and the --force it needs. */
export const stepLines = (s: Step.HoloApply): ReadonlyArray<string> => {
  const head = `holo.apply (${f(s.plugin)}): ${f(Step.describe(s))}`
  if (s.local === undefined) return s.action === undefined ? [head, `  ${f(s.reason)}`] : [head]
  return [
    head,
    `  local modification: ${s.local.kind} since it was last applied; plait apply --force ${s.local.kind === 'modified' ? 'overwrites' : 'restores'} it (plain apply refuses)`,
    ...(s.local.diff === '' ? [] : [Render.indent(Render.diffLines(s.local.diff), '    ')]),
  ]
}

/** What the plan says of a resource whose plugins are scanned again at its turn. */
const rescanNote = (r: HoloResourcePlan): string | undefined =>
  r.rescan === undefined ? undefined : `the plugins are scanned again at its turn if ${r.rescan.join(' or ')} change${r.rescan.length === 1 ? 's' : ''} first`

/** Its block in `plait plan`: the steps, and the scan again at its turn when an earlier resource feeds the plugins. */
const render = (r: HoloResourcePlan, verbose: boolean): ReadonlyArray<string> => {
  const note = rescanNote(r)
  if (note === undefined) return Render.changes(r, (s) => stepLines(s as Step.HoloApply), verbose)
  return [`${Render.symbol(r.action)} ${f(r.id)}`, `    was: ${f(r.observed.summary)}`, ...r.steps.map((s) => Render.indent(stepLines(s).join('\n'), '    ')), `    (${f(note)})`, '']
}

/** Its steps at its turn: planned again from a new scan when a resource that feeds the plugins changed earlier in the run. */
const turn = (r: HoloResourcePlan, changed: (id: string) => boolean): Obs.Observation<E.Either<Fault.Fault, Turn>> => {
  const fed = (r.rescan ?? []).filter(changed)
  if (fed.length === 0) return Obs.done(E.right({ steps: r.steps, expected: r, notes: [] }))
  const selector = Spec.selectorOf(r.desired.selector)
  if (E.isLeft(selector)) return Obs.done(E.left(Fault.make('Failed', 'holo', 'turn', r.id, selector.left)))
  return Obs.map((now: E.Either<Fault.Fault, Observed.Observed>): E.Either<Fault.Fault, Turn> => {
    if (E.isLeft(now)) return E.left(Fault.make(now.left._tag, 'holo', 'turn', r.id, `cannot scan the Holo plugins again: ${now.left.description}`, now.left))
    const planned = HoloPlan.stepsOf(selector.right, now.right)
    if (E.isLeft(planned)) return E.left(Fault.make('Failed', 'holo', 'turn', r.id, planned.left))
    const expected: HoloResourcePlan = { ...r, steps: [...planned.right.steps], observed: planned.right.observed }
    return E.right({ steps: planned.right.steps, expected, notes: [`scanned again at its turn: ${fed.join(', ')} changed`] })
  })(Observe.entities(r.desired.selector, selector.right))
}

/**
 * The ids of the earlier resources that feed the plugins and may change, in manifest order, for one
 * run's planner: `earlier` only grows within a run, so each call reads only what was added since
 * the last one (scanning it all for each holo resource would be quadratic). A different list, or
 * `mayChange`, starts over.
 */
const feedingSoFar = (): ((env: PlanEnv) => ReadonlyArray<string>) => {
  let list: ReadonlyArray<Plan.ResourcePlan> | undefined
  let mayChange: PlanEnv['mayChange'] | undefined
  let read = 0
  let ids: string[] = []
  return (env) => {
    if (env.earlier !== list || env.mayChange !== mayChange || env.earlier.length < read) {
      list = env.earlier
      mayChange = env.mayChange
      read = 0
      ids = []
    }
    for (; read < env.earlier.length; read++) {
      const r = env.earlier[read]!
      if (HoloPlan.feedsHolo(r.name) && env.mayChange(r)) ids.push(r.id)
    }
    return [...ids]
  }
}

export const holo: ResourceType<Spec.HoloSpec, Observed.Observed, HoloResourcePlan> = {
  kind: 'holo',
  codec: HoloResourcePlan,
  keys: Spec.keys,
  decode: (raw) => Spec.decode(raw),
  observe: (spec) => Obs.map(E.mapLeft((fault: Fault.Fault) => problemOf(spec, fault)))(Observe.entities(spec.name, spec.selector)),
  planner: () => {
    const feeding = feedingSoFar()
    return (spec, o, env) => E.mapLeft((message: string) => Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id }))(HoloPlan.plan(spec, o, feeding(env)))
  },
  pending: rescanNote,
  mayChange: (r) => r.steps.length > 0 || r.rescan !== undefined,
  needs: () => [],
  check: (r, _accounts, same) => {
    const selector = Spec.selectorOf(r.desired.selector)
    if (E.isLeft(selector)) return Obs.done({ drift: selector.left })
    return Obs.map((now: E.Either<Fault.Fault, Observed.Observed>) => {
      if (E.isLeft(now)) return { drift: now.left.description, shared: now.left }
      return same(r.observed.digest, Observed.digest(now.right)) ? {} : { drift: `was ${r.observed.summary}, now ${Observed.summary(now.right)}` }
    })(Observe.entities(r.desired.selector, selector.right))
  },
  turn: (r, env) => turn(r, env.changed),
  verify: (r) => {
    const selector = Spec.selectorOf(r.desired.selector)
    if (E.isLeft(selector)) return Obs.done([selector.left])
    return Obs.map((now: E.Either<Fault.Fault, Observed.Observed>) => (E.isLeft(now) ? [now.left.description] : HoloPlan.verify(now.right.entities)))(Observe.entities(r.desired.selector, selector.right))
  },
  // A plan file is input too: a step's plugin and entity must be ones a scan could report.
  stepChecks: { [Step.tag]: (s: Plan.Step) => Step.problem(s as Step.HoloApply) },
  render: (r, options) => render(r, options.verbose),
  show: (spec) => f(Spec.describe(spec.selector)),
}
