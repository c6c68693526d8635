// registry: the resource types this plait has, and those plugins bring at run time. Adding a type
// is a folder under src/types/ and one line in `builtIn`; a plugin protocol whose types are found
// at run time adds its value to `plugins` (for plans) and a `Plugin` of what its discovery found
// (for manifests: see `types`). Every stage looks types up here and names none of them.
import * as Plan from '../core/Plan.js'
import { exec } from './exec/index.js'
import { file } from './file/index.js'
import { holo } from './holo/index.js'
import { pkg } from './package/index.js'
import { service } from './service/index.js'
import * as Libral from '../interpreters/libral/type/index.js'
import type { AnyType } from './ResourceType.js'

/** plait's own resource types, one line each; a type's kind is its manifest name. */
const builtIn: AnyType[] = [file, exec, service, pkg, holo]

/** The plugin protocols' types, as apply and the renderers use them (their manifest types are found at run time). */
const plugins: ReadonlyArray<AnyType> = [Libral.libral]

let kinds = new Map<string, AnyType>([...builtIn, ...plugins].map((t) => [t.kind, t]))
let codecs: { resource: ReturnType<typeof Plan.resourcePlan>; body: ReturnType<typeof Plan.bodyOf>; plan: ReturnType<typeof Plan.planOf> } | undefined

/**
 * Adds a resource type of plait's own at run time (an embedding program's, or a test's): from then
 * on manifests may use it and plans may hold it. A kind that is already registered is refused.
 */
export const register = (t: AnyType): void => {
  if (kinds.has(t.kind)) throw new Error(`invariant: a resource type of kind ${t.kind} is already registered`)
  builtIn.push(t)
  kinds = new Map([...kinds, [t.kind, t]])
  codecs = undefined
}

/** The type of a plan's kind (plans are decoded against the registry, so it is there). */
export const ofKind = (kind: string): AnyType => {
  const t = kinds.get(kind)
  if (t === undefined) throw new Error(`invariant: no resource type of kind ${kind}`)
  return t
}

const codecsNow = () => {
  if (codecs === undefined) {
    const resource = Plan.resourcePlan(new Map([...kinds].map(([k, t]) => [k, t.codec])))
    codecs = { resource, body: Plan.bodyOf(resource), plan: Plan.planOf(resource) }
  }
  return codecs
}

/** The codec of a resource plan of any registered kind. */
export const resourcePlan = (): ReturnType<typeof Plan.resourcePlan> => codecsNow().resource

/** The codec of a plan body. */
export const bodyCodec = (): ReturnType<typeof Plan.bodyOf> => codecsNow().body

/** The codec of a sealed plan. */
export const planCodec = (): ReturnType<typeof Plan.planOf> => codecsNow().plan

/** True for a type plait has itself (not one a plugin brings). */
export const isBuiltIn = (type: string): boolean => builtIn.some((t) => t.kind === type)

/** A plugin protocol's types found at run time: their names, which entries it claims, and the type that handles them. */
export interface Plugin {
  readonly names: ReadonlyArray<string>
  /** True when it handles an entry of this manifest type with this `provider:` (`builtIn`: plait has a type of that name). */
  readonly claims: (type: string, provider: string | undefined, builtIn: boolean) => boolean
  readonly entry: AnyType
}

/** The types a manifest can use. */
export interface Types {
  /** Every type name, for messages: plait's own first, then the plugins', sorted. */
  readonly names: ReadonlyArray<string>
  /** The type that decodes an entry of manifest type `type` with the given `provider:` (undefined: no such type). */
  readonly lookup: (type: string, provider: string | undefined) => AnyType | undefined
}

/** The types of a compile: plait's own and those of the plugins found. */
export const types = (found: ReadonlyArray<Plugin> = []): Types => ({
  names: [...builtIn.map((t) => t.kind), ...[...new Set(found.flatMap((p) => p.names))].filter((n) => !isBuiltIn(n)).sort()],
  lookup: (type, provider) => {
    const own = builtIn.find((t) => t.kind === type)
    const claimed = found.find((p) => p.claims(type, provider, own !== undefined))
    return claimed?.entry ?? own
  },
})

/** The libral providers' types, as a discovery found them. */
export const libralPlugin: (providers: Parameters<typeof Libral.plugin>[0]) => Plugin = Libral.plugin

/** True when a plan may change something: a step, or a decision its type leaves to the resource's turn. */
export const mayChange = (r: Plan.ResourcePlan): boolean => !Plan.isSkipped(r) && !Plan.isFailed(r) && ofKind(r.kind).mayChange(r)

/** What a resource leaves to its turn (a dry run says it), if anything. */
export const pending = (r: Plan.ResourcePlan): string | undefined => (Plan.isSkipped(r) || Plan.isFailed(r) ? undefined : ofKind(r.kind).pending(r))

/** True when a plan would change nothing. */
export const isEmpty = (p: Plan.Body): boolean => p.resources.every((r) => r.steps.length === 0 && pending(r) === undefined)

/**
 * Why a decoded resource plan cannot be an honest one beyond its shape: the first step that a
 * check of its tag refuses (a `file.write` whose content does not match its digest), named by its
 * position and what it does. A step is checked by its tag whatever the kind of the resource.
 */
export const tampered = (r: Plan.ResourcePlan): string | undefined => {
  for (const [i, s] of r.steps.entries()) {
    for (const t of kinds.values()) {
      const check = t.stepChecks?.[s._tag]
      const problem = check?.(s)
      if (problem !== undefined) {
        const path = (s as { path?: unknown }).path
        return `step ${i + 1} (${s._tag}${typeof path === 'string' ? ` ${path}` : ''}): ${problem}`
      }
    }
  }
  return undefined
}
