// Status: the observed state of a file resource, parsed from a probe, with its summary and digest.
import * as Digest from '../../core/Digest.js'
import * as Mode from '../../core/Mode.js'
import type * as Plan from '../../core/Plan.js'
import type { Accounts, Probe } from '../../core/Probe.js'

// model

export type FileStatus =
  | { readonly _tag: 'Absent' }
  | {
      readonly _tag: 'File'
      readonly uid: number
      readonly gid: number
      readonly mode: number
      readonly size: number
      readonly sha256: string
      /** The old bytes, when the probe returned them for a diff; never part of the digest. */
      readonly content?: Uint8Array
    }
  | { readonly _tag: 'Directory'; readonly uid: number; readonly gid: number; readonly mode: number; readonly empty: boolean }
  | { readonly _tag: 'Symlink'; readonly uid: number; readonly gid: number; readonly target: string }
  | { readonly _tag: 'Other'; readonly uid: number; readonly gid: number; readonly mode: number }

// constructors

/** Parses a probe result into a file status. */
export const fromProbe = (p: Probe): FileStatus => {
  switch (p._tag) {
    case 'Absent':
      return { _tag: 'Absent' }
    case 'File': {
      const e = p.probe.entry
      const base = { _tag: 'File' as const, uid: e.uid, gid: e.gid, mode: e.mode, size: e.size, sha256: p.probe.sha256 }
      return p.probe.content === undefined ? base : { ...base, content: p.probe.content }
    }
    case 'Directory':
      return { _tag: 'Directory', uid: p.entry.uid, gid: p.entry.gid, mode: p.entry.mode, empty: p.empty }
    case 'Symlink':
      return { _tag: 'Symlink', uid: p.entry.uid, gid: p.entry.gid, target: p.target }
    case 'Other':
      return { _tag: 'Other', uid: p.entry.uid, gid: p.entry.gid, mode: p.entry.mode }
  }
}

// interop

/**
 * The digest that staleness checks compare: every observed field except the diff bytes, as
 * `Digest.ofValue` of them. A file's canonical JSON is written out directly (plan hashes one per
 * resource); any other status, or a file with a field of an unexpected type, goes through ofValue.
 */
export const digest = (s: FileStatus): string => {
  if (s._tag === 'File') {
    const { uid, gid, mode, size, sha256 } = s
    if (isInt(uid) && isInt(gid) && isInt(mode) && isInt(size) && typeof sha256 === 'string' && Object.keys(s).length === ('content' in s ? 7 : 6)) {
      return flat('sha256:', Digest.sha256(`{"_tag":"File","gid":${gid},"mode":${mode},"sha256":${JSON.stringify(sha256)},"size":${size},"uid":${uid}}`))
    }
    const { content: _content, ...rest } = s
    return Digest.ofValue(rest)
  }
  return Digest.ofValue(s)
}

const isInt = (n: unknown): n is number => Number.isSafeInteger(n)

/**
 * Texts and numbers joined into one flat string. A concatenation (`+`, a template) makes a tree
 * of pieces instead; a file's summary and digest are kept in its resource's plan, ten thousand of
 * them in a large plan, where the trees would hold about twice the memory (and the garbage
 * collector copies what a plan holds while planning goes on).
 */
const flat = (...parts: ReadonlyArray<string | number>): string => parts.join('')

/** A user's or group's display name: its name in the database, else the number. */
export const nameOf = (names: ReadonlyMap<number, string>, id: number): string => names.get(id) ?? String(id)

/** A one-line summary for people: `file 0644 root:root 12 bytes sha256:0123abcd`. */
export const summary = (s: FileStatus, accounts: Accounts): string => {
  switch (s._tag) {
    case 'Absent':
      return 'absent'
    case 'File':
      return flat('file ', Mode.format(s.mode), ' ', who(accounts, s.uid, s.gid), ' ', s.size, ' bytes sha256:', s.sha256.slice(0, 12))
    case 'Directory':
      return `directory ${Mode.format(s.mode)} ${who(accounts, s.uid, s.gid)}${s.empty ? ' (empty)' : ''}`
    case 'Symlink':
      return `symlink to ${s.target}`
    case 'Other':
      return `special file ${Mode.format(s.mode)} ${who(accounts, s.uid, s.gid)}`
  }
}

/** Where a lazily observed record keeps what its summary and digest are worked out from, and them once worked out. */
const source = Symbol('observed')

interface Source {
  readonly status: FileStatus
  readonly accounts: Accounts
  summary?: string
  digest?: string
}

function summaryOf(this: { readonly [source]: Source }): string {
  const s = this[source]
  return (s.summary ??= summary(s.status, s.accounts))
}

function digestOf(this: { readonly [source]: Source }): string {
  const s = this[source]
  return (s.digest ??= digest(s.status))
}

/** The same two accessors for every record, so that all records share one shape (and V8 one map). */
const accessors: PropertyDescriptorMap = { summary: { get: summaryOf, enumerable: true }, digest: { get: digestOf, enumerable: true } }

/**
 * What a resource's plan records of its status (`observed`): its summary and digest, each worked
 * out when first read and then kept. Showing a plan to a person reads neither of an unchanged
 * resource, and the digest (a sha256 each) is most of what planning an unchanged file costs;
 * saving the plan, or applying it, reads both. Every read gives what `summary` and `digest` give,
 * and a copy (`{ ...r }`, JSON) has them as plain strings.
 */
const withoutContent = ({ content: _content, ...rest }: Extract<FileStatus, { _tag: 'File' }>): FileStatus => rest

export const observed = (status: FileStatus, accounts: Accounts): Plan.Observed => {
  // The source is not enumerable: no copy, comparison or serialization of the record sees it. It
  // lives as long as the plan, so a changed file's old bytes (kept for its diff, up to the diff
  // limit) are not kept in it: neither the summary nor the digest reads them.
  const kept = status._tag === 'File' && status.content !== undefined ? withoutContent(status) : status
  const record = Object.defineProperty({}, source, { value: { status: kept, accounts } })
  return Object.defineProperties(record, accessors) as unknown as Plan.Observed
}

const who = (accounts: Accounts, uid: number, gid: number): string => `${nameOf(accounts.userNames, uid)}:${nameOf(accounts.groupNames, gid)}`
