// exec: the exec resource type (CCM's `exec`): a command to run, unless its creates file exists or
// its guards say not to, and on a refresh of what it subscribes to. Everything the pipeline knows
// of it is in this value.
import * as E from 'fp-ts/lib/Either.js'
import * as DeferredM from '../../core/Deferred.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Fault from '../../core/Fault.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import type * as Step from './Step.js'
import { field as f } from '../../core/Terminal.js'
import * as DeferredContent from '../file/DeferredContent.js'
import * as Managed from '../Managed.js'
import * as Render from '../Render.js'
import { allSettled, changingSubscriptions, type ResourceType, type Turn } from '../ResourceType.js'
import * as ExecDeferred from './DeferredCommand.js'
import * as Guards from './guards.js'
import * as ExecPlan from './plan.js'
import { ExecResourcePlan } from './ResourcePlan.js'
import * as Spec from './Spec.js'

// model

/** What observing an exec resource found: what its guards said, and for a deferred one whose files already hold text, the step worked out now and what its guards said of it. */
export interface Observed {
  readonly status: ExecPlan.ExecStatus
  readonly now?: { readonly step: Step.ExecRun; readonly status: ExecPlan.ExecStatus }
}

// observation

/**
 * A deferred exec whose files already hold text is worked out and asked now, in case the
 * resources that manage them change nothing (then the plan can decide it); its own guards are
 * asked at its turn, once their templates can be rendered.
 */
const observe = (spec: Spec.ExecSpec): Observation<E.Either<Diagnostic.Diagnostic, Observed>> => {
  if (spec.deferred !== undefined) {
    const d = { ...spec.deferred, refreshOnly: spec.refreshOnly, base: ExecPlan.stepOf(spec, '') }
    return Obs.chain((managed: ReadonlyMap<string, Uint8Array>) => {
      const bytes = DeferredM.managedBytes(d.managed, managed)
      const texts = bytes === undefined ? undefined : DeferredContent.textsOf(d.managed, bytes)
      const step = texts === undefined || E.isLeft(texts) ? undefined : ExecDeferred.workOut(d, texts.right)
      if (step === undefined || E.isLeft(step)) return Obs.done(E.right({ status: {} }))
      return Obs.map((s: E.Either<Fault.Fault, ExecPlan.ExecStatus>) => E.right(E.isRight(s) ? { status: {}, now: { step: step.right, status: s.right } } : { status: {} }))(Guards.evaluate(step.right.guards))
    })(Managed.readSome([...new Set(Object.values(d.managed))]))
  }
  if (spec.creates === undefined && spec.onlyif === undefined && spec.unless === undefined) return Obs.done(E.right({ status: {} }))
  return Obs.map((s: E.Either<Fault.Fault, ExecPlan.ExecStatus>) => (E.isLeft(s) ? E.left(Diagnostic.make('Observe', s.left.description, { at: spec.at, resource: spec.id })) : E.right({ status: s.right })))(
    Guards.evaluate(ExecPlan.guardsOf(spec)),
  )
}

// the turn

/**
 * What an exec resource does when its turn comes. A subscription that triggered runs it whatever
 * its guards say; a planned run asks its guards again (an earlier step may have changed the
 * answer); a refresh that did not trigger, or a command its guards skipped at plan time, runs only
 * if its guards now say so (a refresh_only command never does). A deferred exec is worked out
 * first and then decided the same way, as one its guards have not been asked about.
 */
const turn = (r: ExecResourcePlan, changed: (id: string) => boolean): Observation<E.Either<Fault.Fault, Turn>> => {
  const decided = (steps: ReadonlyArray<Step.ExecRun>, notes: ReadonlyArray<string>): E.Either<Fault.Fault, Turn> => E.right({ steps, expected: r, notes })
  const skip = (run: Step.ExecRun): Observation<E.Either<Fault.Fault, string | undefined>> => Obs.map(E.map((s: ExecPlan.ExecStatus) => ExecPlan.skipReason(run.guards, s)))(Guards.evaluate(run.guards))
  const decide = (planned: Step.ExecRun | undefined, recheck: Step.ExecRun | undefined, notes: ReadonlyArray<string>): Observation<E.Either<Fault.Fault, Turn>> => {
    const candidate = planned ?? recheck
    const triggeredBy = (r.subscribe ?? []).filter(changed)
    if (candidate !== undefined && triggeredBy.length > 0) return Obs.done(decided([{ ...candidate, reason: `refreshed: ${triggeredBy.join(', ')} changed` }], notes))
    if (planned !== undefined && planned.when === undefined) {
      return Obs.map(E.chain((why: string | undefined) => decided(why === undefined ? [planned] : [], why === undefined ? notes : [...notes, `not run: ${why} now; when the plan was made it would have run (${planned.reason})`])))(skip(planned))
    }
    const more = planned?.when !== undefined ? [...notes, `not refreshed: ${planned.when.join(', ')} did not change`] : notes
    if (recheck === undefined) return Obs.done(decided([], more))
    return Obs.map(
      E.chain((why: string | undefined) => {
        if (r.deferred !== undefined) return why === undefined ? decided([{ ...recheck, reason: ExecPlan.runReason(recheck.guards) }], more) : decided([], [...more, `not run: ${why}`])
        if (why !== undefined) return decided([], more)
        return decided([recheck], [...more, `runs now: when the plan was made it was ${r.observed.summary}; its guards say otherwise at its turn`])
      }),
    )(skip(recheck))
  }
  const d = r.deferred
  if (d === undefined) return decide(r.steps[0], r.recheck, [])
  return Obs.chain((read: E.Either<Fault.Fault, Map<string, Uint8Array>>) => {
    const texts = E.isLeft(read) ? read : DeferredContent.textsOf(d.managed, read.right)
    const worked = E.isLeft(texts) ? texts : ExecDeferred.workOut(d, texts.right)
    if (E.isLeft(worked)) return Obs.done(E.left(Fault.make(worked.left._tag, 'exec', 'turn', r.id, `cannot work out the deferred command: ${worked.left.description}`, worked.left)))
    const notes = [`worked out at its turn: ${worked.right.line}`]
    if (d.refreshOnly && !(r.subscribe ?? []).some(changed)) return Obs.done(decided([], [...notes, 'not run: refresh_only, and no subscribed resource changed']))
    return decide(undefined, worked.right, notes)
  })(Managed.readAll(d.managed))
}

// rendering

/** Commands are always listed: whether one runs is what a reviewer wants to see. */
const render = (r: ExecResourcePlan): ReadonlyArray<string> => {
  const s = r.steps[0]
  if (r.deferred !== undefined) return [`${Render.symbol(r.action)} ${f(r.id)}\n    (${f(r.observed.summary)})`, '']
  return [s === undefined ? `  ${f(r.id)}: ${f(r.observed.summary)}` : `${Render.symbol(r.action)} ${f(r.id)}\n    exec.run (${f(s.provider)}): ${f(s.line)}\n      ${f(r.observed.summary)}`, '']
}

export const exec: ResourceType<Spec.ExecSpec, Observed, ExecResourcePlan> = {
  kind: 'exec',
  subscribes: true,
  codec: ExecResourcePlan,
  keys: Spec.keys,
  decode: (raw, env) => Spec.decode(raw, env.scope, env.baseDir, env.deferral),
  observe,
  planner: () => (spec, o, env) => {
    const subscription = { ids: env.subscribe, changing: changingSubscriptions(env) }
    // A deferred exec is known now when the resources managing the files it reads change nothing.
    const now = o.now
    const settled = spec.deferred !== undefined && now !== undefined && allSettled(env, spec.deferred.after)
    const head = ExecPlan.headOf(spec)
    return E.right(
      settled && now !== undefined
        ? ExecPlan.planStep({ ...head, desired: { ...head.desired, line: now.step.line } }, now.step, spec.refreshOnly, now.status, subscription)
        : ExecPlan.plan(spec, o.status, subscription),
    )
  },
  pending: (r) => (r.deferred !== undefined ? `${r.observed.summary}; would be worked out and decided at its turn` : undefined),
  mayChange: (r) => r.steps.length > 0 || r.deferred !== undefined || r.recheck !== undefined,
  needs: (r) => (r.deferred !== undefined ? r.deferred.after : []),
  // Guards are asked again at its turn; they are not part of the staleness check.
  check: () => Obs.done({}),
  turn: (r, env) => turn(r, env.changed),
  // Its exit code was checked when it ran.
  verify: () => Obs.done([]),
  render: (r) => render(r),
  show: (r) => {
    const props = [`provider=${f(r.provider)}`, `command=${JSON.stringify(r.command)}`]
    if (r.cwd !== undefined) props.push(`cwd=${f(r.cwd)}`)
    if (r.creates !== undefined) props.push(`creates=${f(r.creates)}`)
    if (r.onlyif !== undefined) props.push(`onlyif=${JSON.stringify(r.onlyif)}`)
    if (r.unless !== undefined) props.push(`unless=${JSON.stringify(r.unless)}`)
    if (r.refreshOnly) props.push('refresh_only=true')
    if (r.returns.length !== 1 || r.returns[0] !== 0) props.push(`returns=[${r.returns.join(',')}]`)
    return f(props.join(' '))
  },
}
