// CatalogDiff: what changed between two catalogs of one host, resource by resource: resources
// added and removed, and each changed property, with text values diffed line by line and YAML or
// JSON content compared as data (pure; equal inputs, equal output).
import * as Content from './Content.js'
import type * as Snapshot from './Snapshot.js'
import * as Structure from './Structure.js'
import * as Append from '../core/Append.js'

// model

/** A property that differs: `before` absent means added, `after` absent removed; `content` says how a text changed. */
export interface PropertyChange {
  /** The property's path (`mode`, `content.text`), as Structure.pathText draws it. */
  readonly path: string
  readonly before?: Structure.Json
  readonly after?: Structure.Json
  /** For a text on both sides: its unified diff or its data's difference (never Formatting here). */
  readonly content?: Content.Change
}

/**
 * One resource that differs: `Added` (only the new catalog has it), `Removed` (only the old one)
 * or `Changed` (both, with at least one property that matters). `at` is where the catalog that
 * has it declares it (the new one, unless removed).
 */
export type Entry =
  | { readonly _tag: 'Added'; readonly id: string; readonly type: string; readonly at: string; readonly props: Snapshot.Resource['props'] }
  | { readonly _tag: 'Removed'; readonly id: string; readonly type: string; readonly at: string; readonly props: Snapshot.Resource['props'] }
  | { readonly _tag: 'Changed'; readonly id: string; readonly type: string; readonly at: string; readonly changes: ReadonlyArray<PropertyChange> }

/** A text property that changed in formatting only: both sides hold equal data, so it is not a change. */
export interface Formatting {
  readonly id: string
  readonly path: string
  readonly format: Content.Format
}

/** The difference of one host's two catalogs: the entries in the new catalog's order, removed ones last. */
export interface HostDiff {
  readonly entries: ReadonlyArray<Entry>
  readonly formatting: ReadonlyArray<Formatting>
}

/** The names the two sides go by in unified diffs. */
export interface Labels {
  readonly from: string
  readonly to: string
}

export const empty: HostDiff = { entries: [], formatting: [] }

// constructors

/** The name whose extension says a resource's content format: its `path` property, else its id's name. */
const nameOf = (r: Snapshot.Resource): string => {
  const path = r.props['path']
  return typeof path === 'string' ? path : r.id.slice(r.id.indexOf('#') + 1)
}

const isText = (v: Structure.Json | undefined): v is string => typeof v === 'string'

/** Compares the properties of one resource in both catalogs. */
const compareResource = (a: Snapshot.Resource, b: Snapshot.Resource, labels: Labels): { readonly changes: PropertyChange[]; readonly formatting: Formatting[] } => {
  const changes: PropertyChange[] = []
  const formatting: Formatting[] = []
  for (const c of Structure.diff(a.props, b.props)) {
    const path = Structure.pathText(c.path)
    if (isText(c.before) && isText(c.after) && (c.before.includes('\n') || c.after.includes('\n') || Content.formatOf(nameOf(b), c.after) !== undefined)) {
      const content = Content.compare(nameOf(b), c.before, c.after, { from: `${labels.from}:${b.id}`, to: `${labels.to}:${b.id}` })
      if (content._tag === 'Formatting') formatting.push({ id: b.id, path, format: content.format })
      else changes.push({ path, before: c.before, after: c.after, content })
    } else changes.push({ path, ...(c.before !== undefined ? { before: c.before } : {}), ...(c.after !== undefined ? { after: c.after } : {}) })
  }
  return { changes, formatting }
}

/** The difference of two catalogs of one host (`labels` name the sides in unified diffs). */
export const compare = (before: Snapshot.Snapshot, after: Snapshot.Snapshot, labels: Labels): HostDiff => {
  const old = new Map(before.resources.map((r) => [r.id, r]))
  const ids = new Set(after.resources.map((r) => r.id))
  const entries: Entry[] = []
  const formatting: Formatting[] = []
  for (const b of after.resources) {
    const a = old.get(b.id)
    if (a === undefined) {
      entries.push({ _tag: 'Added', id: b.id, type: b.type, at: b.at, props: b.props })
      continue
    }
    const r = compareResource(a, b, labels)
    Append.append(formatting, r.formatting)
    if (r.changes.length > 0) entries.push({ _tag: 'Changed', id: b.id, type: b.type, at: b.at, changes: r.changes })
  }
  for (const a of before.resources) if (!ids.has(a.id)) entries.push({ _tag: 'Removed', id: a.id, type: a.type, at: a.at, props: a.props })
  return { entries, formatting }
}

// guards

/** True when nothing a reviewer must look at changed (formatting-only changes aside). */
export const isEmpty = (d: HostDiff): boolean => d.entries.length === 0

/** A text that is equal for equal differences and differs otherwise: hosts with equal keys have the same change. */
export const key = (d: HostDiff): string => Structure.canonical(Structure.plain(d))
