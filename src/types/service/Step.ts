// Step: the service type's steps as the plan carries them: start, stop, restart, enable or
// disable one unit. None can be undone (a service that ran did what it did).
import * as t from 'io-ts'

// model

/** The verbs, by step tag, as systemctl spells them. */
export const verbs = { 'service.start': 'start', 'service.stop': 'stop', 'service.restart': 'restart', 'service.enable': 'enable', 'service.disable': 'disable' } as const

export type Tag = keyof typeof verbs
export type Verb = (typeof verbs)[Tag]

/**
 * A systemctl action on one unit. `when` makes it a subscribe refresh: it runs only if one of
 * those resources changed in this run (the executor decides at the resource's turn).
 */
export const ServiceStep = t.intersection([
  t.type({
    _tag: t.keyof({ 'service.start': null, 'service.stop': null, 'service.restart': null, 'service.enable': null, 'service.disable': null }),
    /** The unit, as the manifest named it (validated: see Spec.nameProblem). */
    name: t.string,
    reason: t.string,
    noop: t.string,
  }),
  t.partial({ when: t.array(t.string) }),
])
export type ServiceStep = t.TypeOf<typeof ServiceStep>
