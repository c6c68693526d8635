// References: which resource an id or alias names, as compile meets the resources in manifest
// order (a resource can only refer to an earlier one), and, for a reference that names none of
// them, whether it names a later resource, the resource itself or nothing. Most manifests have no
// reference and no alias: every map here is made at its first use, not for every manifest.
import * as Diagnostic from '../core/Diagnostic.js'
import * as ResourceId from '../core/ResourceId.js'
import * as Manifest from '../manifest/Manifest.js'
import type * as Properties from '../types/Properties.js'

// model

/** The names of a manifest's resources, seen from the resource being compiled. */
export interface References {
  /** True when a name is the id of a resource of the manifest (earlier or later). */
  readonly isId: (name: string) => boolean
  /** The id that an earlier resource's id or alias `name` gives, seen from the resource at `index`. */
  readonly earlier: (name: string, index: number) => string | undefined
  /**
   * The ids a reference list of the resource at `index` names (`key` is require or subscribe); each
   * reference that names no earlier resource is a problem, pushed to `problems`.
   */
  readonly resolve: (refs: ReadonlyArray<Properties.Ref>, key: string, index: number, id: string, problems: Diagnostic.Diagnostic[]) => string[]
  /** Records the alias of the resource `id` (of manifest type `type`), for the resources after it. */
  readonly noteAlias: (alias: string, type: string, id: string) => void
}

// constructors

/** The references of a manifest's resources, in manifest order, before any was compiled. */
export const make = (resources: ReadonlyArray<Manifest.RawResource>): References => {
  // Each id's first index: which names are ids, and which ids come before a resource (a resource
  // is earlier for the later ones even when it does not decode: its own errors say why).
  let firstIndex: Map<string, number> | undefined
  const firstIndexNow = (): Map<string, number> => {
    if (firstIndex === undefined) {
      firstIndex = new Map()
      for (const [i, raw] of resources.entries()) if (!firstIndex.has(Manifest.idOf(raw))) firstIndex.set(Manifest.idOf(raw), i)
    }
    return firstIndex
  }
  const isId = (name: string): boolean => firstIndexNow().has(name)
  // Every id and alias (bare, and as `type#alias`, which CCM matches within the type), to tell a
  // reference to a later resource from one to nothing.
  let every: { readonly name: Map<string, number>; readonly typed: Map<string, number> } | undefined
  const everyNow = () => {
    if (every === undefined) {
      every = { name: new Map(), typed: new Map() }
      for (const [i, raw] of resources.entries()) {
        const id = Manifest.idOf(raw)
        if (!every.name.has(id)) every.name.set(id, i)
        const alias = literalAlias(raw)
        if (alias !== undefined) {
          if (!every.name.has(alias)) every.name.set(alias, i)
          const typed = ResourceId.make(raw.type, alias)
          if (!every.typed.has(typed)) every.typed.set(typed, i)
        }
      }
    }
    return every
  }
  // The aliases of earlier resources, bare and as `type#alias` (an alias that is an id is refused,
  // so a bare alias never hides an id).
  const earlierAlias = new Map<string, string>() // alias → id
  const earlierTyped = new Map<string, string>() // `type#alias` → id
  const earlier = (name: string, index: number): string | undefined => ((firstIndexNow().get(name) ?? index) < index ? name : earlierAlias.get(name))
  return {
    isId,
    earlier,
    resolve: (refs, key, index, id, problems) =>
      refs.flatMap((r) => {
        // As CCM: `type#x` is the resource of that type named x, else the one whose alias is x.
        const named = earlier(r.text, index)
        const aliased = earlierTyped.get(r.text)
        if (named !== undefined && aliased !== undefined && named !== aliased) {
          problems.push(Diagnostic.make('Reference', `${key}: ${r.text} is ambiguous: it is ${named === r.text ? 'the id' : 'the alias'} of ${named} and the alias of ${aliased}`, { at: r.at, resource: id, hint: 'give one of them another alias' }))
          return []
        }
        const target = named ?? aliased
        if (target !== undefined) return [target]
        const later = everyNow().name.get(r.text) ?? everyNow().typed.get(r.text)
        const message =
          later === index
            ? `${key}: ${r.text} is this resource itself`
            : later !== undefined
              ? `${key}: ${r.text} comes later in the manifest; resources run in manifest order, so a resource can only ${key === 'require' ? 'require' : 'subscribe to'} an earlier one`
              : `${key}: no resource ${r.text} in this manifest`
        problems.push(Diagnostic.make('Reference', message, { at: r.at, resource: id, hint: later === undefined ? 'refer to a resource as type#name, or by its alias' : undefined }))
        return []
      }),
    noteAlias: (alias, type, id) => {
      if (!earlierAlias.has(alias) && !isId(alias)) earlierAlias.set(alias, id)
      const typed = ResourceId.make(type, alias)
      if (!earlierTyped.has(typed)) earlierTyped.set(typed, id)
    },
  }
}

/** A raw resource's `alias:` when it is a plain string as written (templates are not resolved here). */
const literalAlias = (raw: Manifest.RawResource): string | undefined => {
  for (const e of raw.props) if (e.key === 'alias') return e.value._tag === 'Scalar' && typeof e.value.value === 'string' ? e.value.value : undefined
  return undefined
}
