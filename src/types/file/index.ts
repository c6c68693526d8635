// file: the file resource type (CCM's `file`): a regular file with its content, owner, group and
// mode, a directory, or an absent path. Everything the pipeline knows of it is in this value.
import * as E from 'fp-ts/lib/Either.js'
import * as Bytes from '../../core/Bytes.js'
import * as DeferredM from '../../core/Deferred.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Fault from '../../core/Fault.js'
import * as Mode from '../../core/Mode.js'
import type { Observation } from '../../core/Observation.js'
import * as Obs from '../../core/Observation.js'
import * as PosixPath from '../../core/PosixPath.js'
import type { Probe } from '../../core/Probe.js'
import { contentProblem, type FileStep, type FileWrite } from './Step.js'
import { field as f } from '../../core/Terminal.js'
import * as Managed from '../Managed.js'
import * as Render from '../Render.js'
import type { ResourceType, Turn } from '../ResourceType.js'
import * as DeferredContent from './DeferredContent.js'
import * as FilePlan from './plan.js'
import * as Planner from './planner.js'
import { FileResourcePlan, isDeferred } from './ResourcePlan.js'
import * as Spec from './Spec.js'
import * as Status from './Status.js'
import { verify } from './verify.js'

/** Probes a resource's path, with the old bytes when they will be needed for a diff; a failed probe is a fault whose description is the sentence a report shows. */
const probePath = (spec: Spec.FileSpec, want: FilePlan.Bytes | undefined): Observation<E.Either<Fault.Fault, Status.FileStatus>> =>
  Obs.map((r: E.Either<Fault.Fault, Probe>) =>
    E.isLeft(r) ? E.left(Fault.make(r.left._tag, 'file', 'observe', spec.path, `cannot observe ${spec.path}: ${Fault.render(r.left)}`, r.left)) : E.right(Status.fromProbe(r.right)),
  )(Obs.probe(spec.path, want === undefined ? {} : { contentUnless: want.sha256, contentLimit: FilePlan.diffLimit }))

/** What stands at the parent of a path that would be created (a failed probe counts as nothing there). */
const parentOf = (path: string): Observation<Planner.ParentKind> =>
  Obs.map((r: E.Either<Fault.Fault, Probe>): Planner.ParentKind => (E.isLeft(r) ? 'absent' : r.right._tag === 'Directory' ? 'directory' : r.right._tag === 'Absent' ? 'absent' : 'other'))(
    Obs.probe(path, { contentLimit: 0 }),
  )

/** No host files read (most resources): one value, not one array per resource. */
const noSources: ReadonlyArray<{ readonly path: string; readonly written: string }> = []

/** No managed files read (most resources): one value, not one map per resource. */
const noneManaged: ReadonlyMap<string, Uint8Array> = new Map()
const noOptions = {}

/**
 * A file resource's observation: its content's bytes, then its path, then (only when it would be
 * created) what stands at its parent, and (only when its content is deferred) the managed files it
 * reads. Written with one continuation per question rather than with `map`, `chain` and `all`: it
 * runs once per resource, and most resources ask one question.
 */
const observe = (spec: Spec.FileSpec): Observation<E.Either<Diagnostic.Diagnostic, Planner.Observed>> => {
  const c = spec.content
  // an inline content is hashed from its text, and encoded only if its bytes are needed (a write)
  if (c._tag === 'Inline') return observePath(spec, Bytes.ofText(c.text))
  if (c._tag !== 'Source') return observePath(spec, undefined)
  return Obs.chain((r: E.Either<Fault.Fault, Obs.HostFile>): Observation<E.Either<Diagnostic.Diagnostic, Planner.Observed>> =>
    E.isLeft(r) ? Obs.done(E.left(Diagnostic.make('Io', `cannot read source "${c.written}" (${c.path}): ${r.left.description}`, { at: spec.at, resource: spec.id }))) : observePath(spec, r.right),
  )(Obs.host(c.path))
}

/** The path's probe (with the old bytes when they will be needed for a diff), then the parent and managed files when needed. */
const observePath = (spec: Spec.FileSpec, bytes: FilePlan.Bytes | undefined): Observation<E.Either<Diagnostic.Diagnostic, Planner.Observed>> =>
  Obs.probeThen(spec.path, bytes === undefined ? noOptions : { contentUnless: bytes.sha256, contentLimit: FilePlan.diffLimit }, (r): Observation<E.Either<Diagnostic.Diagnostic, Planner.Observed>> => {
    if (E.isLeft(r)) return Obs.done(E.left(Diagnostic.make('Observe', `cannot observe ${spec.path}: ${Fault.render(r.left)}`, { at: spec.at, resource: spec.id })))
    const status = Status.fromProbe(r.right)
    // only a path that would be created has its parent probed ("/" always stands)
    const parent = spec.ensure !== 'absent' && status._tag === 'Absent' ? PosixPath.dirname(spec.path) : '/'
    // the common case, one question asked: done without a further step
    if (parent === '/' && spec.content._tag !== 'Deferred') return Obs.done(E.right(bytes === undefined ? { status, managed: noneManaged } : { status, managed: noneManaged, bytes }))
    return observeMore(spec, bytes, status, parent)
  })

/** What a resource asks after its path's probe: its parent (unless `parent` is "/"), and the managed files its deferred content reads. */
const observeMore = (spec: Spec.FileSpec, bytes: FilePlan.Bytes | undefined, status: Status.FileStatus, parent: string): Observation<E.Either<Diagnostic.Diagnostic, Planner.Observed>> => {
  const observed = (p: Planner.ParentKind | undefined, managed: ReadonlyMap<string, Uint8Array>): E.Either<Diagnostic.Diagnostic, Planner.Observed> =>
    E.right(bytes === undefined && p === undefined ? { status, managed } : { status, managed, ...(bytes !== undefined ? { bytes } : {}), ...(p !== undefined ? { parent: p } : {}) })
  const managed = spec.content._tag === 'Deferred' ? Managed.readSome(Object.values(spec.content.deferred.managed)) : undefined
  if (parent === '/') return managed === undefined ? Obs.done(observed(undefined, noneManaged)) : Obs.map((m: ReadonlyMap<string, Uint8Array>) => observed(undefined, m))(managed)
  return Obs.chain((p: Planner.ParentKind) => (managed === undefined ? Obs.done(observed(p, noneManaged)) : Obs.map((m: ReadonlyMap<string, Uint8Array>) => observed(p, m))(managed)))(parentOf(parent))
}

/** Works out a deferred resource's content at its turn and plans it against the machine as it is now. */
const resolve = (r: FileResourcePlan & { readonly deferred: DeferredM.Deferred }, accounts: import('../../core/Probe.js').Accounts) =>
  Obs.chainRight((read: Map<string, Uint8Array>) => {
    const d = r.deferred
    const worked = DeferredContent.contentOf(d, read)
    if (E.isLeft(worked)) return Obs.done(worked)
    const { content, bytes: want } = worked.right
    const mode = r.desired.mode === undefined ? undefined : Mode.parse(r.desired.mode)
    const spec: Spec.FileSpec = {
      _tag: 'file',
      id: r.id,
      path: r.name,
      at: { file: r.at, line: 0, col: 0 },
      ensure: r.desired.ensure,
      content,
      force: r.desired.force,
      ...(r.desired.owner !== undefined ? { owner: r.desired.owner.name } : {}),
      ...(r.desired.group !== undefined ? { group: r.desired.group.name } : {}),
      ...(mode !== undefined && E.isRight(mode) ? { mode: mode.right } : {}),
    }
    return Obs.map((status: E.Either<Fault.Fault, Status.FileStatus>): E.Either<Fault.Fault, Turn> => {
      if (E.isLeft(status)) return status
      const planned = FilePlan.plan(spec, want, status.right, accounts)
      if (E.isLeft(planned)) return E.left(Fault.make('Failed', 'file', 'plan', r.id, planned.left.message, planned.left))
      const note = d.property === 'source' ? `content read from ${d.path} (${want.data.length} bytes), after ${d.after.join(', ')}` : `content worked out after ${d.after.join(', ')} (${want.data.length} bytes)`
      return E.right({ steps: planned.right.steps, expected: { ...r, desired: planned.right.desired }, notes: [note] })
    })(probePath(spec, want))
  })(Managed.readAll(r.deferred.managed))

/** The lines of one file step: its reason, and the content diff (or why there is none to show). */
const stepLines = (s: FileStep): ReadonlyArray<string> => {
  const out = [Render.stepHead(s)]
  if (s._tag === 'file.write') {
    if (s.diff !== undefined && s.diff.trim() !== '') out.push(Render.indent(Render.diffLines(s.diff), '  '))
    else if (s.content.encoding === 'base64') out.push(`  (binary content, ${s.content.size} bytes, sha256 ${f(s.content.sha256.slice(0, 12))})`)
    else if (s.content.size === 0) out.push('  (empty file)')
    else if (s.diff === undefined) out.push(`  (content not shown: ${s.content.size} bytes, sha256 ${f(s.content.sha256.slice(0, 12))})`)
  }
  return out
}

export const file: ResourceType<Spec.FileSpec, Planner.Observed, FileResourcePlan> = {
  kind: 'file',
  codec: FileResourcePlan,
  keys: Spec.keys,
  decode: (raw, env) => Spec.decode(raw, env.scope, env.baseDir, env.deferral),
  sources: (spec) => (spec.content._tag === 'Source' ? [{ path: spec.content.path, written: spec.content.written }] : noSources),
  manages: (spec) => spec.path,
  observe,
  planner: Planner.planner,
  pending: (r) => (isDeferred(r) ? `${DeferredM.describe(r.deferred)}; would be worked out and planned at its turn` : undefined),
  mayChange: (r) => r.steps.length > 0 || isDeferred(r),
  needs: (r) => (isDeferred(r) ? r.deferred.after : []),
  check: (r, accounts, same) =>
    Obs.map((p: E.Either<Fault.Fault, Probe>) => {
      if (E.isLeft(p)) return { drift: `cannot observe ${r.name}: ${Fault.render(p.left)}` }
      const s = Status.fromProbe(p.right)
      return same(r.observed.digest, Status.digest(s)) ? {} : { drift: `changed since the plan was made: was ${r.observed.summary}, now ${Status.summary(s, accounts)}` }
    })(Obs.probe(r.name)),
  turn: (r, env) =>
    isDeferred(r)
      ? Obs.map(E.mapLeft((e: Fault.Fault) => Fault.make(e._tag, 'file', 'turn', r.id, `cannot work out the deferred content: ${e.description}`, e)))(resolve(r, env.accounts))
      : Obs.done(E.right({ steps: r.steps, expected: r, notes: [] })),
  verify: (r) => Obs.map((p: E.Either<Fault.Fault, Probe>) => (E.isLeft(p) ? [Fault.render(p.left)] : verify(r.desired, Status.fromProbe(p.right))))(Obs.probe(r.name)),
  render: (r, options) =>
    isDeferred(r)
      ? [`${Render.symbol(r.action)} ${f(r.id)}`, `    was: ${f(r.observed.summary)}`, `    (${f(DeferredM.describe(r.deferred))})`, '']
      : Render.changes(r, (s) => stepLines(s as FileStep), options.verbose),
  stepChecks: { 'file.write': (s) => contentProblem((s as FileWrite).content) },
  show: (r) => {
    const props = [`ensure=${r.ensure}`]
    if (r.owner !== undefined) props.push(`owner=${f(r.owner)}`)
    if (r.group !== undefined) props.push(`group=${f(r.group)}`)
    if (r.mode !== undefined) props.push(`mode=${r.mode.toString(8).padStart(4, '0')}`)
    if (r.content._tag === 'Inline') props.push(`content=${JSON.stringify(r.content.text.length > 40 ? r.content.text.slice(0, 40) + '…' : r.content.text)}`)
    if (r.content._tag === 'Source') props.push(`source=${f(r.content.written)}`)
    if (r.force) props.push('force=true')
    return f(props.join(' '))
  },
  // A mode as the manifest writes it ("0644"), not as the number it is.
  json: (r) => (r.mode === undefined ? r : { ...r, mode: Mode.format(r.mode) }),
}
