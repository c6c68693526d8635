// arbitraries: snapshots, differences, outcomes and reports of `plait diff`, for the laws of src/review.
import { fc } from '@fast-check/vitest'
import * as CatalogDiff from '../../src/review/CatalogDiff.js'
import type * as Grouping from '../../src/review/Grouping.js'
import type * as Report from '../../src/review/Report.js'
import type * as Snapshot from '../../src/review/Snapshot.js'
import type * as Structure from '../../src/review/Structure.js'

/** Text with what a hostile manifest may put in: markup, backticks, controls, non-ASCII. */
export const hostile = fc.string({ unit: fc.oneof(fc.constantFrom('`', '<', '>', '&', '*', '_', '#', '|', '\n', '\x1b', '@', '[', ']', 'é', '🦀'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 60 })

export const json: fc.Arbitrary<Structure.Json> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Structure.Json>

const props = fc.dictionary(fc.constantFrom('ensure', 'mode', 'owner', 'content', 'command', 'path', 'x.y', 'list'), fc.oneof(json, fc.array(fc.lorem({ maxCount: 4 }), { maxLength: 6 }).map((ls) => ls.join('\n'))), { maxKeys: 5 })

/** A snapshot of up to `n` resources with unique ids. */
export const snapshot = (n = 8): fc.Arbitrary<Snapshot.Snapshot> =>
  fc.uniqueArray(fc.tuple(fc.constantFrom('file', 'package', 'exec'), fc.oneof(fc.constantFrom('/etc/a.conf', '/etc/b.json', '/etc/c.yaml', 'nginx', 'reload'), hostile)), { maxLength: n, selector: ([t, name]) => `${t}#${name}` }).chain((ids) =>
    fc.tuple(...ids.map(() => props)).map((ps) => ({ resources: ids.map(([type, name], i) => ({ id: `${type}#${name}`, type, at: `m.yaml:${i + 1}`, props: ps[i]! })) })),
  )

/** Two snapshots whose resources overlap (a before and an after). */
export const pair = fc.tuple(snapshot(), snapshot()).map(([a, b]) => [a, { resources: [...b.resources.filter((r) => !a.resources.some((x) => x.id === r.id)), ...a.resources.slice(0, 3).map((r) => ({ ...r, props: { ...r.props, mode: 'changed' } }))] }] as const)

export const labels = { from: 'main', to: 'HEAD' }

const hostName = fc.oneof(fc.stringMatching(/^[a-z]{1,6}[0-9]{0,2}$/), hostile)

const diagnostics = fc.array(hostile.map((s) => `error: m.yaml:1:1: ${s}`), { minLength: 1, maxLength: 3 })

/** Outcomes of distinct hosts; hosts share a few differences (so that some have the same change). */
export const outcomes = (n = 30): fc.Arbitrary<ReadonlyArray<Grouping.Outcome>> =>
  fc
    .tuple(fc.uniqueArray(hostName, { maxLength: n }), fc.array(pair.map(([a, b]) => CatalogDiff.compare(a, b, labels)), { minLength: 1, maxLength: 3 }), fc.array(diagnostics, { minLength: 1, maxLength: 2 }))
    .chain(([hosts, diffs, failures]) =>
      fc.tuple(
        ...hosts.map((host) =>
          fc.oneof(
            fc.nat(diffs.length).map((i): Grouping.Outcome => ({ _tag: 'Compiled', host, diff: i === diffs.length ? CatalogDiff.empty : diffs[i]! })),
            fc.tuple(fc.nat(failures.length - 1), fc.boolean()).map(([i, both]): Grouping.Outcome => ({ _tag: 'Failed', host, ...(both ? { from: failures[i]! } : {}), to: failures[i]! })),
          ),
        ),
      ),
    )

/** A report of any outcomes. */
export const report = (grouped: Grouping.Grouped, manifest = 'site/manifest.yaml'): Report.Report => ({ manifest, from: { rev: 'main', commit: 'a'.repeat(40) }, to: { rev: 'HEAD', commit: 'b'.repeat(40) }, grouped })
