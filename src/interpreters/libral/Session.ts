// Session: one run's access to libral providers. It holds the scrubbed environment and the
// timeout, runs each provider's `list` at most once until that provider updates something (so
// observing 500 resources of one provider starts it once), and keeps every invocation as a value:
// the process count, the durations and the stderr lines of the run.
import * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../../core/Fault.js'
import * as Env from './protocol/Env.js'
import * as Resource from './protocol/Resource.js'
import type { Processes } from '../process.js'
import * as Invoke from './invoke.js'

// model

export interface Options {
  /** The sandbox root (a host directory), passed to providers as PLAIT_ROOT_DIR. */
  readonly root?: string
  /** Overrides every provider's timeout (seconds). */
  readonly timeoutSeconds?: number
  /** The host environment to scrub (default: this process's). */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>
  /** Called as each invocation finishes (to stream stderr lines to a terminal, say). */
  readonly onInvocation?: (i: Invoke.Invocation) => void
  /** What runs the providers (default: real processes). */
  readonly processes?: Processes
}

export interface Session {
  readonly env: Readonly<Record<string, string>>
  readonly context: Invoke.Context
  /** Every resource of a provider (one `list` per provider until it updates). */
  readonly list: (t: Invoke.Target) => Promise<E.Either<Fault.Fault, ReadonlyArray<Resource.Resource>>>
  /** One resource, with `find` (never cached). */
  readonly find: (t: Invoke.Target, name: string) => Promise<E.Either<Fault.Fault, Resource.Found>>
  /**
   * What each name is: with `find` when exactly one name is wanted and the provider can find, else
   * from the provider's one `list`.
   */
  readonly observe: (t: Invoke.Target, names: ReadonlyArray<string>) => Promise<E.Either<Fault.Fault, ReadonlyMap<string, Resource.Found>>>
  /** Updates one resource (see Invoke.update); forgets the provider's cached list. */
  readonly update: (t: Invoke.Target, found: Resource.Found, changes: ReadonlyArray<Resource.Change>, options: { readonly noop: boolean }) => Promise<E.Either<Fault.Fault, Invoke.Updated>>
  /** Every invocation so far, in the order they finished. */
  readonly invocations: () => ReadonlyArray<Invoke.Invocation>
}

// constructors

/** Starts a session. */
export const make = (options: Options = {}): Session => {
  const env = Env.scrub(options.hostEnv ?? process.env, options.root)
  const done: Invoke.Invocation[] = []
  const context: Invoke.Context = {
    env,
    ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
    ...(options.processes !== undefined ? { processes: options.processes } : {}),
    record: (i) => {
      done.push(i)
      options.onInvocation?.(i)
    },
  }
  const lists = new Map<string, Promise<E.Either<Fault.Fault, ReadonlyArray<Resource.Resource>>>>()
  const keyOf = (t: Invoke.Target): string => `${t.meta.qname}\u0000${t.path}`

  const list = (t: Invoke.Target): Promise<E.Either<Fault.Fault, ReadonlyArray<Resource.Resource>>> => {
    const k = keyOf(t)
    const cached = lists.get(k)
    if (cached !== undefined) return cached
    const p = Invoke.list(context, t)
    lists.set(k, p)
    return p
  }

  const observe = async (t: Invoke.Target, names: ReadonlyArray<string>): Promise<E.Either<Fault.Fault, ReadonlyMap<string, Resource.Found>>> => {
    if (names.length === 1 && t.meta.actions.find && !lists.has(keyOf(t))) {
      const f = await Invoke.find(context, t, names[0]!)
      return E.map((x: Resource.Found) => new Map([[names[0]!, x]]) as ReadonlyMap<string, Resource.Found>)(f)
    }
    const all = await list(t)
    if (E.isLeft(all)) return all
    const byName = new Map(all.right.map((r) => [r.name, r]))
    return E.right(new Map(names.map((n) => [n, byName.has(n) ? Resource.present(byName.get(n)!) : Resource.absent(n)])))
  }

  return {
    env,
    context,
    list,
    find: (t, name) => Invoke.find(context, t, name),
    observe,
    update: async (t, found, changes, o) => {
      const r = await Invoke.update(context, t, found, changes, o)
      if (!o.noop) lists.delete(keyOf(t))
      return r
    },
    invocations: () => [...done],
  }
}
