// planner: a file resource's place in a run's plan (pure). Resources run in manifest order, so a
// file's directory must be there when its turn comes, and a deferred content is known now when the
// resources whose files it reads change nothing.
import * as E from 'fp-ts/lib/Either.js'
import * as DeferredM from '../../core/Deferred.js'
import type * as Deferred from '../../core/Deferred.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as PosixPath from '../../core/PosixPath.js'
import type { Accounts } from '../../core/Probe.js'
import * as DeferredContent from './DeferredContent.js'
import * as FilePlan from './plan.js'
import type { FileResourcePlan } from './ResourcePlan.js'
import type { FileStep } from './Step.js'
import { allSettled, type PlanEnv } from '../ResourceType.js'
import type { FileSpec } from './Spec.js'
import * as Status from './Status.js'
import * as Position from '../../core/Position.js'

// model

/** What stands at a parent path: a directory, nothing, or something else (a file, a symlink). */
export type ParentKind = 'directory' | 'absent' | 'other'

/**
 * The resource that leaves a path as it will be when it has run: a directory, a file (`present`)
 * or nothing. A directory resource also leaves its missing ancestors as directories.
 */
export interface Planned {
  readonly ensure: FileSpec['ensure']
  readonly id: string
}

/** What observing a file resource found. */
export interface Observed {
  readonly status: Status.FileStatus
  /** The bytes its content resolves to (inline or `source:`), when it manages content. */
  readonly bytes?: FilePlan.Bytes
  /** What stands at its parent, when it would be created (only then is the parent probed). */
  readonly parent?: ParentKind
  /** The bytes of the managed files its deferred content reads, by machine path (those that could be read). */
  readonly managed: ReadonlyMap<string, Uint8Array>
}

// planning

/** The parent check passed (one value for every resource). */
const fine: E.Either<Diagnostic.Diagnostic, void> = E.right(undefined)

/**
 * Checks that the directory a resource lives in will exist when its turn comes: resources run in
 * manifest order, so an earlier `ensure: directory` provides it, an earlier `ensure: absent` or
 * file in its place takes it away, and otherwise the machine must already have it. A directory
 * resource creates missing parents itself (mkdir -p), so only a file in the way stops it.
 * `parentKind` is what was observed at the parent (only a path that would be created has it).
 */
export const checkParent = (
  spec: FileSpec,
  status: Status.FileStatus,
  planned: ReadonlyMap<string, Planned>,
  parentKind: ParentKind | undefined,
): E.Either<Diagnostic.Diagnostic, void> => {
  if (spec.ensure === 'absent') return fine
  const parent = PosixPath.dirname(spec.path)
  for (let a = parent; a !== '/'; a = PosixPath.dirname(a)) {
    const p = planned.get(a)
    if (p === undefined) continue
    if (p.ensure === 'directory') {
      if (a === parent) return fine
      continue // an ancestor that will be a directory says nothing about the parent itself
    }
    return p.ensure === 'absent'
      ? parentFailure(spec, `${a} is removed by ${p.id}, which runs earlier, so ${spec.path} has nowhere to go`, `remove one of the two resources`)
      : parentFailure(spec, `${a} is made a file by ${p.id}, which runs earlier, so ${spec.path} cannot be below it`, `remove one of the two resources`)
  }
  if (status._tag !== 'Absent') return fine
  const kind = parent === '/' ? 'directory' : (parentKind ?? 'directory')
  if (kind === 'directory') return fine
  if (kind === 'other') return parentFailure(spec, `the parent ${parent} is not a directory`, `manage ${parent} with ensure: directory before this resource, or remove what is there`)
  if (spec.ensure === 'directory') return fine
  return parentFailure(spec, `the parent directory ${parent} does not exist`, `add a file resource for ${parent} with ensure: directory before this one`)
}

/** Why a resource's parent will not be there, as a diagnostic naming the resource. */
const parentFailure = (spec: FileSpec, message: string, hint: string): E.Either<Diagnostic.Diagnostic, void> => E.left(Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id, hint }))

/** Plans a single resource against its observed status (also used at a deferred resource's turn). */
export const planResource = (
  spec: FileSpec,
  bytes: FilePlan.Bytes | undefined,
  status: Status.FileStatus,
  accounts: Accounts,
  principal: FilePlan.Principals = FilePlan.resolvePrincipal,
): E.Either<Diagnostic.Diagnostic, FileResourcePlan> => {
  const p = FilePlan.plan(spec, bytes, status, accounts, principal)
  if (E.isLeft(p)) return p
  return E.right({
    kind: 'file',
    id: spec.id,
    type: 'file',
    name: spec.path,
    at: Position.render(spec.at),
    action: p.right.action,
    desired: p.right.desired,
    observed: Status.observed(status, accounts),
    // the array plan has just made: no one else holds it
    steps: p.right.steps as FileStep[],
  })
}

/**
 * Plans a resource whose content is deferred: its attributes are resolved and checked now, its
 * steps are made by the executor at its turn, once the content is known.
 */
export const planDeferred = (
  spec: FileSpec,
  deferred: Deferred.Deferred,
  status: Status.FileStatus,
  accounts: Accounts,
  principal: FilePlan.Principals = FilePlan.resolvePrincipal,
): E.Either<Diagnostic.Diagnostic, FileResourcePlan> =>
  E.map((r: FileResourcePlan): FileResourcePlan => ({ ...r, action: status._tag === 'Absent' ? 'create' : 'update', steps: [], deferred }))(
    planResource({ ...spec, content: { _tag: 'Unmanaged' } }, undefined, status, accounts, principal),
  )

/**
 * A deferred value is known now when every resource whose file it reads changes nothing: the
 * machine already holds what they would leave. Then it is worked out from the observed bytes and
 * the resource is planned like any other; otherwise it stays deferred ("known after apply").
 */
export const planDeferredOrNow = (
  spec: FileSpec,
  deferred: Deferred.Deferred,
  o: Observed,
  accounts: Accounts,
  settled: boolean,
  principal: FilePlan.Principals = FilePlan.resolvePrincipal,
): E.Either<Diagnostic.Diagnostic, FileResourcePlan> => {
  const bytes = DeferredM.managedBytes(deferred.managed, o.managed)
  if (!settled || bytes === undefined) return planDeferred(spec, deferred, o.status, accounts, principal)
  const worked = DeferredContent.contentOf(deferred, bytes)
  if (E.isLeft(worked)) return E.left(Diagnostic.make('Expression', worked.left.description, { at: spec.at, resource: spec.id }))
  return planResource({ ...spec, content: worked.right.content }, worked.right.bytes, o.status, accounts, principal)
}

/** What a run's file planner reads of the run: the accounts, and the resources planned so far (for a deferred content). */
export type Env = Pick<PlanEnv, 'accounts' | 'earlier' | 'byId' | 'mayChange'>

/**
 * Makes one run's file planner: it remembers what earlier file resources leave at their paths, and
 * the users and groups it has resolved.
 */
export const planner = () => {
  // the resource (a spec) that leaves each path: one entry per resource, not one object
  const planned = new Map<string, Planned>()
  const principal = FilePlan.principals()
  return (spec: FileSpec, o: Observed, env: Env): E.Either<Diagnostic.Diagnostic, FileResourcePlan> => {
    const parent = checkParent(spec, o.status, planned, o.parent)
    planned.set(spec.path, spec)
    if (spec.ensure === 'directory') {
      // mkdir -p: the ancestors exist afterwards too
      for (let a = PosixPath.dirname(spec.path); a !== '/' && !planned.has(a); a = PosixPath.dirname(a)) planned.set(a, spec)
    }
    if (E.isLeft(parent)) return parent
    return spec.content._tag === 'Deferred'
      ? planDeferredOrNow(spec, spec.content.deferred, o, env.accounts, allSettled(env, spec.content.deferred.after), principal)
      : planResource(spec, o.bytes, o.status, env.accounts, principal)
  }
}
