// memory: a libral provider host in memory. A Session whose providers keep their resources in
// maps instead of running programs: libral types can be planned, applied and verified offline, and
// it passes the same session contract as the real host (test/contract/libral.contract.ts). It
// refuses what the real host refuses (an action the metadata lacks, a noop update to a provider
// that did not opt in, a read-only attribute), keeps a provider's list until it updates, as the
// real session does, and records an invocation for every provider run the real host would start
// (under the same action), so process counts can be checked offline too.
import * as E from 'fp-ts/lib/Either.js'
import type * as Fault from '../../core/Fault.js'
import * as Changes from './protocol/Changes.js'
import * as Resource from './protocol/Resource.js'
import * as Invoke from './invoke.js'
import type { Session } from './Session.js'

/** Each provider's resources (by full name), each resource's attributes by name (without `name` and `ensure`). */
export type Stores = Readonly<Record<string, Readonly<Record<string, Resource.Attrs>>>>

export interface MemoryHost extends Session {
  /** What a provider holds now. */
  readonly state: (qname: string) => Stores[string]
}

/** A host whose providers hold `initial`. */
export const make = (initial: Stores = {}): MemoryHost => {
  const stores = new Map<string, Map<string, Resource.Attrs>>(Object.entries(initial).map(([q, rs]) => [q, new Map(Object.entries(rs))]))
  const done: Invoke.Invocation[] = []
  const context: Invoke.Context = { env: {}, record: (i) => done.push(i) }
  const storeOf = (t: Invoke.Target): Map<string, Resource.Attrs> => {
    let s = stores.get(t.meta.qname)
    if (s === undefined) {
      s = new Map()
      stores.set(t.meta.qname, s)
    }
    return s
  }
  // Recorded under the action the real host would run: the json convention gets and sets.
  const ran = (t: Invoke.Target, simple: 'list' | 'find' | 'update'): void => {
    const action = t.meta.invoke === 'json' ? (simple === 'update' ? 'set' : 'get') : simple
    context.record({ provider: t.meta.qname, path: t.path, action, args: [`ral_action=${action}`], input: '', exitCode: 0, durationMs: 0, logs: [], notes: [], outcome: 'ok' })
  }
  const resourceOf = (name: string, attrs: Resource.Attrs): Resource.Resource => Resource.make(name, { ...attrs, ensure: 'present' })
  const listed = (t: Invoke.Target): ReadonlyArray<Resource.Resource> => [...storeOf(t)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, a]) => resourceOf(n, a))
  // As the real session does, a provider's list is run once until it updates something.
  const lists = new Map<string, ReadonlyArray<Resource.Resource>>()
  const list = async (t: Invoke.Target): Promise<E.Either<Fault.Fault, ReadonlyArray<Resource.Resource>>> => {
    if (!t.meta.actions.list) return Invoke.unsupported(t, 'list')
    let rs = lists.get(t.meta.qname)
    if (rs === undefined) {
      ran(t, 'list')
      rs = listed(t)
      lists.set(t.meta.qname, rs)
    }
    return E.right(rs)
  }
  const find = async (t: Invoke.Target, name: string): Promise<E.Either<Fault.Fault, Resource.Found>> => {
    if (!t.meta.actions.find) {
      const all = await list(t)
      return E.map((rs: ReadonlyArray<Resource.Resource>) => {
        const r = rs.find((x) => x.name === name)
        return r === undefined ? Resource.absent(name) : Resource.present(r)
      })(all)
    }
    ran(t, 'find')
    const a = storeOf(t).get(name)
    return E.right(a === undefined ? Resource.absent(name) : Resource.present(resourceOf(name, a)))
  }
  return {
    env: {},
    context,
    list,
    find,
    observe: async (t, names) => {
      if (names.length === 1 && t.meta.actions.find && !lists.has(t.meta.qname)) return E.map((f: Resource.Found) => new Map([[names[0]!, f]]) as ReadonlyMap<string, Resource.Found>)(await find(t, names[0]!))
      const all = await list(t)
      if (E.isLeft(all)) return all
      const byName = new Map(all.right.map((r) => [r.name, r]))
      return E.right(new Map(names.map((n) => [n, byName.has(n) ? Resource.present(byName.get(n)!) : Resource.absent(n)])))
    },
    update: async (t, found, changes, o) => {
      if (changes.length === 0) return E.right({ _tag: 'Updated', changes: [], after: found })
      const refused = Invoke.refusal(t, changes, o)
      if (refused !== undefined) return E.left(refused)
      ran(t, 'update')
      const name = Resource.nameOf(found)
      if (!o.noop) lists.delete(t.meta.qname)
      if (!o.noop) {
        const store = storeOf(t)
        if (changes.some((c) => c.attr === 'ensure' && c.is === 'absent')) store.delete(name)
        else {
          const attrs: Record<string, Resource.Attrs[string]> = { ...(store.get(name) ?? {}) }
          for (const c of changes) if (c.attr !== 'ensure') attrs[c.attr] = c.is
          store.set(name, attrs)
        }
      }
      const made = Changes.applied(found, changes, { unknown: false, derive: true, changes: [] })
      return E.right({ _tag: 'Updated', changes: made, after: Changes.after(found, changes, made) })
    },
    invocations: () => [...done],
    state: (qname) => Object.fromEntries(stores.get(qname) ?? []),
  }
}
