// plan: the exec type's decision table (pure). From what was observed (does `creates` exist, did
// the guards pass) it decides whether the command runs, with the reason, and makes the step.
//
// The table, in CCM's order (a subscription refresh, issue #4, comes first once it exists):
//   creates exists            → skip
//   onlyif exits non-zero     → skip
//   unless exits 0            → skip
//   refresh_only, no trigger  → skip
//   otherwise                 → run
import * as E from 'fp-ts/lib/Either.js'
import * as Deferred from '../../core/Deferred.js'
import * as Digest from '../../core/Digest.js'
import type * as Step from './Step.js'
import type { ExecResourcePlan } from './ResourcePlan.js'
import type { ExecSpec, Provider } from './Spec.js'
import * as ShellWords from './ShellWords.js'
import * as Plan from '../../core/Plan.js'
import * as Position from '../../core/Position.js'

// model

/**
 * What was observed, in the table's order; a later field is left out when an earlier one already
 * decided (creates existing means the guards were never run).
 */
export interface ExecStatus {
  readonly creates?: boolean
  /** true: the onlyif guard exited 0. */
  readonly onlyif?: boolean
  /** true: the unless guard exited 0. */
  readonly unless?: boolean
}

export type Decision = { readonly _tag: 'Run'; readonly reason: string } | { readonly _tag: 'Skip'; readonly reason: string }

// constructors

/** The words a provider runs for a command line: posix splits it, shell hands it to /bin/sh -c. */
export const argvOf = (provider: Provider, line: string): ReadonlyArray<string> => {
  if (provider === 'shell') return ['/bin/sh', '-c', line]
  const words = ShellWords.split(line)
  return E.isRight(words) ? words.right : [line]
}

/** The command of a line, with the resource's cwd, environment, path and timeout (guards share them). */
export const commandOf = (spec: ExecSpec, line: string): Step.CommandC => ({
  argv: [...argvOf(spec.provider, line)],
  environment: [...spec.environment],
  timeoutMs: spec.timeoutMs,
  ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
  ...(spec.path !== undefined ? { path: spec.path } : {}),
})

/** The decision table. */
export const decide = (spec: ExecSpec, s: ExecStatus): Decision => decideStep(guardsOf(spec), spec.refreshOnly, s)

/** The decision table over a step's guards (what apply has: the step, not the spec). */
export const decideStep = (g: Step.ExecRun['guards'], refreshOnly: boolean, s: ExecStatus): Decision => {
  const skip = skipReason(g, s)
  if (skip !== undefined) return { _tag: 'Skip', reason: skip }
  if (refreshOnly) return { _tag: 'Skip', reason: 'refresh_only, and no subscribed resource changes' }
  return { _tag: 'Run', reason: runReason(g) }
}

/** Why a command whose guards all pass runs. */
export const runReason = (g: Step.ExecRun['guards']): string => {
  const why = [
    g.creates !== undefined ? `creates ${g.creates} does not exist` : undefined,
    g.onlyif !== undefined ? 'onlyif passed' : undefined,
    g.unless !== undefined ? 'unless guard exited non-zero' : undefined,
  ].filter((x): x is string => x !== undefined)
  return why.length === 0 ? 'no creates or guards: it runs every time' : why.join(', ')
}

/** The guards of a spec, as commands: what plan and apply evaluate. */
export const guardsOf = (spec: ExecSpec): Step.ExecRun['guards'] => ({
  ...(spec.creates !== undefined ? { creates: spec.creates } : {}),
  ...(spec.onlyif !== undefined ? { onlyif: commandOf(spec, spec.onlyif) } : {}),
  ...(spec.unless !== undefined ? { unless: commandOf(spec, spec.unless) } : {}),
})

/** The run step of a spec. */
export const stepOf = (spec: ExecSpec, reason: string): Step.ExecRun => ({
  _tag: 'exec.run',
  line: spec.command,
  provider: spec.provider,
  command: commandOf(spec, spec.command),
  returns: [...spec.returns],
  logoutput: spec.logoutput,
  guards: guardsOf(spec),
  reason,
  noop: 'Would have executed',
})

/** What a subscriber subscribes to: the ids, and those of them that change in this plan. */
export interface Subscription {
  readonly ids: ReadonlyArray<string>
  readonly changing: ReadonlyArray<string>
}

/**
 * Plans an exec resource from what was observed. A subscription comes first in the table: when the
 * table says skip but a subscribed resource changes in this plan, the step is a conditional
 * refresh ("runs if file#/etc/app.conf changes"), which the executor decides from what changed.
 */
export const plan = (spec: ExecSpec, s: ExecStatus, subscription: Subscription = { ids: [], changing: [] }): ExecResourcePlan => {
  const head = headOf(spec)
  const subscribe = subscription.ids.length > 0 ? { subscribe: [...subscription.ids] } : {}
  if (spec.deferred !== undefined) {
    // Worked out at its turn: nothing of it can be decided now.
    return {
      ...head,
      action: 'run',
      observed: Plan.observedLazily(Deferred.describeExec(spec.deferred), () => Digest.ofValue(s)),
      steps: [],
      deferred: { ...spec.deferred, refreshOnly: spec.refreshOnly, base: { ...stepOf(spec, 'worked out at its turn'), ...subscribe } },
    }
  }
  return planStep(head, stepOf(spec, ''), spec.refreshOnly, s, subscription)
}

/** The fields of an exec resource's plan that do not depend on what was observed. */
export const headOf = (spec: ExecSpec) => ({
  kind: 'exec' as const,
  id: spec.id,
  type: 'exec' as const,
  name: spec.name,
  at: Position.render(spec.at),
  // A deferred command line is known at apply: the plan shows its template.
  desired: { line: spec.deferred?.templates.command ?? spec.command, provider: spec.provider, returns: [...spec.returns] },
})

/**
 * Plans a command from its step, refresh_only and what its guards said: run, a conditional
 * refresh, or skipped (with the step kept to run if the guards change their answer by apply).
 */
export const planStep = (head: ReturnType<typeof headOf>, step: Step.ExecRun, refreshOnly: boolean, s: ExecStatus, subscription: Subscription): ExecResourcePlan => {
  const d = decideStep(step.guards, refreshOnly, s)
  const subscribe = subscription.ids.length > 0 ? { subscribe: [...subscription.ids] } : {}
  const digest = (): string => Digest.ofValue(s)
  if (d._tag === 'Run') return { ...head, action: 'run', observed: Plan.observedLazily(`would run: ${d.reason}`, digest), steps: [{ ...step, reason: d.reason, ...subscribe }] }
  if (subscription.changing.length > 0) {
    const when = `${subscription.changing.join(' or ')} change${subscription.changing.length === 1 ? 's' : ''}`
    return {
      ...head,
      action: 'run',
      observed: Plan.observedLazily(`would run if ${when} (a subscribe refresh); otherwise skipped: ${d.reason}`, digest),
      steps: [{ ...step, reason: `refresh: ${when}`, ...subscribe, when: [...subscription.changing], noop: 'Would have executed via subscribe' }],
      // Not refreshed after all: its guards are asked again, as for any command they skipped.
      ...(refreshOnly ? {} : { recheck: { ...step, reason: `its guards' answer changed since the plan (then: ${d.reason})`, ...subscribe } }),
    }
  }
  // Skipped by creates or a guard: apply asks them again at its turn, and runs it if they changed their answer.
  const recheck = refreshOnly ? {} : { recheck: { ...step, reason: `its guards' answer changed since the plan (then: ${d.reason})`, ...subscribe } }
  return { ...head, action: 'none', observed: Plan.observedLazily(`skipped: ${d.reason}`, digest), steps: [], ...recheck }
}

/** Why the command should not run now, by its guards' answers (undefined: it runs). */
export const skipReason = (g: Step.ExecRun['guards'], s: ExecStatus): string | undefined => {
  if (g.creates !== undefined && s.creates === true) return `creates ${g.creates} exists`
  if (g.onlyif !== undefined && s.onlyif === false) return 'onlyif guard exited non-zero'
  if (g.unless !== undefined && s.unless === true) return 'unless guard exited 0'
  return undefined
}

/** Whether an exit means success, and if not, why. */
export const checkExit = (returns: ReadonlyArray<number>, exitCode: number | undefined, signal: string | undefined): string | undefined =>
  exitCode === undefined
    ? `it was ended by signal ${signal ?? 'unknown'}`
    : returns.includes(exitCode)
      ? undefined
      : `exit code ${exitCode} is not one of the accepted returns [${returns.join(', ')}]`
