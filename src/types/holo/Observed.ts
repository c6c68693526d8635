// Observed: what plait knows of the Holo entities a holo resource takes, once the plugins answered
// (pure): each entity with the ACTION its scan reported, whether its plugin says it is up to date,
// and the local modification its `diff` shows. Holo has no dry run: a plugin can only say an
// entity is up to date with the informational scan line `state: up to date` (plait's convention,
// see docs/holo-plugins.md); any other entity is applied, since only applying it can tell.
import * as Digest from '../../core/Digest.js'
import * as Entity from '../../interpreters/holo/protocol/Entity.js'
import type * as Spec from './Spec.js'

// model

/** A change made to an entity since its plugin last applied it, as its `diff` shows it. */
export interface Local {
  /** Modified: the entity differs from what was applied; Deleted: it is gone. */
  readonly _tag: 'Modified' | 'Deleted'
  /** The unified diff from the state last applied to the current state, in Holo's form (`diff --holo FROM TO`). */
  readonly diff: string
}

/** One entity of a plugin's scan. */
export interface Found {
  readonly plugin: string
  /** The entity ID. */
  readonly id: string
  /** The ACTION verb ("Working on" without an ACTION line, as Holo shows it) and reason ("" when none). */
  readonly verb: string
  readonly reason: string
  /** True when the report has no ACTION line and says `state: up to date`. */
  readonly upToDate: boolean
  /** The rest of its report: `SOURCE: ...` and the informational `key: value` lines, in order (part of the staleness digest). */
  readonly lines?: ReadonlyArray<string>
  readonly local?: Local
}

/** What the `holo` request family answers for one holo resource. */
export interface Observed {
  /** The configured plugins that answered `info`, in configuration order. */
  readonly plugins: ReadonlyArray<string>
  /** The entities the resource's selector takes, in Holo's order (plugin by plugin, each plugin's by ID). */
  readonly entities: ReadonlyArray<Found>
}

/** What a plugin's `diff` of an entity gave, as the request family reads it. */
export type DiffSeen =
  /** No meaningful diff (nothing on fd 3). */
  | { readonly _tag: 'None' }
  /** The two files: whether each was missing, and the rendered diff (empty when they are the same). */
  | { readonly _tag: 'Files'; readonly fromMissing: boolean; readonly toMissing: boolean; readonly text: string }

/** An entity as a scan reported it (the fields of the host's Entity that planning reads). */
export type Reported = Pick<Entity.Entity, 'plugin' | 'id' | 'actionVerb' | 'actionReason' | 'sources' | 'info'>

/** The informational scan line by which a plugin says an entity is up to date. */
export const upToDate = { key: 'state', value: 'up to date' } as const

// constructors

/**
 * The local modification a diff shows: none when there is no diff, when the files are the same,
 * or when there is no applied state to compare with (the entity was never applied, or its
 * resources are gone); Deleted when the current state is missing; Modified otherwise.
 */
export const localOf = (d: DiffSeen): Local | undefined => {
  if (d._tag === 'None' || d.text === '' || d.fromMissing) return undefined
  return { _tag: d.toMissing ? 'Deleted' : 'Modified', diff: d.text }
}

/** An entity as planning sees it: its report and what its diff showed. */
export const found = (e: Reported, d: DiffSeen): Found => {
  const local = localOf(d)
  const noAction = e.actionVerb === Entity.defaultVerb && e.actionReason === ''
  return {
    plugin: e.plugin,
    id: e.id,
    verb: e.actionVerb,
    reason: e.actionReason,
    upToDate: noAction && e.info.some((l) => l.key === upToDate.key && l.value === upToDate.value),
    lines: [...e.sources.map((s) => `SOURCE: ${s}`), ...e.info.map((l) => `${l.key}: ${l.value}`)],
    ...(local !== undefined ? { local } : {}),
  }
}

// combinators

/** The entities a selector takes from every plugin's scan (in the order given). */
export const select = <A extends { readonly plugin: string; readonly id: string }>(s: Spec.Selector, entities: ReadonlyArray<A>): ReadonlyArray<A> =>
  s._tag === 'All' ? entities : s._tag === 'Plugin' ? entities.filter((e) => e.plugin === s.plugin) : entities.filter((e) => e.id === s.id)

/** The plugins a selector needs scanned, among the configured ones. */
export const pluginsFor = (s: Spec.Selector, configured: ReadonlyArray<string>): ReadonlyArray<string> =>
  s._tag === 'Plugin' ? configured.filter((p) => p === s.plugin) : configured

/** True when applying the entity has nothing to do. */
export const converged = (f: Found): boolean => f.upToDate && f.local === undefined

// A diff's header lines name files that may be temporary (a plugin's cache): they are not part of what changed.
const header = /^(diff --holo |--- |\+\+\+ )/

/** The digest the staleness check compares: every entity's whole report (what its plugin says of its resources) and local change (diff headers aside). */
export const digest = (o: Observed): string =>
  Digest.ofValue(
    o.entities.map((e) => ({
      plugin: e.plugin,
      id: e.id,
      verb: e.verb,
      reason: e.reason,
      upToDate: e.upToDate,
      lines: e.lines ?? [],
      local: e.local === undefined ? null : { tag: e.local._tag, diff: e.local.diff.split('\n').filter((l) => !header.test(l)) },
    })),
  )

/** A summary for people: how many entities, how many up to date, how many changed locally. */
export const summary = (o: Observed): string => {
  const n = o.entities.length
  const done = o.entities.filter(converged).length
  const local = o.entities.filter((e) => e.local !== undefined).length
  return `${n} Holo entit${n === 1 ? 'y' : 'ies'}, ${done} up to date${local > 0 ? `, ${local} changed locally` : ''}`
}
