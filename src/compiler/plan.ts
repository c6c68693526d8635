// plan: Catalog × observations → Plan body (pure). Same inputs, byte-identical plan.
import * as E from 'fp-ts/lib/Either.js'
import * as DeferredM from '../core/Deferred.js'
import type * as Deferred from '../core/Deferred.js'
import type * as Step from '../core/Step.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Plan from '../core/Plan.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Accounts } from '../core/Probe.js'
import * as DeferredContent from '../types/file/deferred.js'
import * as ExecPlan from '../types/exec/plan.js'
import * as FilePlan from '../types/file/plan.js'
import type { FileSpec } from '../types/file/Spec.js'
import * as Status from '../types/file/Status.js'
import type * as Resource from '../libral/Resource.js'
import * as LibralPlan from '../types/libral/plan.js'
import type { Catalog, Links } from './Catalog.js'
import * as CatalogM from './Catalog.js'

/** Everything observe gathered: each resource's status by id, the source files' bytes by path, the accounts. */
export interface Observations {
  readonly statuses: ReadonlyMap<string, Status.FileStatus>
  readonly sources: ReadonlyMap<string, FilePlan.Bytes>
  readonly accounts: Accounts
  /** What stands at the parent of each path a resource would create (only those are probed). */
  readonly parents: ReadonlyMap<string, ParentKind>
  /** What each libral resource's provider found for it, by resource id. */
  readonly found: ReadonlyMap<string, Resource.Found>
  /** The bytes of the managed files deferred values read, by machine path (regular files only). */
  readonly managed: ReadonlyMap<string, Uint8Array>
  /** What each exec resource's creates and guards said, by resource id. */
  readonly exec: ReadonlyMap<string, ExecPlan.ExecStatus>
  /** Deferred execs worked out with the machine's current files: the step and what its guards said. */
  readonly execNow?: ReadonlyMap<string, { readonly step: Step.ExecRun; readonly status: ExecPlan.ExecStatus }>
}

/** What stands at a parent path: a directory, nothing, or something else (a file, a symlink). */
export type ParentKind = 'directory' | 'absent' | 'other'

/** What earlier resources of the catalog leave at a path when they have run. */
type Planned = 'directory' | 'file' | 'absent'

/**
 * Checks that the directory a resource lives in will exist when its turn comes: resources run in
 * manifest order, so an earlier `ensure: directory` provides it, an earlier `ensure: absent` or
 * file in its place takes it away, and otherwise the machine must already have it. A directory
 * resource creates missing parents itself (mkdir -p), so only a file in the way stops it.
 */
export const checkParent = (
  spec: FileSpec,
  status: Status.FileStatus,
  planned: ReadonlyMap<string, { readonly kind: Planned; readonly id: string }>,
  parents: ReadonlyMap<string, ParentKind>,
): E.Either<Diagnostic.Diagnostic, void> => {
  if (spec.ensure === 'absent') return E.right(undefined)
  const fail = (message: string, hint: string) => E.left(Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id, hint }))
  const parent = PosixPath.dirname(spec.path)
  for (let a = parent; a !== '/'; a = PosixPath.dirname(a)) {
    const p = planned.get(a)
    if (p === undefined) continue
    if (p.kind === 'directory') {
      if (a === parent) return E.right(undefined)
      continue // an ancestor that will be a directory says nothing about the parent itself
    }
    return p.kind === 'absent'
      ? fail(`${a} is removed by ${p.id}, which runs earlier, so ${spec.path} has nowhere to go`, `remove one of the two resources`)
      : fail(`${a} is made a file by ${p.id}, which runs earlier, so ${spec.path} cannot be below it`, `remove one of the two resources`)
  }
  if (status._tag !== 'Absent') return E.right(undefined)
  const kind = parent === '/' ? 'directory' : (parents.get(parent) ?? 'directory')
  if (kind === 'directory') return E.right(undefined)
  if (kind === 'other') return fail(`the parent ${parent} is not a directory`, `manage ${parent} with ensure: directory before this resource, or remove what is there`)
  if (spec.ensure === 'directory') return E.right(undefined)
  return fail(`the parent directory ${parent} does not exist`, `add a file resource for ${parent} with ensure: directory before this one`)
}

/** Settings recorded in the plan. */
export interface Settings {
  readonly version: string
  readonly root: string
}

/** The bytes a resource's content resolves to, if it manages content. */
export const bytesOf = (spec: FileSpec, inline: (text: string) => FilePlan.Bytes, sources: ReadonlyMap<string, FilePlan.Bytes>): FilePlan.Bytes | undefined =>
  spec.content._tag === 'Inline' ? inline(spec.content.text) : spec.content._tag === 'Source' ? sources.get(spec.content.path) : undefined

/** Plans a single resource against its observed status (also used by apply to verify). */
export const planResource = (spec: FileSpec, bytes: FilePlan.Bytes | undefined, status: Status.FileStatus, accounts: Accounts): E.Either<Diagnostic.Diagnostic, Plan.FileResourcePlan> => {
  const p = FilePlan.plan(spec, bytes, status, accounts)
  if (E.isLeft(p)) return p
  return E.right({
    id: spec.id,
    type: 'file',
    name: spec.path,
    at: `${spec.at.file}:${spec.at.line}:${spec.at.col}`,
    action: p.right.action,
    desired: p.right.desired,
    observed: { summary: Status.summary(status, accounts), digest: Status.digest(status) },
    steps: [...p.right.steps],
  })
}

/**
 * Plans a resource whose content is deferred: its attributes are resolved and checked now, its
 * steps are made by the executor at its turn, once the content is known.
 */
export const planDeferred = (spec: FileSpec, deferred: Deferred.Deferred, status: Status.FileStatus, accounts: Accounts): E.Either<Diagnostic.Diagnostic, Plan.FileResourcePlan> =>
  E.map((r: Plan.FileResourcePlan): Plan.FileResourcePlan => ({ ...r, action: status._tag === 'Absent' ? 'create' : 'update', steps: [], deferred }))(
    planResource({ ...spec, content: { _tag: 'Unmanaged' } }, undefined, status, accounts),
  )

/**
 * A deferred value is known now when every resource whose file it reads changes nothing: the
 * machine already holds what they would leave. Then it is worked out from the observed bytes and
 * the resource is planned like any other; otherwise it stays deferred ("known after apply").
 */
const planDeferredOrNow = (
  spec: FileSpec,
  deferred: Deferred.Deferred,
  status: Status.FileStatus,
  obs: Observations,
  earlier: ReadonlyArray<Plan.ResourcePlan>,
): E.Either<Diagnostic.Diagnostic, Plan.FileResourcePlan> => {
  const settled = settles(deferred.after, earlier)
  const bytes = DeferredM.managedBytes(deferred.managed, obs.managed)
  if (!settled || bytes === undefined) return planDeferred(spec, deferred, status, obs.accounts)
  const worked = DeferredContent.contentOf(deferred, bytes)
  if (E.isLeft(worked)) return E.left(Diagnostic.make('Expression', worked.left, { at: spec.at, resource: spec.id }))
  return planResource({ ...spec, content: worked.right.content }, worked.right.bytes, status, obs.accounts)
}

/** True when every resource a deferred value reads from is planned and changes nothing: the machine already holds what they leave. */
const settles = (after: ReadonlyArray<string>, earlier: ReadonlyArray<Plan.ResourcePlan>): boolean => after.every((id) => earlier.some((r) => r.id === id && !changes(r)))

/** True when a planned resource may change something in this run (so it can trigger a subscriber). */
const changes = (r: Plan.ResourcePlan): boolean => r.steps.length > 0 || Plan.isDeferred(r) || (Plan.isExec(r) && (r.deferred !== undefined || r.recheck !== undefined))

/** A resource's plan with its links (only those it has). */
const withLinks = (r: Plan.ResourcePlan, l: Links | undefined): Plan.ResourcePlan =>
  l === undefined
    ? r
    : {
        ...r,
        ...(l.require.length > 0 ? { require: [...l.require] } : {}),
        ...(l.subscribe.length > 0 ? { subscribe: [...l.subscribe] } : {}),
        ...(l.healthChecks.length > 0 ? { healthChecks: l.healthChecks.map((h) => ({ name: h.name, argv: [...h.argv], timeoutMs: h.timeoutMs, tries: h.tries, trySleepMs: h.trySleepMs })) } : {}),
      }

/** Builds the plan body of a whole catalog; every failing resource is reported. */
export const plan = (
  catalog: Catalog,
  obs: Observations,
  settings: Settings,
  inline: (text: string) => FilePlan.Bytes,
): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Body> => {
  const problems: Diagnostic.Diagnostic[] = []
  const resources: Plan.ResourcePlan[] = []
  const planned = new Map<string, { kind: Planned; id: string }>()
  const push = (r: Plan.ResourcePlan): void => {
    resources.push(withLinks(r, catalog.links.get(r.id)))
  }
  for (const spec of catalog.resources) {
    if (spec._tag === 'skipped') {
      push({ id: spec.id, type: spec.type, name: spec.name, at: `${spec.at.file}:${spec.at.line}:${spec.at.col}`, action: 'none', skipped: spec.reason, steps: [] })
      continue
    }
    if (spec._tag === 'exec') {
      const status = obs.exec.get(spec.id)
      if (status === undefined) throw new Error(`invariant: no observation for ${spec.id}`)
      const ids = catalog.links.get(spec.id)?.subscribe ?? []
      const subscription = { ids, changing: ids.filter((id) => resources.some((r) => r.id === id && changes(r))) }
      // A deferred exec is known now when the resources managing the files it reads change nothing.
      const now = obs.execNow?.get(spec.id)
      const settled = spec.deferred !== undefined && now !== undefined && settles(spec.deferred.after, resources)
      const head = ExecPlan.headOf(spec)
      push(settled ? ExecPlan.planStep({ ...head, desired: { ...head.desired, line: now.step.line } }, now.step, spec.refreshOnly, now.status, subscription) : ExecPlan.plan(spec, status, subscription))
      continue
    }
    if (spec._tag === 'libral') {
      const found = obs.found.get(spec.id)
      if (found === undefined) throw new Error(`invariant: no observation for ${spec.id}`)
      push(LibralPlan.plan(spec, found))
      continue
    }
    const status = obs.statuses.get(spec.id)
    if (status === undefined) throw new Error(`invariant: no observation for ${spec.id}`)
    const parent = checkParent(spec, status, planned, obs.parents)
    if (E.isLeft(parent)) problems.push(parent.left)
    planned.set(spec.path, { kind: spec.ensure === 'present' ? 'file' : spec.ensure, id: spec.id })
    if (spec.ensure === 'directory') {
      // mkdir -p: the ancestors exist afterwards too
      for (let a = PosixPath.dirname(spec.path); a !== '/' && !planned.has(a); a = PosixPath.dirname(a)) planned.set(a, { kind: 'directory', id: spec.id })
    }
    if (E.isLeft(parent)) continue
    const r = spec.content._tag === 'Deferred' ? planDeferredOrNow(spec, spec.content.deferred, status, obs, resources) : planResource(spec, bytesOf(spec, inline, obs.sources), status, obs.accounts)
    if (E.isLeft(r)) problems.push(r.left)
    else push(r.right)
  }
  if (problems.length > 0) return E.left(problems)
  // Sources are recorded as the manifest spells them, so plans do not depend on where a checkout lives.
  const providers = CatalogM.providers(catalog).map((p) => ({ name: p.meta.qname, path: p.path, sha256: p.digest }))
  const sourceInputs = [...CatalogM.sources(catalog).map((s) => ({ path: s.written, sha256: obs.sources.get(s.path)?.sha256 ?? '' }))]
  for (const f of catalog.files) if (!sourceInputs.some((s) => s.path === f.path)) sourceInputs.push(f)
  const body: Plan.Body = {
    format: Plan.formatVersion,
    plait: settings.version,
    root: settings.root,
    inputs: {
      manifest: { path: catalog.manifest.file, sha256: catalog.manifest.sha256 },
      sources: sourceInputs,
      reads: [...catalog.reads],
      ...(catalog.hiera !== undefined ? { hiera: { path: catalog.hiera.file, sha256: catalog.hiera.sha256 } } : {}),
      ...(providers.length > 0 ? { providers } : {}),
      ...(catalog.clock !== undefined ? { clock: catalog.clock } : {}),
    },
    failOnError: catalog.failOnError,
    resources,
    summary: Plan.summarize(resources),
    ...(catalog.preMessage !== undefined ? { preMessage: catalog.preMessage } : {}),
    ...(catalog.postMessage !== undefined ? { postMessage: catalog.postMessage } : {}),
  }
  return E.right(body)
}
