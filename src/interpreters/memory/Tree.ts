// Tree: the memory interpreter's file tree, a mutable map from real path to node with an index of
// each directory's children, and path resolution that follows symlinks in the parent chain (as the
// kernel does, with absolute targets read as machine paths: the memory machine is its own root).
//
// Only the memory interpreter mutates a Tree; what leaves it (snapshots, bytes) is copied.
import { createHash } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Snapshot from '../Snapshot.js'

// model

/** A node as the tree holds it; file bytes are never shared with callers. */
export type Node =
  | { readonly kind: 'file'; readonly uid: number; readonly gid: number; readonly mode: number; readonly data: Uint8Array; sha256?: string }
  | { readonly kind: 'directory'; readonly uid: number; readonly gid: number; readonly mode: number }
  | { readonly kind: 'symlink'; readonly uid: number; readonly gid: number; readonly target: string }
  | { readonly kind: 'other'; readonly uid: number; readonly gid: number; readonly mode: number }

export interface Tree {
  readonly nodes: Map<string, Node>
  readonly children: Map<string, Set<string>>
}

/** Where a path lies: the real path of its parent joined with its name, and the node there if any. */
export interface Located {
  readonly real: string
  readonly node: Node | undefined
  /** The errno of touching the path when there is no node: ENOENT, or ENOTDIR when the parent is not a directory. */
  readonly absent: 'ENOENT' | 'ENOTDIR'
}

/** The most symlinks one resolution follows (Linux's MAXSYMLINKS). */
const maxHops = 40

// constructors

/** A tree holding the nodes of a snapshot. */
export const fromSnapshot = (snapshot: Snapshot.Snapshot): Tree => {
  const tree: Tree = { nodes: new Map(), children: new Map() }
  for (const [path, n] of Object.entries(snapshot.files)) {
    put(tree, path, n.kind === 'file' ? { kind: 'file', uid: n.uid, gid: n.gid, mode: n.mode, data: Snapshot.bytes(n) } : n)
  }
  if (!tree.nodes.has('/')) put(tree, '/', { kind: 'directory', uid: 0, gid: 0, mode: 0o755 })
  return tree
}

/** The snapshot of a tree, with the given accounts. */
export const toSnapshot = (tree: Tree, users: Readonly<Record<string, number>>, groups: Readonly<Record<string, number>>): Snapshot.Snapshot => {
  const files: Record<string, Snapshot.Node> = {}
  for (const [path, n] of tree.nodes) {
    files[path] =
      n.kind === 'file'
        ? { kind: 'file', uid: n.uid, gid: n.gid, mode: n.mode, base64: Buffer.from(n.data).toString('base64') }
        : { ...n }
  }
  const made = Snapshot.make(files, { users, groups })
  if (E.isLeft(made)) throw new Error(`memory tree is inconsistent: ${made.left}`)
  return made.right
}

// combinators

/** The sha256 of a file node, computed once. */
export const sha256 = (node: Node & { kind: 'file' }): string => (node.sha256 ??= createHash('sha256').update(node.data).digest('hex'))

/** Sets the node at a real path whose parent exists. */
export const put = (tree: Tree, path: string, node: Node): void => {
  const old = tree.nodes.get(path)
  if (old?.kind === 'directory' && node.kind !== 'directory') removeTree(tree, path)
  tree.nodes.set(path, node)
  if (node.kind === 'directory' && !tree.children.has(path)) tree.children.set(path, new Set())
  if (path !== '/') tree.children.get(PosixPath.dirname(path))?.add(PosixPath.basename(path))
}

/** Deletes the node at a real path and everything below it. */
export const removeTree = (tree: Tree, path: string): void => {
  for (const p of below(tree, path)) {
    tree.nodes.delete(p)
    tree.children.delete(p)
  }
  tree.children.get(PosixPath.dirname(path))?.delete(PosixPath.basename(path))
}

/** The real paths at or below a path, parents first. */
export const below = (tree: Tree, path: string): ReadonlyArray<string> => {
  if (!tree.nodes.has(path)) return []
  const out: string[] = [path]
  for (let i = 0; i < out.length; i++) {
    const p = out[i]!
    for (const name of tree.children.get(p) ?? []) out.push(PosixPath.join(p, name))
  }
  return out
}

/** The sorted names in a directory. */
export const names = (tree: Tree, dir: string): ReadonlyArray<string> => [...(tree.children.get(dir) ?? [])].sort()

/**
 * Resolves a path as realpath(3) does, following symlinks anywhere in it (the last component too):
 * its real path, which may name a non-directory, or ENOENT, ENOTDIR (a non-directory with more
 * components after it) or ELOOP.
 */
export const realpath = (tree: Tree, path: string): E.Either<Errno.Failure, string> => {
  const queue = path.split('/').filter((s) => s.length > 0)
  let current = '/'
  let hops = 0
  while (queue.length > 0) {
    const segment = queue.shift()!
    if (segment === '.') continue
    if (segment === '..') {
      current = PosixPath.dirname(current)
      continue
    }
    const node = tree.nodes.get(current)
    if (node?.kind !== 'directory') return E.left(Errno.failure('ENOTDIR'))
    const next = PosixPath.join(current, segment)
    const child = tree.nodes.get(next)
    if (child === undefined) return E.left(Errno.failure('ENOENT'))
    if (child.kind === 'symlink') {
      if (++hops > maxHops) return E.left(Errno.failure('ELOOP', 'too many levels of symbolic links'))
      queue.unshift(...child.target.split('/').filter((s) => s.length > 0))
      if (child.target.startsWith('/')) current = '/'
    } else current = next
  }
  return E.right(current)
}

/**
 * Locates a clean machine path as the posix interpreter does: its parent is resolved (realpath),
 * its last component is not followed. When nothing is there, `absent` is the errno that touching
 * it gives: ENOTDIR when the parent resolved to a non-directory, else ENOENT.
 */
export const locate = (tree: Tree, path: string): E.Either<Errno.Failure, Located> => {
  if (path === '/') return E.right({ real: '/', node: tree.nodes.get('/'), absent: 'ENOENT' })
  const parent = realpath(tree, PosixPath.dirname(path))
  if (E.isLeft(parent)) return parent
  const real = PosixPath.join(parent.right, PosixPath.basename(path))
  return tree.nodes.get(parent.right)?.kind === 'directory'
    ? E.right({ real, node: tree.nodes.get(real), absent: 'ENOENT' })
    : E.right({ real, node: undefined, absent: 'ENOTDIR' })
}

/** A deep copy of a tree (file bytes are immutable and shared). */
export const clone = (tree: Tree): Tree => ({
  nodes: new Map([...tree.nodes].map(([p, n]) => [p, { ...n }])),
  children: new Map([...tree.children].map(([p, s]) => [p, new Set(s)])),
})
