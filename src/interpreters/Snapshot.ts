// Snapshot: a whole machine (its files and its accounts) as plain, sorted, frozen, comparable data.
//
// Two snapshots of the same machine are deep-equal (`expect(a).toEqual(b)`), whichever interpreter
// took them; the memory interpreter starts from one and materialize writes one to a real directory.
// Invariants: `files` is keyed by clean machine path, sorted, holds "/" (a directory) and every
// ancestor of every key (a directory). File bytes are base64 so the whole value is plain JSON.
import * as E from 'fp-ts/lib/Either.js'
import * as PosixPath from '../core/PosixPath.js'

// model

/** One node of the tree. Symlinks have no mode (lstat reports 0777 for them). */
export type Node =
  | { readonly kind: 'file'; readonly uid: number; readonly gid: number; readonly mode: number; readonly base64: string }
  | { readonly kind: 'directory'; readonly uid: number; readonly gid: number; readonly mode: number }
  | { readonly kind: 'symlink'; readonly uid: number; readonly gid: number; readonly target: string }
  | { readonly kind: 'other'; readonly uid: number; readonly gid: number; readonly mode: number }

export interface Snapshot {
  /** User names to uids. */
  readonly users: Readonly<Record<string, number>>
  /** Group names to gids. */
  readonly groups: Readonly<Record<string, number>>
  /** Every node by machine path, sorted. */
  readonly files: Readonly<Record<string, Node>>
}

/** Owner and mode of a node (symlinks ignore the mode). */
export interface Owner {
  readonly uid: number
  readonly gid: number
  readonly mode: number
}

// constructors

/** The accounts a snapshot has when none are given. */
export const defaultUsers: Readonly<Record<string, number>> = Object.freeze({ root: 0, daemon: 1, app: 1000, nobody: 65534 })
export const defaultGroups: Readonly<Record<string, number>> = Object.freeze({ root: 0, daemon: 1, app: 1000, nogroup: 65534 })

/** Orders paths as their UTF-16 code units do (the order of Array.prototype.sort). */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const sortedRecord = (r: Readonly<Record<string, number>>): Readonly<Record<string, number>> =>
  Object.freeze(Object.fromEntries(Object.entries(r).sort(([a], [b]) => compare(a, b))))

const rootOwned: Owner = { uid: 0, gid: 0, mode: 0o755 }

/** A regular file with the given text (UTF-8) or bytes; root:root 0644 unless told. */
export const file = (content: string | Uint8Array, owner: Partial<Owner> = {}): Node =>
  Object.freeze({
    kind: 'file',
    uid: owner.uid ?? 0,
    gid: owner.gid ?? 0,
    mode: owner.mode ?? 0o644,
    base64: Buffer.from(content).toString('base64'),
  })

/** A directory; root:root 0755 unless told. */
export const directory = (owner: Partial<Owner> = {}): Node =>
  Object.freeze({ kind: 'directory', uid: owner.uid ?? 0, gid: owner.gid ?? 0, mode: owner.mode ?? 0o755 })

/** A symbolic link to `target`; owned by root unless told. */
export const symlink = (target: string, owner: Partial<Pick<Owner, 'uid' | 'gid'>> = {}): Node =>
  Object.freeze({ kind: 'symlink', uid: owner.uid ?? 0, gid: owner.gid ?? 0, target })

/**
 * Builds a snapshot from nodes by path: adds "/" and the missing ancestors (root:root 0755), sorts
 * and freezes. Fails on a path that is not clean or an ancestor that is not a directory.
 */
export const make = (
  files: Readonly<Record<string, Node>>,
  accounts: { readonly users?: Readonly<Record<string, number>>; readonly groups?: Readonly<Record<string, number>> } = {},
): E.Either<string, Snapshot> => {
  const all = new Map<string, Node>([['/', directory()]])
  for (const [path, node] of Object.entries(files)) {
    const why = PosixPath.problem(path)
    if (why !== undefined) return E.left(`${path}: ${why}`)
    all.set(path, node)
  }
  for (const path of [...all.keys()]) {
    for (const a of PosixPath.lineage(PosixPath.dirname(path))) {
      const n = all.get(a)
      if (n === undefined) all.set(a, directory(rootOwned))
      else if (n.kind !== 'directory') return E.left(`${path}: its ancestor ${a} is a ${n.kind}, not a directory`)
    }
  }
  const sorted = [...all.keys()].sort(compare)
  return E.right(
    Object.freeze({
      users: sortedRecord(accounts.users ?? defaultUsers),
      groups: sortedRecord(accounts.groups ?? defaultGroups),
      files: Object.freeze(Object.fromEntries(sorted.map((p) => [p, Object.freeze({ ...all.get(p)! })]))),
    }),
  )
}

/** The snapshot of a machine that has only "/" and the default accounts. */
export const empty: Snapshot = (make({}) as E.Right<Snapshot>).right

// combinators

/** The bytes of a file node. */
export const bytes = (node: Node & { readonly kind: 'file' }): Uint8Array => new Uint8Array(Buffer.from(node.base64, 'base64'))

/** The content of the file at `path` as UTF-8 text, or undefined when there is no file there. */
export const text = (snapshot: Snapshot, path: string): string | undefined => {
  const node = snapshot.files[path]
  return node?.kind === 'file' ? Buffer.from(node.base64, 'base64').toString('utf8') : undefined
}
