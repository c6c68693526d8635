// Spec: a resource of a libral provider's type, decoded from a manifest entry against the
// provider's metadata: which provider (`provider:` or the type's one suitable provider), the name,
// and the desired writable attributes, typed.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../../core/Diagnostic.js'
import type { Position } from '../../../core/Position.js'
import * as ResourceId from '../../../core/ResourceId.js'
import * as Desired from '../protocol/Desired.js'
import type * as Metadata from '../protocol/Metadata.js'
import * as Registry from '../protocol/Registry.js'
import type { Attrs } from '../protocol/Resource.js'
import { renderString, renderValue, type RawResource, type Scope } from '../../../manifest/Manifest.js'
import * as Append from '../../../core/Append.js'

// model

/** A provider a manifest can use: its registry entry and a digest of its executable and metadata. */
export interface Provider extends Registry.Entry {
  readonly digest: string
}

export interface LibralSpec {
  readonly _tag: 'libral'
  readonly id: string
  readonly type: string
  readonly name: string
  readonly at: Position
  readonly provider: Provider
  /** The desired writable attributes, as the manifest set them. */
  readonly attrs: Attrs
}

// guards

/** The libral provider a `provider:` value names for a resource type, if any: `type::name`, or `name` of that type. */
export const named = <P extends Registry.Entry>(registry: Registry.Registry<P>, type: string, value: string): P | undefined => {
  // the first, in the registry's order (by full name), of the provider named `value` and the provider `name` of `type`
  const whole = Registry.byName(registry, value)
  const ofType = Registry.byName(registry, `${type}::${value}`)
  return whole === undefined ? ofType : ofType === undefined || whole.meta.qname <= ofType.meta.qname ? whole : ofType
}

/** True when a type is a libral provider's type. */
export const isType = (registry: Registry.Registry, type: string): boolean => Registry.ofType(registry, type).length > 0

// decoding

const selectProvider = (registry: Registry.Registry<Provider>, raw: RawResource, given: { value: string; at: Position } | undefined): E.Either<Diagnostic.Diagnostic, Provider> => {
  const id = ResourceId.make(raw.type, raw.name)
  if (given === undefined) {
    return E.mapLeft((message: string) => Diagnostic.make('Validation', message, { at: raw.nameAt, resource: id, hint: 'choose one with provider: TYPE::NAME' }))(
      Registry.resolve(registry, raw.type),
    )
  }
  const p = named(registry, raw.type, given.value)
  if (p === undefined) {
    const ofType = Registry.ofType(registry, raw.type).map((x) => x.meta.qname)
    return E.left(
      Diagnostic.make('Validation', `unknown provider "${given.value}" for a ${raw.type} resource`, {
        at: given.at,
        resource: id,
        hint: ofType.length > 0 ? `${raw.type} providers: ${ofType.join(', ')}` : `no libral provider on the provider path has type ${raw.type}`,
      }),
    )
  }
  if (p.meta.type !== raw.type) {
    return E.left(Diagnostic.make('Validation', `provider ${p.meta.qname} manages ${p.meta.type} resources, not ${raw.type}`, { at: given.at, resource: id }))
  }
  if (E.isLeft(p.suitable)) {
    return E.left(Diagnostic.make('Validation', `provider ${p.meta.qname} is not suitable on this system: ${p.suitable.left}`, { at: given.at, resource: id }))
  }
  return E.right(p)
}

/** Decodes a resource of a libral type; every problem is reported, positioned. */
export const decode = (raw: RawResource, scope: Scope, registry: Registry.Registry<Provider>): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, LibralSpec> => {
  const id = ResourceId.make(raw.type, raw.name)
  const problems: Diagnostic.Diagnostic[] = []
  const nameProblem = Desired.nameProblem(raw.name)
  if (nameProblem !== undefined) problems.push(Diagnostic.make('Validation', nameProblem, { at: raw.nameAt, resource: id }))
  let given: { value: string; at: Position } | undefined
  const props: Desired.Prop[] = []
  for (const e of raw.props) {
    if (e.key === 'provider') {
      const v = renderString(e.value, scope, problems)
      if (v !== undefined) given = { value: v, at: e.value.at }
    } else {
      const local: Diagnostic.Diagnostic[] = []
      const v = renderValue(e.value, scope, local)
      for (const d of local) problems.push(Diagnostic.withResource(id)(Diagnostic.make(d.code, `${e.key}: ${d.message}`, { at: d.at, hint: d.hint })))
      if (local.length === 0) props.push({ key: e.key, value: v, at: e.keyAt })
    }
  }
  const provider = selectProvider(registry, raw, given)
  if (E.isLeft(provider)) return E.left([...problems, provider.left])
  const attrs = Desired.decode(provider.right.meta, props, id)
  if (E.isLeft(attrs)) Append.append(problems, attrs.left)
  if (problems.length > 0 || E.isLeft(attrs)) return E.left(problems)
  return E.right({ _tag: 'libral', id, type: raw.type, name: raw.name, at: raw.nameAt, provider: provider.right, attrs: attrs.right })
}

/** The metadata of a spec's provider. */
export const metaOf = (s: LibralSpec): Metadata.Metadata => s.provider.meta
