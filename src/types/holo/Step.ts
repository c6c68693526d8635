// Step: the holo type's one step as the plan carries it: `holo.apply`, one entity applied by its
// plugin. Holo has no dry run, so the step is opaque: it shows the ACTION verb and reason the scan
// reported, and, when the entity was changed locally since it was last applied, that change (the
// plugin's `diff`) and that it needs `--force`. It cannot be undone (a plugin keeps no undo).
import * as t from 'io-ts'
import * as PluginId from '../../interpreters/holo/protocol/PluginId.js'
import * as Spec from './Spec.js'

// model

/** A local modification as the plan shows it: the entity was modified or deleted, and the plugin's diff. */
export const LocalChange = t.type({ kind: t.keyof({ modified: null, deleted: null }), diff: t.string })
export type LocalChange = t.TypeOf<typeof LocalChange>

/**
 * `plugin` applies `entity`. `verb` and `action` are the scan's ACTION verb and reason (`action`
 * absent when it gave none); `local` is set when the entity was changed locally since it was last
 * applied, so that a plain apply refuses it and only `plait apply --force` overwrites it.
 */
export const HoloApply = t.intersection([
  t.type({ _tag: t.literal('holo.apply'), plugin: t.string, entity: t.string, verb: t.string, reason: t.string, noop: t.string }),
  t.partial({ action: t.string, local: LocalChange }),
])
export type HoloApply = t.TypeOf<typeof HoloApply>

export const tag = 'holo.apply'

// constructors

/** The step that applies one entity. */
export const make = (e: { readonly plugin: string; readonly id: string; readonly verb: string; readonly reason: string; readonly local?: { readonly _tag: 'Modified' | 'Deleted'; readonly diff: string } }): HoloApply => {
  const local = e.local === undefined ? undefined : { kind: e.local._tag === 'Modified' ? ('modified' as const) : ('deleted' as const), diff: e.local.diff }
  const reason =
    local !== undefined
      ? `${local.kind} locally since it was last applied; only plait apply --force ${local.kind === 'modified' ? 'overwrites' : 'restores'} it`
      : e.reason !== ''
        ? e.reason
        : 'Holo has no dry run: only applying it tells whether it changes'
  return {
    _tag: 'holo.apply',
    plugin: e.plugin,
    entity: e.id,
    verb: e.verb,
    reason,
    noop: `Would have applied ${e.id} with the Holo plugin ${e.plugin}`,
    ...(e.reason !== '' ? { action: e.reason } : {}),
    ...(local !== undefined ? { local } : {}),
  }
}

// validation

/** Why a step cannot be an honest one (undefined: it can): its plugin and entity must be ones a scan could report. */
export const problem = (s: HoloApply): string | undefined => PluginId.problem(s.plugin) ?? Spec.entityProblem(s.entity)

// interop

/** The step for people: "Running oneshot:10-motd (never ran)". */
export const describe = (s: HoloApply): string => `${s.verb} ${s.entity}${s.action !== undefined ? ` (${s.action})` : ''}`
