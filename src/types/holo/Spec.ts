// Spec: the holo resource's name, decoded and validated from a manifest entry. A holo resource
// names what it takes from the configured Holo plugins as Holo's own selectors do (holo(8)): one
// entity by its ID (`file:/etc/foo.conf`), every entity of one plugin by the plugin's ID
// (`settings`), or every entity of every configured plugin (`'*'`). It has no properties: what an
// entity should be is the plugin's resource files, not the manifest.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type { Position } from '../../core/Position.js'
import * as ResourceId from '../../core/ResourceId.js'
import type { RawResource } from '../../manifest/Manifest.js'
import * as PluginId from '../../interpreters/holo/protocol/PluginId.js'

// model

/** What a holo resource takes from the scans of the configured plugins. */
export type Selector =
  /** One entity, by its ID (unique across the configured plugins). */
  | { readonly _tag: 'Entity'; readonly id: string }
  /** Every entity one configured plugin reports. */
  | { readonly _tag: 'Plugin'; readonly plugin: string }
  /** Every entity of every configured plugin. */
  | { readonly _tag: 'All' }

export interface HoloSpec {
  readonly _tag: 'holo'
  readonly id: string
  /** The selector as the manifest wrote it (see selectorOf). */
  readonly name: string
  readonly at: Position
  readonly selector: Selector
}

/** A holo resource accepts no properties. */
export const keys: ReadonlyArray<string> = []

/** The name that takes every entity of every configured plugin. */
export const all = '*'

/** The longest entity ID plait accepts. */
export const maxEntityId = 4096

// validation

/** Why a text cannot be a Holo entity ID plait passes to a plugin (undefined: it can). */
export const entityProblem = (id: string): string | undefined => {
  if (id === '') return 'a Holo entity ID cannot be empty'
  if (id.length > maxEntityId) return `a Holo entity ID is at most ${maxEntityId} characters`
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(id)) return `a Holo entity ID holds no control characters: ${JSON.stringify(id)}`
  if (id.startsWith('/') || id.startsWith('./') || id.startsWith('../') || id.startsWith('-'))
    return `${JSON.stringify(id)} is not a Holo entity ID (entity IDs never look like paths or options)`
  return undefined
}

/** Reads a holo resource's name as a selector; Left: why it is not one. */
export const selectorOf = (name: string): E.Either<string, Selector> => {
  if (name === all) return E.right({ _tag: 'All' })
  if (PluginId.valid(name)) return E.right({ _tag: 'Plugin', plugin: name })
  const problem = entityProblem(name)
  if (problem !== undefined) return E.left(problem)
  if (!name.includes(':')) return E.left(`${JSON.stringify(name)} is neither a plugin ID nor an entity ID (entity IDs are TYPE:NAME, such as file:/etc/foo.conf)`)
  return E.right({ _tag: 'Entity', id: name })
}

/** The selector in words, for messages. */
export const describe = (s: Selector): string => (s._tag === 'All' ? 'every entity of every configured Holo plugin' : s._tag === 'Plugin' ? `every entity of the Holo plugin ${s.plugin}` : `the Holo entity ${s.id}`)

// decoding

/** Decodes a holo entry; every problem is reported with its position. */
export const decode = (raw: RawResource): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, HoloSpec> => {
  const id = ResourceId.make(raw.type, raw.name)
  const problems: Diagnostic.Diagnostic[] = []
  const selector = selectorOf(raw.name)
  if (E.isLeft(selector)) problems.push(Diagnostic.make('Validation', selector.left, { at: raw.nameAt, resource: id, hint: `name one entity (file:/etc/foo.conf), one plugin (files), or '${all}' for every entity of every configured plugin` }))
  for (const e of raw.props) {
    problems.push(Diagnostic.make('UnknownKey', `unknown property "${e.key}" for a holo resource`, { at: e.keyAt, resource: id, hint: 'a holo resource has no properties: what an entity should be is in its plugin\'s resource files' }))
  }
  if (problems.length > 0 || E.isLeft(selector)) return E.left(problems)
  return E.right({ _tag: 'holo', id, name: raw.name, at: raw.nameAt, selector: selector.right })
}
