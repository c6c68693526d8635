// primitives: what each Machine primitive does to a memory Tree, with the outcomes and errno codes
// that posix gives for the same situation (the contract suite holds the two to it).
//
// Each check comes before any change, so a primitive that fails has no effect.
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as Errno from '../Errno.js'
import type { Attrs, Entry, Probe, ProbeOptions } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Tree from './Tree.js'

type Result<A> = E.Either<Errno.Failure, A>

const defaultContentLimit = 1024 * 1024
/** The size lstat reports for a directory (ext4's block); posix reports the file system's own. */
const directorySize = 4096
const stateMode = 0o600
const fail = <A = never>(code: string, description?: string): Result<A> => E.left(Errno.failure(code, description))
const ok = E.right(undefined) as Result<void>

const entryOf = (node: Tree.Node): Entry =>
  Object.freeze({
    kind: node.kind,
    uid: node.uid,
    gid: node.gid,
    mode: node.kind === 'symlink' ? 0o777 : node.mode,
    size: node.kind === 'file' ? node.data.length : node.kind === 'symlink' ? Buffer.byteLength(node.target) : node.kind === 'directory' ? directorySize : 0,
  })

/** Locates a path to create: a missing parent is NotFound, a non-directory one NotADirectory. */
const locateNew = (tree: Tree.Tree, path: string): Result<Tree.Located> => {
  const parent = PosixPath.dirname(path)
  const at = Tree.locate(tree, path)
  if (E.isLeft(at)) {
    const code = at.left.code
    return E.left(code === 'ENOENT' ? Errno.parentMissing(parent) : code === 'ENOTDIR' ? Errno.parentNotDirectory(parent) : at.left)
  }
  return at.right.absent === 'ENOTDIR' ? E.left(Errno.parentNotDirectory(parent)) : at
}

/** Locates a path that must exist: its node, or the errno of touching it. */
const locateNode = (tree: Tree.Tree, path: string): Result<{ readonly real: string; readonly node: Tree.Node }> =>
  pipe(
    Tree.locate(tree, path),
    E.chain(({ real, node, absent }) => (node === undefined ? fail(absent) : E.right({ real, node }))),
  )

const withAttrs = (node: Tree.Node, attrs: Attrs): Tree.Node =>
  node.kind === 'symlink' ? { ...node, uid: attrs.uid, gid: attrs.gid } : { ...node, uid: attrs.uid, gid: attrs.gid, mode: attrs.mode & 0o777 }

// observation

/** lstat + read + sha256 of one path. */
export const probe = (tree: Tree.Tree, path: string, options: ProbeOptions = {}): Result<Probe> => {
  const at = locateNode(tree, path)
  if (E.isLeft(at)) return at.left.code === 'ENOENT' || at.left.code === 'ENOTDIR' ? E.right({ _tag: 'Absent' }) : at
  const node = at.right.node
  const entry = entryOf(node)
  switch (node.kind) {
    case 'file': {
      const sha256 = Tree.sha256(node)
      const wanted = options.contentUnless !== undefined && sha256 !== options.contentUnless && node.data.length <= (options.contentLimit ?? defaultContentLimit)
      return E.right(Object.freeze({ _tag: 'File', probe: Object.freeze(wanted ? { entry, sha256, content: node.data.slice() } : { entry, sha256 }) }))
    }
    case 'directory':
      return E.right(Object.freeze({ _tag: 'Directory', entry, empty: (tree.children.get(at.right.real)?.size ?? 0) === 0 }))
    case 'symlink':
      return E.right(Object.freeze({ _tag: 'Symlink', entry, target: node.target }))
    case 'other':
      return E.right(Object.freeze({ _tag: 'Other', entry }))
  }
}

/** The bytes of a regular file (a symlink is not followed). */
export const readFile = (tree: Tree.Tree, path: string): Result<Uint8Array> =>
  pipe(
    locateNode(tree, path),
    E.chain(({ node }) =>
      node.kind === 'file'
        ? E.right(node.data.slice())
        : node.kind === 'directory'
          ? fail('EISDIR')
          : node.kind === 'symlink'
            ? fail('ELOOP')
            : E.right(new Uint8Array(0)),
    ),
  )

/** The sorted names of a directory (a symlink is not a directory). */
export const readdir = (tree: Tree.Tree, path: string): Result<ReadonlyArray<string>> =>
  pipe(
    locateNode(tree, path),
    E.chain(({ real, node }) => (node.kind !== 'directory' ? fail('ENOTDIR') : E.right(Tree.names(tree, real)))),
  )

// mutation

/** The first half of an atomic write: checks, then the temp file with its bytes and attrs. Returns its real path. */
export const writeTemp = (tree: Tree.Tree, path: string, data: Uint8Array, attrs: Attrs, tempName: string): Result<{ temp: string; target: string }> => {
  const at = locateNew(tree, path)
  if (E.isLeft(at)) return at
  if (path === '/') return fail('EISDIR')
  const dir = PosixPath.dirname(at.right.real)
  const temp = PosixPath.join(dir, tempName)
  if (tree.nodes.has(temp)) return fail('EEXIST')
  Tree.put(tree, temp, { kind: 'file', uid: attrs.uid, gid: attrs.gid, mode: attrs.mode & 0o777, data: data.slice() })
  return E.right({ temp, target: at.right.real })
}

/** The second half of an atomic write: rename the temp file over the target (removing the temp on failure). */
export const commitTemp = (tree: Tree.Tree, temp: string, target: string): Result<void> => {
  if (tree.nodes.get(target)?.kind === 'directory') {
    Tree.removeTree(tree, temp)
    return fail('EISDIR')
  }
  if (temp !== target) {
    Tree.put(tree, target, tree.nodes.get(temp)!)
    Tree.removeTree(tree, temp)
  }
  return ok
}

/** The second half of an atomic write on its own: the temp file `tempName` beside `path` renamed over it. */
export const renameTemp = (tree: Tree.Tree, path: string, tempName: string): Result<void> => {
  const at = locateNew(tree, path)
  if (E.isLeft(at)) return at
  if (path === '/') return fail('EISDIR')
  const temp = PosixPath.join(PosixPath.dirname(at.right.real), tempName)
  if (tree.nodes.get(temp)?.kind !== 'file') return fail('ENOENT')
  return commitTemp(tree, temp, at.right.real)
}

/** An fsync of a directory: nothing to change in memory, but the directory must be there. */
export const syncDirectory = (tree: Tree.Tree, path: string): Result<void> =>
  pipe(
    locateNode(tree, path),
    E.chain(({ node }) => (node.kind === 'directory' ? ok : fail('ENOTDIR'))),
  )

/** mkdir -p with attrs on every created directory and on the target; returns the created paths. */
export const mkdirp = (tree: Tree.Tree, path: string, attrs: Attrs): Result<ReadonlyArray<string>> => {
  const notADirectory = fail<never>('ENOTDIR', `an ancestor of ${path} is not a directory`)
  const created: Array<{ readonly path: string; readonly real: string }> = []
  for (const a of PosixPath.lineage(path)) {
    const last = created[created.length - 1]
    if (last !== undefined) {
      // below a directory to create, everything is to create
      created.push({ path: a, real: PosixPath.join(last.real, PosixPath.basename(a)) })
      continue
    }
    const at = Tree.locate(tree, a)
    if (E.isLeft(at)) return at.left.code === 'ENOTDIR' ? notADirectory : at
    const { real, node, absent } = at.right
    if (node === undefined) {
      if (absent === 'ENOTDIR') return notADirectory
      created.push({ path: a, real })
    } else if (a === path) {
      if (node.kind !== 'directory') return fail('EEXIST', `${path} exists and is not a directory`)
      Tree.put(tree, real, withAttrs(node, attrs))
    }
    // an existing ancestor that is not a directory fails at the next step, when it is resolved
  }
  if (path === '/') Tree.put(tree, '/', withAttrs(tree.nodes.get('/')!, attrs))
  const dir: Tree.Node = { kind: 'directory', uid: attrs.uid, gid: attrs.gid, mode: attrs.mode & 0o777 }
  for (const c of created) Tree.put(tree, c.real, dir)
  return E.right(Object.freeze(created.map((c) => c.path)))
}

/** chown (lchown for symlinks) and, unless a symlink, chmod. */
export const setAttrs = (tree: Tree.Tree, path: string, attrs: Attrs): Result<void> =>
  pipe(
    locateNode(tree, path),
    E.chain(({ real, node }) => (Tree.put(tree, real, withAttrs(node, attrs)), ok)),
  )

const refuseRoot = (path: string): Result<void> => (path === '/' ? fail('EBUSY', 'refusing to change the machine root itself') : ok)

/** unlink, rmdir, or rm -r. */
export const remove = (tree: Tree.Tree, path: string, recursive: boolean): Result<void> =>
  pipe(
    refuseRoot(path),
    E.chain(() => locateNode(tree, path)),
    E.chain(({ real, node }) => {
      if (node.kind === 'directory' && !recursive && (tree.children.get(real)?.size ?? 0) > 0) return fail('ENOTEMPTY')
      Tree.removeTree(tree, real)
      return ok
    }),
  )

/** rename(2), with Linux's order of checks. */
export const rename = (tree: Tree.Tree, from: string, to: string): Result<void> => {
  if (from === '/' || to === '/') return refuseRoot('/')
  const src = Tree.locate(tree, from)
  if (E.isLeft(src)) return src
  const dst = Tree.locate(tree, to)
  if (E.isLeft(dst)) return dst
  const { real: a, node, absent } = src.right
  const { real: b, node: there } = dst.right
  if (absent === 'ENOTDIR' || dst.right.absent === 'ENOTDIR') return fail('ENOTDIR')
  if (node === undefined) return fail('ENOENT')
  if (a === b) return ok
  // as lock_rename: the source may not be an ancestor of the target, nor the target of the source
  if (PosixPath.isWithin(a, b)) return fail('EINVAL', `cannot move ${from} into itself (${to})`)
  if (PosixPath.isWithin(b, a)) return fail('ENOTEMPTY')
  if (there !== undefined) {
    if (node.kind === 'directory' && there.kind !== 'directory') return fail('ENOTDIR')
    if (node.kind !== 'directory' && there.kind === 'directory') return fail('EISDIR')
    if (there.kind === 'directory' && (tree.children.get(b)?.size ?? 0) > 0) return fail('ENOTEMPTY')
  }
  const moving = Tree.below(tree, a).map((p) => [p, tree.nodes.get(p)!] as const)
  Tree.removeTree(tree, a)
  if (there !== undefined) Tree.removeTree(tree, b)
  for (const [p, n] of moving) Tree.put(tree, PosixPath.rebase(p, a, b), n)
  return ok
}

/** cp -a to a path that must not exist. */
export const copy = (tree: Tree.Tree, from: string, to: string): Result<void> => {
  const src = Tree.locate(tree, from)
  if (E.isLeft(src)) return src
  const dst = Tree.locate(tree, to)
  if (E.isLeft(dst)) return dst
  const { real: a, node, absent } = src.right
  const { real: b, node: there } = dst.right
  if (node === undefined) return fail(absent)
  if (dst.right.absent === 'ENOTDIR') return fail('ENOTDIR')
  if (there !== undefined) return fail('EEXIST', `${to} already exists`)
  if (PosixPath.isWithin(a, b)) return fail('EINVAL', `cannot copy ${from} into itself (${to})`)
  const nodes = Tree.below(tree, a).map((p) => [p, tree.nodes.get(p)!] as const)
  if (nodes.some(([, n]) => n.kind === 'other')) return fail('EINVAL', 'cannot copy a special file (device, socket or fifo)')
  for (const [p, n] of nodes) Tree.put(tree, PosixPath.rebase(p, a, b), { ...n })
  return ok
}

/** O_CREAT|O_EXCL write of a state file (root-owned, 0600). */
export const createExclusive = (tree: Tree.Tree, path: string, data: Uint8Array): Result<void> =>
  pipe(
    locateNew(tree, path),
    E.chain(({ real, node }) => {
      if (node !== undefined) return fail('EEXIST')
      Tree.put(tree, real, { kind: 'file', uid: 0, gid: 0, mode: stateMode, data: data.slice() })
      return ok
    }),
  )

/** O_APPEND write of a state file, created root-owned 0600 when missing (a symlink is not followed). */
export const append = (tree: Tree.Tree, path: string, data: Uint8Array): Result<void> =>
  pipe(
    locateNew(tree, path),
    E.chain(({ real, node }) => {
      if (node === undefined) {
        Tree.put(tree, real, { kind: 'file', uid: 0, gid: 0, mode: stateMode, data: data.slice() })
        return ok
      }
      if (node.kind === 'directory') return fail('EISDIR')
      if (node.kind === 'symlink') return fail('ELOOP')
      if (node.kind === 'other') return ok
      const joined = new Uint8Array(node.data.length + data.length)
      joined.set(node.data, 0)
      joined.set(data, node.data.length)
      Tree.put(tree, real, { ...node, data: joined, sha256: undefined })
      return ok
    }),
  )
