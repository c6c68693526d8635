// memory: the scripted double of the Holo host (Host.ts), for offline tests of what builds on it.
// Each plugin is given with its entities and, per entity, what apply, force-apply and diff answer
// (an Applied or Diff, or a Fault); by default apply changes the entity once and then reports it
// not changed, and diff has no diff. Every operation run is recorded.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Host from './Host.js'
import * as Entity from './protocol/Entity.js'
import * as Outcome from './protocol/Outcome.js'
import * as Output from './protocol/Output.js'

// model

/** What a scripted entity answers. */
export interface Script {
  readonly apply?: (force: boolean, count: number) => E.Either<Fault.Fault, Host.Applied>
  readonly diff?: () => E.Either<Fault.Fault, Host.Diff>
}

export interface PluginScript {
  readonly id: string
  readonly entities: ReadonlyArray<Entity.Entity & { readonly script?: Script }>
  /** A fault its scan gives instead of the entities. */
  readonly scanFault?: Fault.Fault
}

/** One operation the double ran: `scan PLUGIN`, `apply ENTITY`, `force-apply ENTITY`, `diff ENTITY`. */
export type Call = string

// constructors

/** A memory host on a root; `calls` lists what ran. */
export const make = (plugins: ReadonlyArray<PluginScript>, root = '/'): Host.Host & { readonly calls: () => ReadonlyArray<Call> } => {
  const calls: Call[] = []
  const applied = new Map<string, number>()
  const entityOf = (e: Entity.Entity) => plugins.find((p) => p.id === e.plugin)?.entities.find((x) => x.id === e.id)
  const missing = (op: string, e: Entity.Entity): E.Either<Fault.Fault, never> => E.left(Fault.make('NotFound', 'holo', op, `${e.plugin} ${e.id}`, `no entity ${e.id} in plugin ${e.plugin}`))
  return {
    root,
    plugins: plugins.map((p) => ({ id: p.id, binary: `/usr/lib/holo/holo-${p.id}`, info: [['MIN_API_VERSION', '3'], ['MAX_API_VERSION', '3']], resourceDir: `/tmp/holo.0/generated-resources/${p.id}`, stateDir: `/var/lib/holo/${p.id}`, cacheDir: `/tmp/holo.0/${p.id}` })),
    notes: [],
    calls: () => [...calls],
    scan: (p) => async () => {
      calls.push(`scan ${p.id}`)
      const s = plugins.find((x) => x.id === p.id)
      if (s === undefined) return E.left(Fault.make('NotFound', 'holo', 'scan', p.id, `no plugin ${p.id}`))
      if (s.scanFault !== undefined) return E.left(s.scanFault)
      const entities = s.entities.map(({ script: _script, ...e }) => Entity.make({ ...e, plugin: p.id })).sort((a, b) => Entity.compareIds(a.id, b.id))
      return E.right({ plugin: p.id, entities, stderr: '' })
    },
    apply: (e, force) => async () => {
      const op = force ? 'force-apply' : 'apply'
      calls.push(`${op} ${e.id}`)
      const x = entityOf(e)
      if (x === undefined) return missing(op, e)
      const count = applied.get(`${e.plugin} ${e.id}`) ?? 0
      applied.set(`${e.plugin} ${e.id}`, count + 1)
      if (x.script?.apply !== undefined) return x.script.apply(force, count)
      return E.right({ outcome: count === 0 ? Outcome.changed : Outcome.notChanged, output: Output.empty })
    },
    diff: (e) => async () => {
      calls.push(`diff ${e.id}`)
      const x = entityOf(e)
      if (x === undefined) return missing('diff', e)
      return x.script?.diff !== undefined ? x.script.diff() : E.right({ _tag: 'NoDiff', output: Output.empty })
    },
    lock: () => async () => E.right(async () => undefined),
    close: async () => undefined,
  }
}
