// observe: runs every resource's probe through the interpreter and reads the source files (effects).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Fault from '../core/Fault.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as CatalogM from '../compiler/Catalog.js'
import type { Observations, ParentKind } from '../compiler/plan.js'
import type { Machine } from '../interpreters/Machine.js'
import type { Bytes } from '../types/file/plan.js'
import { diffLimit } from '../types/file/plan.js'
import type { FileSpec } from '../types/file/Spec.js'
import * as Status from '../types/file/Status.js'
import type { Session } from '../interpreters/libral/Session.js'
import type { Runner } from '../interpreters/Runner.js'
import type { ExecRun } from '../core/Step.js'
import * as ExecDeferred from '../types/exec/deferred.js'
import * as ExecPlan from '../types/exec/plan.js'
import * as DeferredContent from '../types/file/deferred.js'
import * as Guards from './guards.js'
import * as Managed from './managed.js'
import * as DeferredM from '../core/Deferred.js'
import type * as Resource from '../libral/Resource.js'

/** Reads a file of the host (a manifest's source files live beside the manifest, not on the target). */
export type ReadHost = (path: string) => Promise<E.Either<Fault.Fault, Uint8Array>>

/** How many probes run at once: enough to hide I/O latency, few enough to keep file descriptors low. */
export const concurrency = 32

const encoder = new TextEncoder()

/** Bytes of inline content. */
export const inlineBytes = (text: string): Bytes => {
  const data = encoder.encode(text)
  return { data, sha256: Digest.sha256(data) }
}

/**
 * `inlineBytes` that remembers its answers: observe and plan both need the bytes of every inline
 * content, and equal texts share them. One per run (it holds every content until dropped).
 */
export const inlineMemo = (): ((text: string) => Bytes) => {
  const memo = new Map<string, Bytes>()
  return (text) => {
    let bytes = memo.get(text)
    if (bytes === undefined) {
      bytes = inlineBytes(text)
      memo.set(text, bytes)
    }
    return bytes
  }
}

/** Observes one resource's path; asks for the old bytes when they will be needed for a diff. */
export const observeOne = async (machine: Machine, spec: FileSpec, want: Bytes | undefined): Promise<E.Either<Diagnostic.Diagnostic, Status.FileStatus>> => {
  const options = want === undefined ? {} : { contentUnless: want.sha256, contentLimit: diffLimit }
  const r = await machine.probe(spec.path, options)()
  return E.isLeft(r)
    ? E.left(Diagnostic.make('Observe', `cannot observe ${spec.path}: ${Fault.render(r.left)}`, { at: spec.at, resource: spec.id }))
    : E.right(Status.fromProbe(r.right))
}

/** Runs `f` over items with at most `limit` in flight, keeping result order. */
export const mapLimit = async <A, B>(items: ReadonlyArray<A>, limit: number, f: (a: A) => Promise<B>): Promise<B[]> => {
  const out = new Array<B>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await f(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/** Reads the catalog's source files from the host. */
export const readSources = async (catalog: Catalog, readHost: ReadHost): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Map<string, Bytes>>> => {
  const problems: Diagnostic.Diagnostic[] = []
  const sources = new Map<string, Bytes>()
  for (const s of CatalogM.sources(catalog)) {
    const r = await readHost(s.path)
    if (E.isLeft(r)) {
      const users = CatalogM.files(catalog).filter((x) => x.content._tag === 'Source' && x.content.path === s.path)
      for (const u of users) {
        problems.push(Diagnostic.make('Io', `cannot read source "${s.written}" (${s.path}): ${r.left.description}`, { at: u.at, resource: u.id }))
      }
    } else {
      sources.set(s.path, { data: r.right, sha256: Digest.sha256(r.right) })
    }
  }
  return problems.length > 0 ? E.left(problems) : E.right(sources)
}

/**
 * Observes the catalog's libral resources: for each provider, one `list` (or one `find` when the
 * catalog names a single resource of it), whatever the number of resources.
 */
export const observeLibral = async (catalog: Catalog, session: Session | undefined): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Map<string, Resource.Found>>> => {
  const specs = CatalogM.libral(catalog)
  const found = new Map<string, Resource.Found>()
  if (specs.length === 0) return E.right(found)
  if (session === undefined) throw new Error('invariant: a catalog with libral resources is observed without a libral session')
  const problems: Diagnostic.Diagnostic[] = []
  for (const p of CatalogM.providers(catalog)) {
    const mine = specs.filter((s) => s.provider.meta.qname === p.meta.qname)
    const r = await session.observe({ meta: p.meta, path: p.path }, mine.map((s) => s.name))
    if (E.isLeft(r)) {
      problems.push(Diagnostic.make('Observe', `cannot observe ${p.meta.qname} resources: ${Fault.render(r.left)}`, { at: mine[0]!.at, resource: mine[0]!.id }))
      continue
    }
    for (const s of mine) found.set(s.id, r.right.get(s.name)!)
  }
  return problems.length > 0 ? E.left(problems) : E.right(found)
}

/**
 * Evaluates each exec resource's creates and guards, in manifest order, one at a time (guards are
 * commands: running them in parallel could make them disagree with a sequential apply).
 */
export const observeExec = async (
  catalog: Catalog,
  machine: Machine,
  runner: Runner | undefined,
  managed: ReadonlyMap<string, Uint8Array>,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, { statuses: Map<string, ExecPlan.ExecStatus>; now: Map<string, WorkedOut> }>> => {
  const out = new Map<string, ExecPlan.ExecStatus>()
  const now = new Map<string, WorkedOut>()
  const problems: Diagnostic.Diagnostic[] = []
  for (const spec of CatalogM.execs(catalog)) {
    // A deferred exec whose files already hold text: worked out and asked now, in case the
    // resources that manage them change nothing (then the plan can decide it; see Planner).
    if (spec.deferred !== undefined && runner !== undefined) {
      const d = { ...spec.deferred, refreshOnly: spec.refreshOnly, base: ExecPlan.stepOf(spec, '') }
      const bytes = DeferredM.managedBytes(d.managed, managed)
      const texts = bytes === undefined ? undefined : DeferredContent.textsOf(d.managed, bytes)
      const step = texts === undefined || E.isLeft(texts) ? undefined : ExecDeferred.workOut(d, texts.right)
      if (step !== undefined && E.isRight(step)) {
        const s = await Guards.evaluate(step.right.guards, machine, runner)
        if (E.isRight(s)) now.set(spec.id, { step: step.right, status: s.right })
      }
    }
    // A deferred exec's guards are asked at its turn, once their templates can be rendered.
    if ((spec.creates === undefined && spec.onlyif === undefined && spec.unless === undefined) || spec.deferred !== undefined) {
      out.set(spec.id, {})
      continue
    }
    if (runner === undefined) throw new Error('invariant: exec guards are observed without a command runner')
    const s = await Guards.evaluate(ExecPlan.guardsOf(spec), machine, runner)
    if (E.isLeft(s)) problems.push(Diagnostic.make('Observe', s.left, { at: spec.at, resource: spec.id }))
    else out.set(spec.id, s.right)
  }
  return problems.length > 0 ? E.left(problems) : E.right({ statuses: out, now })
}

/** A deferred exec worked out with the machine's current files: its step and what its guards said. */
export interface WorkedOut {
  readonly step: ExecRun
  readonly status: ExecPlan.ExecStatus
}

/** Observes the whole catalog: accounts, source files, then every resource's path; `inline` gives inline contents' bytes. */
export const observe = async (
  catalog: Catalog,
  machine: Machine,
  readHost: ReadHost,
  inline: (text: string) => Bytes = inlineBytes,
  session?: Session,
  runner?: Runner,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Observations>> => {
  const accounts = await machine.accounts()()
  if (E.isLeft(accounts)) return E.left([Diagnostic.make('Observe', `cannot read the user database: ${Fault.render(accounts.left)}`)])
  const sources = await readSources(catalog, readHost)
  if (E.isLeft(sources)) return sources
  const files = CatalogM.files(catalog)
  const results = await mapLimit(files, concurrency, (spec) =>
    observeOne(machine, spec, spec.content._tag === 'Inline' ? inline(spec.content.text) : spec.content._tag === 'Source' ? sources.right.get(spec.content.path) : undefined),
  )
  const problems: Diagnostic.Diagnostic[] = []
  const statuses = new Map<string, Status.FileStatus>()
  results.forEach((r, i) => {
    if (E.isLeft(r)) problems.push(r.left)
    else statuses.set(files[i]!.id, r.right)
  })
  const found = await observeLibral(catalog, session)
  if (E.isLeft(found)) problems.push(...found.left)
  const managed = await observeManaged(machine, catalog)
  const exec = await observeExec(catalog, machine, runner, managed)
  if (E.isLeft(exec)) problems.push(...exec.left)
  if (problems.length > 0 || E.isLeft(found) || E.isLeft(exec)) return E.left(problems)
  const parents = await observeParents(machine, files, statuses)
  return E.right({ statuses, sources: sources.right, accounts: accounts.right, parents, found: found.right, managed, exec: exec.right.statuses, execNow: exec.right.now })
}

/**
 * Reads, once each, the managed files that deferred file and exec values read (the planner works
 * such a value out at plan time when the resources managing them change nothing). A file that is
 * missing, not a regular file or too large is left out: the value stays deferred.
 */
const observeManaged = async (machine: Machine, catalog: Catalog): Promise<Map<string, Uint8Array>> => {
  const paths = new Set<string>()
  for (const f of CatalogM.files(catalog)) if (f.content._tag === 'Deferred') for (const p of Object.values(f.content.deferred.managed)) paths.add(p)
  for (const x of CatalogM.execs(catalog)) for (const p of Object.values(x.deferred?.managed ?? {})) paths.add(p)
  const out = new Map<string, Uint8Array>()
  for (const path of paths) {
    const b = await Managed.read(machine, path)
    if (E.isRight(b)) out.set(path, b.right)
  }
  return out
}

/**
 * Observes the parent directory of every resource that would be created, so the plan can refuse a
 * file whose directory is missing (or is a file) instead of failing at apply. Existing paths have a
 * parent by construction, so an unchanged machine costs no extra probe.
 */
const observeParents = async (machine: Machine, files: ReadonlyArray<FileSpec>, statuses: ReadonlyMap<string, Status.FileStatus>): Promise<Map<string, ParentKind>> => {
  const wanted = new Set<string>()
  for (const spec of files) {
    const parent = PosixPath.dirname(spec.path)
    if (spec.ensure !== 'absent' && statuses.get(spec.id)?._tag === 'Absent' && parent !== '/') wanted.add(parent)
  }
  const list = [...wanted]
  const kinds = await mapLimit(list, concurrency, async (path): Promise<ParentKind> => {
    const r = await machine.probe(path, { contentLimit: 0 })()
    return E.isLeft(r) ? 'absent' : r.right._tag === 'Directory' ? 'directory' : r.right._tag === 'Absent' ? 'absent' : 'other'
  })
  return new Map(list.map((p, i) => [p, kinds[i]!]))
}
