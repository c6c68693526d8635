// steps: the interpreter of `holo.*` steps: one entity applied by its plugin, with `apply`, or
// `force-apply` when the run was asked to force (`plait apply --force`). Each step opens the Holo
// host on the machine's root (in an apply, the run's shared host: shared.ts), takes Holo's run
// lock, finds the entity in its plugin's scan, applies, and closes the host. A plugin is scanned
// once per host, as Holo scans once and then applies each entity (a plugin may reuse its scan's
// cache when it applies). What the plugin prints is kept for the report. An entity that needs
// --force fails with its diff shown; one the plugin did not change ("not changed") is reported
// stable. A Holo step cannot be undone.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type * as Plan from '../../core/Plan.js'
import * as Step from '../../types/holo/Step.js'
import type * as Host from '../holo/Host.js'
import * as Output from '../holo/protocol/Output.js'
import type { StepFamily } from '../steps.js'
import type { OpenHost } from './probes.js'
import * as Append from '../../core/Append.js'

/** How a run applies Holo entities. */
export interface Options {
  readonly open: OpenHost
  /** Run `force-apply`, which overwrites local changes, instead of `apply`. */
  readonly force: boolean
}

/** What a step that changed nothing returns (the executor reports its resource stable). */
export const unchanged = Object.freeze({ unchanged: true })

/** The most lines of a plugin's output kept for the report. */
export const maxLines = 200

/** A text as report lines (empty lines dropped, at most maxLines). */
const linesOf = (text: string): ReadonlyArray<string> => {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  return lines.length <= maxLines ? lines : [...lines.slice(0, maxLines), `(${lines.length - maxLines} more lines)`]
}

const fail = (s: Step.HoloApply, op: string, description: string, cause?: unknown): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'holo', op, `${s.plugin} ${s.entity}`, description, cause))

/** A plugin's scan, its entities by ID. */
type Scanned = E.Either<Fault.Fault, ReadonlyMap<string, Host.Entity.Entity>>

/** Each host's scans by plugin, each made on first use: a step looks its entity up in the scan of its host. */
const scans = (): ((host: Host.Host, plugin: Host.Plugin) => Promise<Scanned>) => {
  const made = new WeakMap<Host.Host, Map<string, Promise<Scanned>>>()
  return (host, plugin) => {
    let ofHost = made.get(host)
    if (ofHost === undefined) made.set(host, (ofHost = new Map()))
    let scanned = ofHost.get(plugin.id)
    if (scanned === undefined) {
      scanned = (async () => E.map((scan: Host.Scan) => new Map(scan.entities.map((e) => [e.id, e] as const)))(await host.scan(plugin)()))()
      ofHost.set(plugin.id, scanned)
    }
    return scanned
  }
}

/** Applies one entity on an open host that holds the run lock. */
const applyOn = async (host: Host.Host, scanOf: ReturnType<typeof scans>, s: Step.HoloApply, force: boolean, output: string[]): Promise<E.Either<Fault.Fault, unknown>> => {
  const op = force ? 'force-apply' : 'apply'
  const plugin = host.plugins.find((p) => p.id === s.plugin)
  if (plugin === undefined) return fail(s, op, `the Holo plugin ${s.plugin} is no longer configured`)
  const scan = await scanOf(host, plugin)
  if (E.isLeft(scan)) return scan
  const entity = scan.right.get(s.entity)
  if (entity === undefined) return fail(s, op, `the Holo plugin ${s.plugin} no longer reports ${s.entity}`)
  const applied = await host.apply(entity, force)()
  if (E.isLeft(applied)) return applied
  Append.append(output, linesOf(Output.text(applied.right.output)))
  const o = applied.right.outcome
  switch (o._tag) {
    case 'Changed':
      return E.right(undefined)
    case 'NotChanged':
      return E.right(unchanged)
    case 'Failed':
      return fail(s, op, `${s.plugin} could not ${op} ${s.entity}: ${o.message}`)
    case 'RequiresForceToOverwrite':
    case 'RequiresForceToRestore': {
      const restore = o._tag === 'RequiresForceToRestore'
      const diff = await host.diff(entity)()
      if (E.isRight(diff) && diff.right._tag === 'Files') Append.append(output, linesOf(diff.right.text))
      return fail(s, op, `${s.entity} was ${restore ? 'deleted' : 'modified'} locally since it was last applied; plait apply --force ${restore ? 'restores' : 'overwrites'} it`)
    }
  }
}

/** The `holo` step family (its options are asked on the first step). */
export const family = (options: () => Options): StepFamily => {
  const scanOf = scans()
  return {
    describe: (step: Plan.Step) => {
      const s = step as Step.HoloApply
      return `holo ${options().force ? 'force-apply' : 'apply'} ${s.entity} (${s.plugin})`
    },
    prepare: async () => E.right({ _tag: 'Irreversible', reason: 'a Holo plugin keeps no undo of what it applied' }),
    run: async (step, env) => {
      const s = step as Step.HoloApply
      const { open, force } = options()
      // The plan file is input too: a plugin or entity that no scan could report is refused here.
      const bad = Step.problem(s)
      if (bad !== undefined) return E.left(Fault.make('ProtocolViolation', 'holo', 'apply', `${s.plugin} ${s.entity}`, bad))
      const host = await open()()
      if (E.isLeft(host)) return host
      try {
        const release = await host.right.lock()()
        if (E.isLeft(release)) return release
        try {
          return await applyOn(host.right, scanOf, s, force, env.output)
        } finally {
          await release.right()
        }
      } finally {
        await host.right.close()
      }
    },
    failure: (fault) => fault.description,
  }
}
