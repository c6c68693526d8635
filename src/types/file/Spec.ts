// Spec: the file resource's properties, decoded and validated from a manifest entry.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Mode from '../../core/Mode.js'
import * as PosixPath from '../../core/PosixPath.js'
import { render as renderAt, type Position } from '../../core/Position.js'
import * as ResourceId from '../../core/ResourceId.js'
import * as Fields from '../Fields.js'
import type * as Deferred from '../../core/Deferred.js'
import { plainText, type RawResource, type Scope } from '../../manifest/Manifest.js'
import * as Deferral from '../Deferral.js'
import * as Node from '../../manifest/Node.js'
import type * as Template from '../../manifest/expr/Template.js'

// model

export type Ensure = 'present' | 'absent' | 'directory'

/** Where a file's bytes come from: inline `content`, a `source` file, or nowhere (attributes only). */
export type ContentSpec =
  | { readonly _tag: 'Inline'; readonly text: string }
  | { readonly _tag: 'Source'; readonly written: string; readonly path: string }
  | { readonly _tag: 'Unmanaged' }
  /** Not knowable at plan time: it reads a file an earlier resource manages (see core/Deferred). */
  | { readonly _tag: 'Deferred'; readonly deferred: Deferred.Deferred }


export interface FileSpec {
  readonly _tag: 'file'
  readonly id: string
  readonly path: string
  readonly at: Position
  readonly ensure: Ensure
  readonly content: ContentSpec
  readonly owner?: string
  readonly group?: string
  readonly mode?: number
  readonly force: boolean
}

/** Properties the file type accepts. */
/** The largest user or group id the kernel accepts: 2^32-2 (2^32-1 means "no change" to chown). */
export const maxId = 2 ** 32 - 2

export const keys = ['ensure', 'content', 'source', 'owner', 'group', 'mode', 'force', 'provider'] as const

const principalPattern = /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,31}\$?$/
const digits = /^[0-9]+$/
const required = ['owner', 'group', 'mode'] as const // unless ensure is absent

/** No content managed: one value for every resource without content or source. */
const unmanaged: ContentSpec = Object.freeze({ _tag: 'Unmanaged' })

// decoding


/**
 * The deferred form of a `content` value, when its template reads a file an earlier resource
 * manages; or its rendering, when the probe rendered it and it reads none (so it is rendered once).
 * Undefined: render it as any other property.
 */
const deferContent = (
  e: Node.Entry,
  scope: Scope,
  baseDir: string,
  deferral: Deferral.Deferral | undefined,
): { readonly _tag: 'Deferred'; readonly deferred: Deferred.Deferred } | { readonly _tag: 'Now'; readonly rendered: Template.Rendered } | undefined => {
  const probed = Deferral.renderOrProbe(e.value, scope, baseDir, deferral)
  if (probed === undefined || probed._tag === 'Now') return probed
  if (deferral === undefined) return undefined
  const p = probed.probed
  return {
    _tag: 'Deferred',
    deferred: {
      property: 'content',
      at: renderAt(p.at),
      after: [...new Set([...p.managed.values()].map((m) => m.id))],
      managed: Object.fromEntries([...p.managed].map(([rel, m]) => [rel, m.path])),
      template: p.template,
      snapshot: deferral.snapshot(p.reads),
    },
  }
}

/** Decodes and validates a file resource; `baseDir` resolves a relative `source` (the manifest's directory). */
export const decode = (raw: RawResource, scope: Scope, baseDir: string, deferral?: Deferral.Deferral): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, FileSpec> => {
  // The id the manifest's decode made for it (compile keys its maps by that very string).
  const id = raw.type === 'file' && raw.id !== undefined ? raw.id : ResourceId.make('file', raw.name)
  // The entries' reader: a record, not closures (this runs once per file resource).
  const reading = Fields.reading(id, scope)
  if (!PosixPath.isCleanAbsolute(raw.name)) {
    Fields.fail(reading, 'Validation', `file path must be absolute and clean (no ".", "..", "//" or trailing "/"): "${raw.name}"`, raw.nameAt)
  }
  else if (raw.name === '/') Fields.fail(reading, 'Validation', 'file path cannot be the root directory "/"', raw.nameAt)
  if (raw.name.includes('\0')) Fields.fail(reading, 'Validation', 'file path contains a NUL byte', raw.nameAt)
  let ensure: Ensure = 'present'
  let ensureValid = true
  let ensureAt = raw.nameAt
  let content: ContentSpec = unmanaged
  let contentAt: Position | undefined
  let owner: string | undefined
  let group: string | undefined
  let mode: number | undefined
  let force = false
  let forceAt: Position | undefined
  // Whether owner, group and mode are given, rendered or not (they are required unless ensure is absent).
  let ownerGiven = false
  let groupGiven = false
  let modeGiven = false
  // An indexed loop, as in the other loops run once per resource: before the code is optimized,
  // for-of makes an iterator result per entry (a third of what compiling a file resource made).
  for (let i = 0; i < raw.props.length; i++) {
    const e = raw.props[i]!
    switch (e.key) {
      case 'ensure': {
        const v = Fields.str(reading, e)
        if (v === undefined) {
          ensureValid = false
          break
        }
        if (v === 'present' || v === 'absent' || v === 'directory') {
          ensure = v
          ensureAt = e.value.at
        } else {
          ensureValid = false
          Fields.fail(reading, 'Validation', `ensure must be one of present, absent, directory; got "${v}"`, e.value.at)
        }
        break
      }
      case 'content': {
        if (e.value._tag === 'Scalar' && e.value.value === null) break
        // Text without a hole (most contents) reads nothing: it is the content as it is.
        const plain = plainText(e.value)
        const probed = plain === undefined ? deferContent(e, scope, baseDir, deferral) : undefined
        const deferred = probed?._tag === 'Deferred' ? probed.deferred : undefined
        const v = plain ?? (probed === undefined ? Fields.str(reading, e) : probed._tag === 'Now' ? Fields.strOf(reading, e, probed.rendered) : undefined)
        if (v === undefined && deferred === undefined) break
        if (content._tag === 'Source') Fields.fail(reading, 'Validation', 'content and source are mutually exclusive', e.keyAt)
        content = deferred !== undefined ? { _tag: 'Deferred', deferred } : { _tag: 'Inline', text: v! }
        contentAt = e.keyAt
        break
      }
      case 'source': {
        const v = Fields.str(reading, e)
        if (v === undefined) break
        if (v === '') {
          Fields.fail(reading, 'Validation', 'source cannot be empty', e.value.at)
          break
        }
        if (content._tag === 'Inline' || content._tag === 'Deferred') Fields.fail(reading, 'Validation', 'content and source are mutually exclusive', e.keyAt)
        const path = PosixPath.resolve(baseDir, v)
        const managed = deferral?.managedAt(path)
        content =
          managed === undefined
            ? { _tag: 'Source', written: v, path }
            : { _tag: 'Deferred', deferred: { property: 'source', at: renderAt(e.value.at), after: [managed.id], managed: { [v]: managed.path }, path: managed.path } }
        contentAt = e.keyAt
        break
      }
      case 'owner':
      case 'group': {
        if (e.key === 'owner') ownerGiven = true
        else groupGiven = true
        const v = Fields.str(reading, e)
        if (v === undefined) break
        if (!principalPattern.test(v)) {
          Fields.fail(reading, 'Validation', `${e.key} "${v}" is not a valid ${e.key === 'owner' ? 'user' : 'group'} name or numeric id`, e.value.at)
          break
        }
        if (digits.test(v) && Number(v) > maxId) {
          Fields.fail(reading, 'Validation', `${e.key} ${v} is out of range: numeric ids go from 0 to ${maxId} (${maxId + 1} is the kernel's "no id")`, e.value.at)
          break
        }
        if (e.key === 'owner') owner = v
        else group = v
        break
      }
      case 'mode': {
        modeGiven = true
        const v = Fields.str(reading, e)
        if (v === undefined) break
        const m = Mode.parse(v)
        if (E.isLeft(m)) Fields.fail(reading, 'Validation', m.left, e.value.at, 'quote modes in YAML: mode: "0644"')
        else mode = m.right
        break
      }
      case 'force': {
        if (e.value._tag === 'Scalar' && typeof e.value.value === 'boolean') {
          force = e.value.value
          forceAt = e.keyAt
        } else Fields.fail(reading, 'Decode', `force must be a boolean, found ${Node.describe(e.value)}`, e.value.at)
        break
      }
      case 'provider': {
        const v = Fields.str(reading, e)
        if (v !== undefined && v !== 'posix') Fields.fail(reading, 'Validation', `unknown file provider "${v}"; the file type has one provider, posix`, e.value.at)
        break
      }
      default:
        Fields.fail(reading, 'UnknownKey', `unknown property "${e.key}" for a file resource`, e.keyAt, `allowed: ${keys.join(', ')}`)
    }
  }
  // With an invalid ensure, whether owner, group and mode are required is unknown: say only what is wrong.
  if (ensure !== 'absent' && ensureValid && !(ownerGiven && groupGiven && modeGiven)) {
    const given = { owner: ownerGiven, group: groupGiven, mode: modeGiven }
    for (const k of required) {
      if (!given[k]) {
        Fields.fail(reading, 'Validation', `${k} is required unless ensure is absent`, raw.nameAt, 'plait, like CCM, never creates files with default or inherited permissions')
      }
    }
  }
  if (ensure !== 'present' && content._tag !== 'Unmanaged') {
    Fields.fail(reading, 'Validation', `${content._tag === 'Inline' ? 'content' : 'source'} cannot be used with ensure: ${ensure}`, contentAt ?? ensureAt)
  }
  if (force && ensure === 'directory') Fields.fail(reading, 'Validation', 'force is only valid with ensure: absent (remove a non-empty directory) or present (replace one with the file)', forceAt ?? ensureAt)
  if (reading.problems.length > 0) return E.left(reading.problems)
  // Most resources give all three of owner, group and mode: one literal then, rather than spreads
  // of a literal per property (the same keys in the same order; a property not given is left out).
  const spec: FileSpec =
    owner !== undefined && group !== undefined && mode !== undefined
      ? { _tag: 'file', id, path: raw.name, at: raw.nameAt, ensure, content, force, owner, group, mode }
      : {
          _tag: 'file',
          id,
          path: raw.name,
          at: raw.nameAt,
          ensure,
          content,
          force,
          ...(owner !== undefined ? { owner } : {}),
          ...(group !== undefined ? { group } : {}),
          ...(mode !== undefined ? { mode } : {}),
        }
  return E.right(spec)
}
