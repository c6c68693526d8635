// Grouping: the hosts of a catalog diff sorted into groups a reviewer reads once each: the hosts
// whose change is identical, the hosts that fail to compile with the same diagnostics, and those
// whose catalogs are the same (pure; equal inputs, equal output).
//
// Invariant: the groups partition the hosts: every host is in exactly one of `unchanged`, a
// `changed` group or a `failed` group.
import * as Digest from '../core/Digest.js'
import * as CatalogDiff from './CatalogDiff.js'
import * as Structure from './Structure.js'

// model

/**
 * What became of one host: `Compiled` at both revisions (with the difference, maybe empty), or
 * `Failed` at one or both (the rendered diagnostics of each revision that failed).
 */
export type Outcome =
  | { readonly _tag: 'Compiled'; readonly host: string; readonly diff: CatalogDiff.HostDiff }
  | { readonly _tag: 'Failed'; readonly host: string; readonly from?: ReadonlyArray<string>; readonly to?: ReadonlyArray<string> }

/** Hosts with the same difference (its entries, or only formatting changes), sorted by name. */
export interface ChangeGroup {
  readonly hosts: ReadonlyArray<string>
  readonly diff: CatalogDiff.HostDiff
}

/** Hosts that fail to compile with the same diagnostics at each revision (absent: that revision compiled). */
export interface FailureGroup {
  readonly hosts: ReadonlyArray<string>
  readonly from?: ReadonlyArray<string>
  readonly to?: ReadonlyArray<string>
}

/** Groups, largest first (then by their first host; groups that change something before those of formatting only); hosts sorted by name in each. */
export interface Grouped {
  readonly unchanged: ReadonlyArray<string>
  readonly changed: ReadonlyArray<ChangeGroup>
  readonly failed: ReadonlyArray<FailureGroup>
}

// constructors

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const bySize = <G extends { readonly hosts: ReadonlyArray<string> }>(a: G, b: G): number => b.hosts.length - a.hosts.length || byName(a.hosts[0]!, b.hosts[0]!)

/** Values under their keys, the first value of each key kept, with the hosts that gave it. */
const collector = <A>() => {
  const groups = new Map<string, { hosts: string[]; value: A }>()
  return {
    add: (key: string, host: string, value: A): void => {
      const g = groups.get(key)
      if (g === undefined) groups.set(key, { hosts: [host], value })
      else g.hosts.push(host)
    },
    groups: (): ReadonlyArray<{ readonly hosts: string[]; readonly value: A }> => [...groups.values()].map((g) => ({ hosts: g.hosts.sort(byName), value: g.value })),
  }
}

/**
 * Sorts outcomes into groups as they come: a host's difference is kept only when it is the first
 * of its group (hundreds of hosts of one role differ alike, and each difference may hold megabytes
 * of text), and a group is known by the digest of its key. `grouped` gives what `group` would of
 * every outcome added.
 */
export const grouper = (): { readonly add: (o: Outcome) => void; readonly grouped: () => Grouped } => {
  const unchanged: string[] = []
  const changed = collector<CatalogDiff.HostDiff>()
  const failed = collector<Omit<FailureGroup, 'hosts'>>()
  return {
    add: (o) => {
      if (o._tag === 'Failed') {
        const value = { ...(o.from !== undefined ? { from: o.from } : {}), ...(o.to !== undefined ? { to: o.to } : {}) }
        failed.add(Structure.canonical(Structure.plain(value)), o.host, value)
      } else if (o.diff.entries.length === 0 && o.diff.formatting.length === 0) unchanged.push(o.host)
      else changed.add(Digest.sha256(CatalogDiff.key(o.diff)), o.host, o.diff)
    },
    grouped: () => ({
      unchanged: [...unchanged].sort(byName),
      changed: changed
        .groups()
        .map((g) => ({ hosts: g.hosts, diff: g.value }))
        .sort((a, b) => Number(CatalogDiff.isEmpty(a.diff)) - Number(CatalogDiff.isEmpty(b.diff)) || bySize(a, b)),
      failed: failed
        .groups()
        .map((g) => ({ hosts: g.hosts, ...g.value }))
        .sort(bySize),
    }),
  }
}

/** Sorts the outcomes of every host into groups. */
export const group = (outcomes: ReadonlyArray<Outcome>): Grouped => {
  const g = grouper()
  for (const o of outcomes) g.add(o)
  return g.grouped()
}

// guards

/** True when a group's hosts change something a reviewer must look at (not formatting only). */
export const changes = (g: ChangeGroup): boolean => !CatalogDiff.isEmpty(g.diff)
