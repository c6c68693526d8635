// Snapshot: a compiled catalog as the catalog diff compares it: each resource's properties as
// plain data, by id, in manifest order (pure). Positions are kept beside the properties, never in
// them: a resource that only moved in the manifest has not changed.
import { isSkipped, type Catalog } from '../compiler/Catalog.js'
import * as Registry from '../types/registry.js'
import * as Structure from './Structure.js'

// model

/** One compiled resource. */
export interface Resource {
  readonly id: string
  /** The resource type (`file`, `package`, a libral type). */
  readonly type: string
  /** Where the manifest declares it: `file:line`. */
  readonly at: string
  /** Its properties as the type writes them (`plait compile --json`), with its links; no positions. */
  readonly props: { readonly [key: string]: Structure.Json }
}

/** A catalog's resources, in manifest order; ids are unique. */
export interface Snapshot {
  readonly resources: ReadonlyArray<Resource>
}

// constructors

/** A value without the positions inside it (keys named `at`, which say where, not what). */
const withoutPositions = (v: Structure.Json): Structure.Json => {
  if (Array.isArray(v)) return v.map(withoutPositions)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === 'at' ? [] : [[k, withoutPositions(x)]])))
  return v
}

/**
 * A compiled catalog as a snapshot. `readSource` gives the text of a `source:` file (by host path)
 * when it is known offline (a file of the revision below the manifest's directory): it is then a
 * property too, `sourceText`, by the path the manifest wrote, so a changed source file is a change.
 */
export const of = (catalog: Catalog, readSource: (path: string) => string | undefined = () => undefined): Snapshot => ({
  resources: catalog.resources.map((r): Resource => {
    const at = `${r.at.file}:${r.at.line}`
    const type = r.id.includes('#') ? r.id.slice(0, r.id.indexOf('#')) : r._tag
    const links = catalog.links.get(r.id)
    const linked: Record<string, Structure.Json> = {}
    if (links !== undefined) {
      if (links.require.length > 0) linked['require'] = [...links.require]
      if (links.subscribe.length > 0) linked['subscribe'] = [...links.subscribe]
      if (links.healthChecks.length > 0) linked['healthChecks'] = withoutPositions(Structure.plain(links.healthChecks))
    }
    if (isSkipped(r)) return { id: r.id, type, at, props: { skipped: r.reason, ...linked } }
    const written = Structure.plain(Registry.ofKind(r._tag).json?.(r) ?? r)
    const props: Record<string, Structure.Json> = {}
    if (written !== null && typeof written === 'object' && !Array.isArray(written)) {
      for (const [k, v] of Object.entries(written)) if (k !== '_tag' && k !== 'id' && k !== 'at') props[k] = withoutPositions(v)
    }
    const texts = (Registry.ofKind(r._tag).sources?.(r) ?? []).flatMap((src) => {
      const text = readSource(src.path)
      return text === undefined ? [] : [[src.written, text] as const]
    })
    const sourced: Record<string, Structure.Json> = texts.length > 0 ? { sourceText: Object.fromEntries(texts) } : {}
    return { id: r.id, type, at, props: { ...props, ...sourced, ...linked } }
  }),
})
