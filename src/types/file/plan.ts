// plan: the file type's pure plan function, desired × observed → steps (CCM's decision table).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Fault from '../../core/Fault.js'
import * as Mode from '../../core/Mode.js'
import * as UnifiedDiff from '../../core/UnifiedDiff.js'
import type { Accounts } from '../../core/Probe.js'
import type { Action } from '../../core/Plan.js'
import type { Content, FileStep as Step, Principal } from './Step.js'
import type { FileDesired } from './ResourcePlan.js'
import * as BytesM from '../../core/Bytes.js'
import type { Bytes } from '../ResourceType.js'
import type { FileSpec } from './Spec.js'
import type { FileStatus } from './Status.js'
import { nameOf } from './Status.js'

// model

/** The bytes a present file must hold, resolved from `content` or `source` by the caller. */
export type { Bytes }

export interface FilePlan {
  readonly desired: FileDesired
  readonly action: Action
  readonly steps: ReadonlyArray<Step>
}

/** Largest text the plan embeds a diff for. */
export const diffLimit = 256 * 1024

// resolution

/** Resolves a user or group given by name or numeric id against the account database; a name it does not hold is NotFound. */
export const resolvePrincipal = (kind: 'owner' | 'group', text: string, accounts: Accounts): E.Either<Fault.Fault, Principal> => {
  const byName = kind === 'owner' ? accounts.users : accounts.groups
  const names = kind === 'owner' ? accounts.userNames : accounts.groupNames
  if (/^[0-9]+$/.test(text)) {
    const id = Number(text)
    return E.right({ name: nameOf(names, id), id })
  }
  const id = byName.get(text)
  return id === undefined
    ? E.left(Fault.make('NotFound', 'file', kind, text, `could not look up ${kind === 'owner' ? 'user' : 'group'} "${text}"`))
    : E.right({ name: text, id })
}

/** Resolves an owner or group (resolvePrincipal, or a memo of it: see `principals`). */
export type Principals = (kind: 'owner' | 'group', text: string, accounts: Accounts) => E.Either<Fault.Fault, Principal>

/**
 * resolvePrincipal, remembering its answers for one run (its resources name a few users and groups
 * thousands of times). The principals it gives are shared between the resources' plans: plan
 * values are never changed once made.
 */
export const principals = (): Principals => {
  let of: Accounts | undefined
  const owners = new Map<string, E.Either<Fault.Fault, Principal>>()
  const groups = new Map<string, E.Either<Fault.Fault, Principal>>()
  // the last answer of each kind: resources in a row mostly name the same one, and comparing two
  // short texts costs less than hashing each resource's own copy of the name for the table
  let lastOwner: { readonly text: string; readonly r: E.Either<Fault.Fault, Principal> } | undefined
  let lastGroup: typeof lastOwner
  return (kind, text, accounts) => {
    if (accounts !== of) {
      of = accounts
      owners.clear()
      groups.clear()
      lastOwner = lastGroup = undefined
    }
    const last = kind === 'owner' ? lastOwner : lastGroup
    if (last !== undefined && last.text === text) return last.r
    const seen = kind === 'owner' ? owners : groups
    let r = seen.get(text)
    if (r === undefined) {
      r = resolvePrincipal(kind, text, accounts)
      seen.set(text, r)
    }
    if (kind === 'owner') lastOwner = { text, r }
    else lastGroup = { text, r }
    return r
  }
}

/** Turns bytes into plan content: UTF-8 text when they decode as such, base64 otherwise. */
export const toContent = (b: Bytes): Content => {
  const text = asText(b.data)
  return text === undefined
    ? { encoding: 'base64', data: Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength).toString('base64'), sha256: b.sha256, size: b.size }
    : { encoding: 'utf8', data: text, sha256: b.sha256, size: b.size }
}

const asText = (data: Uint8Array): string | undefined => {
  if (data.includes(0)) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data)
  } catch {
    return undefined
  }
}

// planning

/**
 * Plans one file resource. `bytes` is required when the spec manages content (`Inline` or `Source`).
 * Fails (a diagnostic naming the resource) when a user or group is unknown, when a non-empty
 * directory stands where a file is wanted without `force`, or when a symlink is in the way of a
 * file with no content. Anything else in the way is removed first (CCM's decision table).
 */
export const plan = (spec: FileSpec, bytes: Bytes | undefined, status: FileStatus, accounts: Accounts, principal: Principals = resolvePrincipal): E.Either<Diagnostic.Diagnostic, FilePlan> => {
  let owner: Principal | undefined
  let group: Principal | undefined
  if (spec.ensure !== 'absent') {
    const o = principal('owner', spec.owner ?? '', accounts)
    if (E.isLeft(o)) return failure(spec, o.left.description)
    const g = principal('group', spec.group ?? '', accounts)
    if (E.isLeft(g)) return failure(spec, g.left.description)
    owner = o.right
    group = g.right
  }
  const mode = spec.mode ?? 0
  const modeText = Mode.format(mode)
  const desired = desiredOf(spec, bytes, owner, group, modeText)
  const steps: Step[] = []
  const path = spec.path
  const existed = status._tag !== 'Absent'

  switch (spec.ensure) {
    case 'absent': {
      if (status._tag === 'Absent') break
      if (status._tag === 'Directory') {
        if (!status.empty && !spec.force) {
          return failure(spec, `${path} is a non-empty directory`, 'set force: true to remove it with its contents')
        }
        steps.push({ _tag: 'file.remove', path, kind: 'directory', recursive: !status.empty, reason: status.empty ? 'directory exists' : 'directory exists (force: remove with its contents)', noop: 'Would have removed the file' })
      } else {
        const kind = status._tag === 'File' ? 'file' : status._tag === 'Symlink' ? 'symlink' : 'other'
        steps.push({ _tag: 'file.remove', path, kind, recursive: false, reason: kind === 'other' ? 'special file exists (its removal cannot be undone)' : `${kind} exists`, noop: 'Would have removed the file' })
      }
      break
    }
    case 'directory': {
      if (status._tag === 'Absent') {
        steps.push({ _tag: 'file.mkdir', path, owner: owner!, group: group!, mode: modeText, reason: 'directory does not exist', noop: 'Would have created directory' })
      } else if (status._tag === 'Directory') {
        const changes = attrChanges(status, owner!, group!, mode, accounts)
        if (changes.length > 0) {
          steps.push({ _tag: 'file.attrs', path, owner: owner!, group: group!, mode: modeText, reason: changes.join(', '), noop: 'Would have updated directory attributes' })
        }
      } else {
        // CCM's table: a directory replaces what is there. The removal is backed up (a special file's cannot be).
        steps.push(inTheWay(path, status, 'directory'))
        steps.push({ _tag: 'file.mkdir', path, owner: owner!, group: group!, mode: modeText, reason: `a ${kindName(status)} was in the way`, noop: 'Would have created directory' })
      }
      break
    }
    case 'present': {
      if (status._tag === 'Directory' && !status.empty && !spec.force) {
        return failure(spec, `${path} is a non-empty directory; a file replaces it only with force: true`, 'set force: true to replace it and its contents with the file')
      }
      if (status._tag === 'Symlink' && bytes === undefined) {
        return failure(spec, `${path} is a symlink to ${status.target}; plait does not follow symlinks`, 'give content or source to replace the link with a file, or remove it first')
      }
      if (status._tag === 'Absent') {
        steps.push(writeStep(path, status, owner!, group!, modeText, bytes ?? BytesM.empty, bytes === undefined ? 'file does not exist (created empty: no content or source)' : 'file does not exist'))
      } else if (status._tag === 'Directory' || status._tag === 'Other') {
        // CCM's table: the file replaces what is there (a non-empty directory only with force).
        steps.push(inTheWay(path, status, 'file'))
        steps.push(writeStep(path, status, owner!, group!, modeText, bytes ?? BytesM.empty, `a ${kindName(status)} was in the way${bytes === undefined ? ' (created empty: no content or source)' : ''}`))
      } else if (status._tag === 'Symlink') {
        steps.push(writeStep(path, status, owner!, group!, modeText, bytes!, `a symlink to ${status.target} is in the way; it is replaced by the file`))
      } else if (bytes !== undefined && bytes.sha256 !== status.sha256) {
        const changes = attrChanges(status, owner!, group!, mode, accounts)
        steps.push(writeStep(path, status, owner!, group!, modeText, bytes, [`content differs (sha256 ${status.sha256.slice(0, 12)} → ${bytes.sha256.slice(0, 12)})`, ...changes].join(', '), status.content))
      } else {
        const changes = attrChanges(status, owner!, group!, mode, accounts)
        if (changes.length > 0) {
          steps.push({ _tag: 'file.attrs', path, owner: owner!, group: group!, mode: modeText, reason: changes.join(', '), noop: 'Would have updated file attributes' })
        }
      }
      break
    }
  }
  return E.right({ desired, steps, action: actionOf(steps, existed) })
}

/** A failure of a resource's plan: a diagnostic that names it. */
const failure = (spec: FileSpec, message: string, hint?: string): E.Either<Diagnostic.Diagnostic, never> => E.left(Diagnostic.make('Observe', message, { at: spec.at, resource: spec.id, hint }))

/** The write of a file's content, with its diff against the old bytes when it has one to show. */
const writeStep = (path: string, status: FileStatus, owner: Principal, group: Principal, mode: string, data: Bytes, reason: string, old?: Uint8Array): Step => {
  const content = toContent(data)
  const diff = unifiedDiff(path, old, content, status._tag === 'Absent' || status._tag === 'Directory' || status._tag === 'Other')
  return { _tag: 'file.write', path, content, owner, group, mode, reason, noop: status._tag !== 'Absent' ? 'Would have updated the file' : 'Would have created the file', ...(diff !== undefined ? { diff } : {}) }
}

/** What a file resource's steps amount to: removals only delete; anything else creates what was absent or updates what was there. */
export const actionOf = (steps: ReadonlyArray<Step>, existed: boolean): Action =>
  steps.length === 0 ? 'none' : steps.every((s) => s._tag === 'file.remove') ? 'delete' : existed ? 'update' : 'create'

/** The desired state the plan records; `modeText` is the spec's mode formatted (when it has one). */
const desiredOf = (spec: FileSpec, bytes: Bytes | undefined, owner: Principal | undefined, group: Principal | undefined, modeText: string): FileDesired => {
  const d: { -readonly [K in keyof FileDesired]: FileDesired[K] } = { ensure: spec.ensure, force: spec.force }
  if (spec.ensure === 'present' && bytes !== undefined) {
    d.content = { sha256: bytes.sha256, size: bytes.size, origin: spec.content._tag === 'Source' ? 'source' : 'content' }
  }
  if (spec.content._tag === 'Source') d.source = spec.content.written
  if (owner !== undefined) d.owner = owner
  if (group !== undefined) d.group = group
  if (spec.ensure !== 'absent' && spec.mode !== undefined) d.mode = modeText
  return d
}

/** No attribute changes (most resources): one value, not one array per resource. */
const noChanges: ReadonlyArray<string> = []

const attrChanges = (s: { uid: number; gid: number; mode: number }, owner: Principal, group: Principal, mode: number, accounts: Accounts): ReadonlyArray<string> => {
  if (s.uid === owner.id && s.gid === group.id && s.mode === mode) return noChanges
  const out: string[] = []
  if (s.uid !== owner.id) out.push(`owner ${nameOf(accounts.userNames, s.uid)} → ${owner.name}`)
  if (s.gid !== group.id) out.push(`group ${nameOf(accounts.groupNames, s.gid)} → ${group.name}`)
  if (s.mode !== mode) out.push(`mode ${Mode.format(s.mode)} → ${Mode.format(mode)}`)
  return out
}

/**
 * The removal of what stands where a file or directory must go, before it is made: backed up, so
 * rollback puts it back. Its noop message says the replacement (`Would have replaced the directory
 * /x with a file`), not a removal of a file that may be a directory.
 */
const inTheWay = (path: string, status: Exclude<FileStatus, { _tag: 'Absent' }>, what: 'file' | 'directory'): Step => {
  const kind = status._tag === 'Directory' ? 'directory' : status._tag === 'File' ? 'file' : status._tag === 'Symlink' ? 'symlink' : 'other'
  const recursive = status._tag === 'Directory' && !status.empty
  const undo = kind === 'other' ? ' (its removal cannot be undone)' : ''
  const was = kind === 'other' ? 'special file' : kind
  return {
    _tag: 'file.remove',
    path,
    kind,
    recursive,
    reason: `a ${kindName(status)}${recursive ? ' with contents (force)' : ''} is in the way of the ${what}; it is removed first${undo}`,
    noop: `Would have replaced the ${was} ${path} with a ${what}`,
  }
}

const kindName = (s: FileStatus): string =>
  s._tag === 'File' ? 'regular file' : s._tag === 'Symlink' ? 'symlink' : s._tag === 'Other' ? 'special file' : s._tag.toLowerCase()

const unifiedDiff = (path: string, old: Uint8Array | undefined, next: Content, created: boolean): string | undefined => {
  if (next.encoding !== 'utf8' || next.size > diffLimit) return undefined
  const before = created ? '' : old === undefined ? undefined : asText(old)
  if (before === undefined || before === next.data) return undefined
  return UnifiedDiff.text(created ? '/dev/null' : path, path, before, next.data)
}
