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
import * as Digest from '../../core/Digest.js'
import type * as Plan from '../../core/Plan.js'
import type * as Step from '../../core/Step.js'
import type { ExecSpec, Provider } from './Spec.js'
import * as Words from './Words.js'

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
  const words = Words.split(line)
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
export const decide = (spec: ExecSpec, s: ExecStatus): Decision => {
  const skip = skipReason(guardsOf(spec), s)
  if (skip !== undefined) return { _tag: 'Skip', reason: skip }
  if (spec.refreshOnly) return { _tag: 'Skip', reason: 'refresh_only, and no subscribed resource changes' }
  const why = [
    spec.creates !== undefined ? `creates ${spec.creates} does not exist` : undefined,
    spec.onlyif !== undefined ? 'onlyif passed' : undefined,
    spec.unless !== undefined ? 'unless guard exited non-zero' : undefined,
  ].filter((x): x is string => x !== undefined)
  return { _tag: 'Run', reason: why.length === 0 ? 'no creates or guards: it runs every time' : why.join(', ') }
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
export const plan = (spec: ExecSpec, s: ExecStatus, subscription: Subscription = { ids: [], changing: [] }): Plan.ExecResourcePlan => {
  const d = decide(spec, s)
  const base = {
    id: spec.id,
    type: 'exec' as const,
    name: spec.name,
    at: `${spec.at.file}:${spec.at.line}:${spec.at.col}`,
    desired: { line: spec.command, provider: spec.provider, returns: [...spec.returns] },
  }
  const subscribe = subscription.ids.length > 0 ? { subscribe: [...subscription.ids] } : {}
  if (d._tag === 'Run') {
    return { ...base, action: 'run', observed: { summary: `would run: ${d.reason}`, digest: Digest.ofValue(s) }, steps: [{ ...stepOf(spec, d.reason), ...subscribe }] }
  }
  if (subscription.changing.length > 0) {
    const when = `${subscription.changing.join(' or ')} change${subscription.changing.length === 1 ? 's' : ''}`
    return {
      ...base,
      action: 'run',
      observed: { summary: `would run if ${when} (a subscribe refresh); otherwise skipped: ${d.reason}`, digest: Digest.ofValue(s) },
      steps: [{ ...stepOf(spec, `refresh: ${when}`), ...subscribe, when: [...subscription.changing], noop: 'Would have executed via subscribe' }],
    }
  }
  // Skipped by creates or a guard: apply asks them again at its turn, and runs it if they changed their answer.
  const recheck = spec.refreshOnly ? {} : { recheck: { ...stepOf(spec, `its guards' answer changed since the plan (then: ${d.reason})`), ...subscribe } }
  return { ...base, action: 'none', observed: { summary: `skipped: ${d.reason}`, digest: Digest.ofValue(s) }, steps: [], ...recheck }
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
