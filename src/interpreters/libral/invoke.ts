// invoke: runs one action of a libral provider (describe, list, find, update) in either calling
// convention, and returns its typed result or a Fault naming the provider and the action. Every
// run is recorded as an Invocation value (arguments, exit, duration, stderr lines by level, notes).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Args from './protocol/Args.js'
import * as Changes from './protocol/Changes.js'
import * as Json from './protocol/Json.js'
import * as Log from './protocol/Log.js'
import * as Metadata from './protocol/Metadata.js'
import type * as Reply from './protocol/Reply.js'
import * as Resource from './protocol/Resource.js'
import * as SimpleOutput from './protocol/SimpleOutput.js'
import * as Processes from '../process.js'
import type { Processes as ProcessesT } from '../process.js'

// model

/** A provider to run: its metadata and its executable. */
export interface Target {
  readonly meta: Metadata.Metadata
  readonly path: string
}

/** One run of a provider, kept as a value for logs, reports and process counts. */
export interface Invocation {
  readonly provider: string
  readonly path: string
  readonly action: string
  readonly args: ReadonlyArray<string>
  readonly input: string
  readonly exitCode?: number
  readonly durationMs: number
  readonly logs: ReadonlyArray<Log.Line>
  /** What the output parser ignored (attributes the metadata does not describe, ...). */
  readonly notes: ReadonlyArray<string>
  /** `ok`, `error` (the provider reported one) or `fault` (it failed, crashed, timed out or broke the protocol). */
  readonly outcome: 'ok' | 'error' | 'fault'
}

export interface Context {
  /** The provider's whole environment (see Env.scrub). */
  readonly env: Readonly<Record<string, string>>
  /** A timeout (seconds) that overrides every provider's own; else the provider's `plait.timeout`, else 60 s. */
  readonly timeoutSeconds?: number
  /** Receives every invocation as it finishes. */
  readonly record: (i: Invocation) => void
  /** What runs the providers (default: real processes; tests give the double of process.ts). */
  readonly processes?: ProcessesT
}

/** What an update did. */
export type Updated =
  | { readonly _tag: 'Unknown' }
  | { readonly _tag: 'Updated'; readonly changes: ReadonlyArray<Resource.Change>; readonly after: Resource.Found }

/** The timeout of a provider that sets none. */
export const defaultTimeoutSeconds = 60

/** Faults of errors a provider reported (`ral_error`, json `error`) carry this cause. */
export interface Reported {
  readonly reported: true
  readonly kind: Reply.ErrorKind
  /** The message as the provider wrote it (possibly empty, which is not well-formed). */
  readonly message: string
}

/** Faults of a non-zero exit carry this cause. */
export interface Exited {
  readonly exitCode: number | undefined
  readonly signal: string | undefined
}

// guards

/** True for a fault that is an error the provider reported in its output (exit 0, well-formed). */
export const isReported = (f: Fault.Fault): boolean =>
  f._tag === 'Failed' && typeof f.cause === 'object' && f.cause !== null && (f.cause as Partial<Reported>).reported === true

// constructors

const subjectOf = (t: { readonly qname: string; readonly path: string }): string => `${t.qname} (${t.path})`

/** The timeout that applies to a provider, in milliseconds. */
export const timeoutMs = (ctx: Context, meta?: Metadata.Metadata): number => 1000 * (ctx.timeoutSeconds ?? meta?.timeoutSeconds ?? defaultTimeoutSeconds)

interface Call<A> {
  readonly action: string
  readonly args: ReadonlyArray<string>
  readonly input: string
  /** The protocol's pure parser of stdout: its message says how the output breaks the protocol, and `call` makes it a ProtocolViolation naming the provider and the action. */
  readonly parse: (stdout: string) => E.Either<string, Reply.Reply<A>>
}

/** Runs one call: spawn, log stderr, refuse a non-zero exit, parse stdout, record. */
const call = async <A>(ctx: Context, who: { readonly qname: string; readonly path: string; readonly meta?: Metadata.Metadata }, c: Call<A>): Promise<E.Either<Fault.Fault, A>> => {
  const subject = subjectOf(who)
  const exit = await (ctx.processes ?? Processes.real).run({ file: who.path, args: c.args, env: ctx.env, input: c.input, timeoutMs: timeoutMs(ctx, who.meta), subject, op: c.action })
  const base = { provider: who.qname, path: who.path, action: c.action, args: c.args, input: c.input }
  if (E.isLeft(exit)) {
    ctx.record({ ...base, durationMs: 0, logs: [], notes: [], outcome: 'fault' })
    return exit
  }
  const x = exit.right
  const logs = Log.parse(x.stderr)
  const done = (outcome: Invocation['outcome'], notes: ReadonlyArray<string> = []): void =>
    ctx.record({ ...base, ...(x.exitCode !== undefined ? { exitCode: x.exitCode } : {}), durationMs: x.durationMs, logs, notes, outcome })
  if (x.exitCode !== 0) {
    done('fault')
    const lastError = [...logs].reverse().find((l) => l.level === 'error') ?? logs[logs.length - 1]
    const status = x.exitCode === undefined ? `was killed by ${x.signal ?? 'a signal'}` : `exited with status ${x.exitCode}`
    const cause: Exited = { exitCode: x.exitCode, signal: x.signal }
    return E.left(Fault.make('Failed', 'libral', c.action, subject, `${status} (a fatal error)${lastError === undefined ? '' : `: ${lastError.message}`}`, cause))
  }
  const reply = c.parse(x.stdout)
  if (E.isLeft(reply)) {
    done('fault')
    return E.left(Fault.make('ProtocolViolation', 'libral', c.action, subject, `unreadable output: ${reply.left}`))
  }
  if (reply.right._tag === 'Error') {
    done('error')
    const cause: Reported = { reported: true, kind: reply.right.kind, message: reply.right.message }
    return E.left(Fault.make('Failed', 'libral', c.action, subject, reply.right.message.trim() === '' ? '(the provider gave no message)' : reply.right.message, cause))
  }
  done('ok', reply.right.notes)
  return E.right(reply.right.value)
}

/** Runs `ral_action=describe` and returns its stdout (the YAML metadata text). */
export const describe = (ctx: Context, path: string): Promise<E.Either<Fault.Fault, string>> =>
  call(ctx, { qname: Metadata.defaultName(path), path }, {
    action: 'describe',
    args: ['ral_action=describe'],
    input: '',
    parse: (stdout) => E.right({ _tag: 'Ok', value: stdout, notes: [] }),
  })

/** The refusal of an action a provider's metadata does not list. */
export const unsupported = (t: Target, action: string): E.Either<Fault.Fault, never> =>
  E.left(Fault.make('Failed', 'libral', action, subjectOf({ qname: t.meta.qname, path: t.path }), `the provider does not support ${action} (its metadata lists no such action)`))

const who = (t: Target): { readonly qname: string; readonly path: string; readonly meta: Metadata.Metadata } => ({ qname: t.meta.qname, path: t.path, meta: t.meta })

/** Lists every resource of a provider. */
export const list = (ctx: Context, t: Target): Promise<E.Either<Fault.Fault, ReadonlyArray<Resource.Resource>>> => {
  if (!t.meta.actions.list) return Promise.resolve(unsupported(t, 'list'))
  return t.meta.invoke === 'json'
    ? call(ctx, who(t), { action: 'get', args: ['ral_action=get'], input: Json.getInput([]), parse: (s) => Json.parseGet(t.meta, s) })
    : call(ctx, who(t), { action: 'list', args: ['ral_action=list'], input: '', parse: (s) => SimpleOutput.parseList(t.meta, s) })
}

/** Finds one resource by name (with list, for a provider that has no find). */
export const find = async (ctx: Context, t: Target, name: string): Promise<E.Either<Fault.Fault, Resource.Found>> => {
  if (!t.meta.actions.find) {
    const all = await list(ctx, t)
    if (E.isLeft(all)) return all
    const r = all.right.find((x) => x.name === name)
    return E.right(r === undefined ? Resource.absent(name) : Resource.present(r))
  }
  if (t.meta.invoke === 'json') {
    return call(ctx, who(t), { action: 'get', args: ['ral_action=get'], input: Json.getInput([name]), parse: (s) => Json.parseGetOne(t.meta, name, s) })
  }
  const args = Args.forAction('find', { name })
  if (E.isLeft(args)) return E.left(Fault.make('Failed', 'libral', 'find', subjectOf({ qname: t.meta.qname, path: t.path }), args.left))
  return call(ctx, who(t), { action: 'find', args: args.right, input: '', parse: (s) => SimpleOutput.parseFind(t.meta, name, s) })
}

/**
 * Why an update may not be sent (any provider host refuses it the same way): the provider has no
 * update action, a noop update to a provider that did not opt in to noop, or a change of `name`
 * or of a read-only attribute. Undefined when it may.
 */
export const refusal = (t: Target, changes: ReadonlyArray<Resource.Change>, options: { readonly noop: boolean }): Fault.Fault | undefined => {
  const subject = subjectOf({ qname: t.meta.qname, path: t.path })
  if (!t.meta.actions.update) return (unsupported(t, 'update') as E.Left<Fault.Fault>).left
  if (options.noop && !t.meta.noop) return Fault.make('Failed', 'libral', 'update', subject, 'refusing a noop update: the provider does not declare plait.noop: true, so it may ignore ral_noop and change the machine')
  for (const c of changes) {
    const a = Metadata.attribute(t.meta, c.attr)
    if (a === undefined || !Metadata.isWritable(a)) return Fault.make('Failed', 'libral', 'update', subject, `refusing to send "${c.attr}": not a writable attribute`)
  }
  return undefined
}

/**
 * Updates one resource with exactly the given changes (planned against `found`). Refuses to send
 * `name` or a read-only attribute, and to ask for noop a provider that did not opt in to it
 * (`plait.noop: true`). No changes: nothing runs.
 */
export const update = async (ctx: Context, t: Target, found: Resource.Found, changes: ReadonlyArray<Resource.Change>, options: { readonly noop: boolean }): Promise<E.Either<Fault.Fault, Updated>> => {
  const subject = subjectOf({ qname: t.meta.qname, path: t.path })
  const name = Resource.nameOf(found)
  if (changes.length === 0) return E.right({ _tag: 'Updated', changes: [], after: found })
  const refused = refusal(t, changes, options)
  if (refused !== undefined) return E.left(refused)
  const report =
    t.meta.invoke === 'json'
      ? await call(ctx, who(t), { action: 'set', args: ['ral_action=set'], input: Json.setInput(found, changes, options.noop), parse: (s) => Json.parseSet(t.meta, name, s) })
      : await (async () => {
          const args = Args.forAction('update', { name, changes, noop: options.noop })
          if (E.isLeft(args)) return E.left(Fault.make('Failed', 'libral', 'update', subject, args.left))
          return call(ctx, who(t), { action: 'update', args: args.right, input: '', parse: (s) => SimpleOutput.parseUpdate(t.meta, name, s) })
        })()
  if (E.isLeft(report)) return report
  if (report.right.unknown) return E.right({ _tag: 'Unknown' })
  const made = Changes.applied(found, changes, report.right)
  return E.right({ _tag: 'Updated', changes: made, after: Changes.after(found, changes, made) })
}
