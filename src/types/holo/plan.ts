// plan: the holo type's plan and verification (pure). Every entity the selector takes plans one
// `holo.apply` step unless its plugin says it is up to date and its diff shows no local change, so
// a converged scan plans nothing. A selector that takes nothing it names (an entity no plugin
// reports, a plugin that is not configured) is an error. After apply, no entity may still show a
// local change.
import * as E from 'fp-ts/lib/Either.js'
import * as Position from '../../core/Position.js'
import * as Observed from './Observed.js'
import type { HoloResourcePlan } from './ResourcePlan.js'
import * as Plan from '../../core/Plan.js'
import type { HoloSpec, Selector } from './Spec.js'
import * as Step from './Step.js'

const configured = (o: Observed.Observed): string => (o.plugins.length === 0 ? 'no plugin is configured' : `configured: ${o.plugins.join(', ')}`)

/** A selector's steps and observation summary from the plugins' scans and diffs; Left: it names what is not there (the message says what is). */
export const stepsOf = (s: Selector, o: Observed.Observed): E.Either<string, { readonly steps: ReadonlyArray<Step.HoloApply>; readonly observed: Plan.Observed }> => {
  if (s._tag === 'Plugin' && !o.plugins.includes(s.plugin)) return E.left(`the Holo plugin ${s.plugin} is not configured in etc/holorc or etc/holorc.d (${configured(o)})`)
  const taken = Observed.select(s, o.entities)
  if (s._tag === 'Entity' && taken.length === 0) return E.left(`no configured Holo plugin reports the entity ${s.id} (${configured(o)})`)
  const seen = { plugins: o.plugins, entities: taken }
  return E.right({ steps: taken.filter((e) => !Observed.converged(e)).map(Step.make), observed: Plan.observedLazily(Observed.summary(seen), () => Observed.digest(seen)) })
}

/** True for a machine path of Holo's configuration, resources or state (an earlier resource that writes one feeds the plugins' scans). */
export const feedsHolo = (path: string): boolean => /^\/(etc\/holorc(\.d)?|usr\/share\/holo|var\/lib\/holo)(\/|$)/.test(path)

/**
 * The resource's plan from the plugins' scans and diffs; `rescan`: the earlier resources that may
 * change what the plugins scan in this run. Left: the selector names what is not there.
 */
export const plan = (spec: HoloSpec, o: Observed.Observed, rescan: ReadonlyArray<string> = []): E.Either<string, HoloResourcePlan> =>
  E.map(({ steps, observed }: { readonly steps: ReadonlyArray<Step.HoloApply>; readonly observed: Plan.Observed }): HoloResourcePlan => ({
    kind: 'holo',
    id: spec.id,
    type: 'holo',
    name: spec.name,
    at: Position.render(spec.at),
    action: steps.length === 0 && rescan.length === 0 ? 'none' : 'update',
    observed,
    desired: { selector: spec.name },
    steps: [...steps],
    ...(rescan.length > 0 ? { rescan: [...rescan] } : {}),
  }))(stepsOf(spec.selector, o))

/** How the resource misses its desired state after apply (nothing: it is there): an entity that still shows a local change. */
export const verify = (now: ReadonlyArray<Observed.Found>): ReadonlyArray<string> =>
  now.filter((e) => e.local !== undefined).map((e) => `${e.id} still differs from what ${e.plugin} last applied`)
