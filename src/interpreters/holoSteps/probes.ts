// probes: the interpreter of `holo` requests (what the configured Holo plugins report of the
// entities a holo resource takes). A batch opens one Holo host on the machine's root, runs one
// `scan` per plugin any request needs, and one `diff` per entity taken (an entity two requests take
// is diffed once); the host is closed when the batch is answered. A host that cannot open is the
// same Left for every request; a plugin whose scan fails is the Left of the requests that need it
// (a plugin selector naming it, '*', an entity ID no other plugin reports), and an entity whose diff
// fails is the Left of the requests that take it; the others are answered.
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type * as Fault from '../../core/Fault.js'
import type { Family } from '../../core/Observation.js'
import type * as Observe from '../../types/holo/observe.js'
import type * as Spec from '../../types/holo/Spec.js'
import * as Observed from '../../types/holo/Observed.js'
import type * as Host from '../holo/Host.js'
import * as Append from '../../core/Append.js'

/** Opens a Holo host on the machine's root (the real one, or a test's double). */
export type OpenHost = () => TE.TaskEither<Fault.Fault, Host.Host>

/** What a diff showed, as planning reads it (a missing file is /dev/null in the rendered diff). */
export const diffSeen = (d: Host.Diff): Observed.DiffSeen =>
  d._tag === 'NoDiff' ? { _tag: 'None' } : { _tag: 'Files', fromMissing: d.fromFile === '/dev/null', toMissing: d.toFile === '/dev/null', text: d.text }

/**
 * The entities the configured plugins' scans reported, as requests take them: every one, a plugin's,
 * or those of one ID, each in the order of the plugins (as configured) and of each plugin's scan.
 * The lists are made once, when first asked: a batch of a resource per entity looks each up, not
 * through every reported entity.
 */
const reports = (configured: ReadonlyArray<string>, scans: ReadonlyMap<string, E.Either<Fault.Fault, Host.Scan>>) => {
  const ofScan = (p: string): ReadonlyArray<Host.Entity.Entity> => {
    const s = scans.get(p)
    return s !== undefined && E.isRight(s) ? s.right.entities : []
  }
  let all: Host.Entity.Entity[] | undefined
  let byId: Map<string, Host.Entity.Entity[]> | undefined
  return {
    /** The first fault of a scan among `plugins`. */
    fault: (plugins: ReadonlyArray<string>): Fault.Fault | undefined => {
      for (const p of plugins) {
        const s = scans.get(p)
        if (s !== undefined && E.isLeft(s)) return s.left
      }
      return undefined
    },
    /** What `selector` takes of the plugins' reports. */
    select: (selector: Spec.Selector, plugins: ReadonlyArray<string>): ReadonlyArray<Host.Entity.Entity> => {
      switch (selector._tag) {
        case 'Plugin': {
          if (plugins.length === 1) return ofScan(plugins[0]!)
          const out: Host.Entity.Entity[] = []
          for (const p of plugins) Append.append(out, ofScan(p))
          return out
        }
        case 'All':
          if (all === undefined) {
            all = []
            for (const p of configured) Append.append(all, ofScan(p))
          }
          return all
        case 'Entity':
          if (byId === undefined) {
            byId = new Map()
            for (const p of configured)
              for (const e of ofScan(p)) {
                const same = byId.get(e.id)
                if (same === undefined) byId.set(e.id, [e])
                else same.push(e)
              }
          }
          return byId.get(selector.id) ?? []
      }
    },
  }
}

/** Answers a batch of requests on an open host. */
const answerOn = async (host: Host.Host, requests: ReadonlyArray<Observe.Request>): Promise<ReadonlyArray<E.Either<Fault.Fault, Observed.Observed>>> => {
  const configured = host.plugins.map((p) => p.id)
  const wanted = new Set(requests.flatMap((r) => Observed.pluginsFor(r.selector, configured)))
  const scans = new Map<string, E.Either<Fault.Fault, Host.Scan>>()
  for (const p of host.plugins) if (wanted.has(p.id)) scans.set(p.id, await host.scan(p)())
  const reported = reports(configured, scans)
  const diffs = new Map<string, E.Either<Fault.Fault, Observed.DiffSeen>>()
  const diffOf = async (e: Host.Entity.Entity): Promise<E.Either<Fault.Fault, Observed.DiffSeen>> => {
    const key = `${e.plugin}\u0000${e.id}`
    let d = diffs.get(key)
    if (d === undefined) {
      d = E.map(diffSeen)(await host.diff(e)())
      diffs.set(key, d)
    }
    return d
  }
  const answers: E.Either<Fault.Fault, Observed.Observed>[] = []
  for (const r of requests) {
    const plugins = Observed.pluginsFor(r.selector, configured)
    let fault = reported.fault(plugins)
    const selected = reported.select(r.selector, plugins)
    // An entity a plugin that scanned reports does not need the plugins whose scan failed (an
    // entity ID is reported by one plugin); one no such plugin reports might be theirs.
    if (fault !== undefined && r.selector._tag === 'Entity' && selected.length > 0) fault = undefined
    const found: Observed.Found[] = []
    for (const e of fault === undefined ? selected : []) {
      const d = await diffOf(e)
      if (E.isLeft(d)) {
        fault = d.left
        break
      }
      found.push(Observed.found(e, d.right))
    }
    answers.push(fault !== undefined ? E.left(fault) : E.right({ plugins: configured, entities: found }))
  }
  return answers
}

/** The `holo` family over a host opener (a host is opened per batch and closed after it). */
export const family = (open: OpenHost): Family => ({
  merge: true,
  answer: async (bodies) => {
    const requests = bodies as ReadonlyArray<Observe.Request>
    const host = await open()()
    if (E.isLeft(host)) return requests.map(() => host)
    try {
      return await answerOn(host.right, requests)
    } finally {
      await host.right.close()
    }
  },
})
