// interpreters: opens the interpreters a plan needs for an apply, from the executor's options.
import type * as E from 'fp-ts/lib/Either.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import * as Families from '../interpreters/families.js'
import type { Machine } from '../interpreters/Machine.js'
import type { Options } from './Options.js'

/** Opens the interpreters the plan needs (its libral providers are loaded and checked against the plan). */
export const open = (machine: Machine, plan: Plan.Plan, options: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Families.Opened>> =>
  Families.open(machine, plan, {
    ...(options.runner !== undefined ? { runner: options.runner } : {}),
    ...(options.libral !== undefined ? { libral: options.libral } : {}),
    ...(options.services !== undefined ? { services: options.services } : {}),
    ...(options.packages !== undefined ? { packages: options.packages } : {}),
    ...(options.holo !== undefined ? { holo: options.holo } : {}),
  })
