// Registry: the providers found on the provider path, and how a name given by a person (a full
// name `type::provider`, or a bare type) picks one, as ralsh did: the full name, else the type when
// exactly one suitable provider has it.
import * as E from 'fp-ts/lib/Either.js'
import type { Metadata } from './Metadata.js'

// model

/** A provider as discovery found it; `suitable` is Left with the reason when it can not run here. */
export interface Entry {
  readonly meta: Metadata
  readonly path: string
  readonly suitable: E.Either<string, true>
}

export interface Registry<P extends Entry = Entry> {
  /** Every usable provider, sorted by full name; the first on the provider path wins a name. */
  readonly providers: ReadonlyArray<P>
  /** Providers hidden by one of the same full name earlier on the path. */
  readonly shadowed: ReadonlyArray<P>
}

// constructors

/** Builds a registry from providers in provider-path order. */
export const make = <P extends Entry>(inPathOrder: ReadonlyArray<P>): Registry<P> => {
  const kept = new Map<string, P>()
  const shadowed: P[] = []
  for (const p of inPathOrder) {
    if (kept.has(p.meta.qname)) shadowed.push(p)
    else kept.set(p.meta.qname, p)
  }
  const providers = [...kept.values()].sort((a, b) => (a.meta.qname < b.meta.qname ? -1 : a.meta.qname > b.meta.qname ? 1 : 0))
  return Object.freeze({ providers: Object.freeze(providers), shadowed: Object.freeze(shadowed) })
}

// combinators

/** The suitable providers. */
export const suitable = <P extends Entry>(r: Registry<P>): ReadonlyArray<P> => r.providers.filter((p) => E.isRight(p.suitable))

/** A registry's providers by full name and by type, made on first use (a lookup per resource scanned them all: 8,000 providers, 15 s). */
interface Index {
  readonly byName: ReadonlyMap<string, Entry>
  readonly byType: ReadonlyMap<string, ReadonlyArray<Entry>>
}
const indexes = new WeakMap<Registry<Entry>, Index>()
const indexOf = <P extends Entry>(r: Registry<P>): { readonly byName: ReadonlyMap<string, P>; readonly byType: ReadonlyMap<string, ReadonlyArray<P>> } => {
  let index = indexes.get(r)
  if (index === undefined) {
    const byName = new Map<string, Entry>()
    const byType = new Map<string, Entry[]>()
    for (const p of r.providers) {
      if (!byName.has(p.meta.qname)) byName.set(p.meta.qname, p)
      const same = byType.get(p.meta.type)
      if (same === undefined) byType.set(p.meta.type, [p])
      else same.push(p)
    }
    indexes.set(r, (index = { byName, byType }))
  }
  return index as unknown as { readonly byName: ReadonlyMap<string, P>; readonly byType: ReadonlyMap<string, ReadonlyArray<P>> }
}

/** The provider of a full name (suitable or not). */
export const byName = <P extends Entry>(r: Registry<P>, qname: string): P | undefined => indexOf(r).byName.get(qname)

/** The providers of a type (suitable or not), in the registry's order. */
export const ofType = <P extends Entry>(r: Registry<P>, type: string): ReadonlyArray<P> => indexOf(r).byType.get(type) ?? []

/** Picks the provider a name means: a full name, or a type with exactly one suitable provider. */
export const resolve = <P extends Entry>(r: Registry<P>, name: string): E.Either<string, P> => {
  const exact = indexOf(r).byName.get(name)
  if (exact !== undefined) return E.isRight(exact.suitable) ? E.right(exact) : E.left(`provider ${name} is not suitable on this system: ${exact.suitable.left}`)
  const all = ofType(r, name)
  const usable = all.filter((p) => E.isRight(p.suitable))
  if (usable.length === 1) return E.right(usable[0]!)
  if (usable.length > 1) return E.left(`type ${name} has several suitable providers (${usable.map((p) => p.meta.qname).join(', ')}): name one of them`)
  if (all.length > 0) return E.left(`type ${name} has no suitable provider: ${all.map((p) => `${p.meta.qname} (${E.isLeft(p.suitable) ? p.suitable.left : ''})`).join(', ')}`)
  return E.left(`unknown provider: '${name}'`)
}
