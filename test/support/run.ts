// Test support: the whole pipeline over any Machine, with a catalog built in memory.
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog } from '../../src/compiler/Catalog.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Fault from '../../src/core/Fault.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Apply from '../../src/executor/apply.js'
import { observe, type ReadHost } from '../../src/observe/observe.js'
import type { Report } from '../../src/executor/Report.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type { FileSpec } from '../../src/types/file/Spec.js'

export const stateDir = '/plait-state'

/** Source files of test catalogs: a fixed map of host paths. */
export const hostFiles = (files: Readonly<Record<string, string>>): ReadHost => async (path) =>
  files[path] === undefined ? E.left(Fault.make('NotFound', 'host', 'read', path, 'no such file')) : E.right(new TextEncoder().encode(files[path]))

export const catalogOf = (resources: ReadonlyArray<FileSpec>, links: Catalog['links'] = new Map()): Catalog => ({
  manifest: { file: 'm.yaml', sha256: '0'.repeat(64) },
  reads: [],
  files: [],
  links,
  warnings: [],
  failOnError: false,
  resources,
})

/** Plans a catalog against a machine, or throws the diagnostics. */
export const planE = async (catalog: Catalog, machine: Machine, readHost: ReadHost = hostFiles({})): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const obs = await observe(catalog, machine, readHost)
  if (E.isLeft(obs)) return obs
  return E.map(PlanFile.seal)(Planner.plan(catalog, obs.right, { version: 'test', root: machine.root }))
}

export const plan = async (catalog: Catalog, machine: Machine, readHost?: ReadHost): Promise<Plan.Plan> => {
  const r = await planE(catalog, machine, readHost)
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}

export const apply = (machine: Machine, plan: Plan.Plan, options: Partial<Apply.Options> = {}): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>> =>
  Apply.apply(machine, plan, { stateDir, atomic: false, noop: false, ...options })

/** A snapshot's files without the state directory (the journal, lock and backups). */
export const managed = <S extends { files: Readonly<Record<string, unknown>> }>(s: S): Readonly<Record<string, unknown>> =>
  Object.fromEntries(Object.entries(s.files).filter(([p]) => p !== stateDir && !p.startsWith(stateDir + '/')))
