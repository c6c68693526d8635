// tree: the file system side of holo-test(7)'s dumps (protocol/Tree.ts): makes a dump's entries
// below a directory as dump-to-tree.sh does (parents made as needed, modes as written), and reads
// a directory back into a tree for tree-to-dump.sh's form.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as Tree from './protocol/Tree.js'

/** Makes the entries below `dir`; an error message for an entry that leaves it or cannot be made. */
export const materialize = async (dir: string, entries: ReadonlyArray<Tree.Entry>): Promise<string | undefined> => {
  await fs.mkdir(dir, { recursive: true })
  for (const e of entries) {
    const path = nodePath.resolve(dir, e.path)
    if (path !== dir && !path.startsWith(dir + nodePath.sep)) return `the entry ${e.path} is outside the tree`
    try {
      if (e._tag === 'Directory') {
        await fs.mkdir(path, { recursive: true })
        await fs.chmod(path, parseInt(e.mode, 8))
        continue
      }
      await fs.mkdir(nodePath.dirname(path), { recursive: true })
      if (e._tag === 'Symlink') {
        await fs.rm(path, { force: true })
        await fs.symlink(e.target, path)
      } else {
        await fs.writeFile(path, e.content)
        await fs.chmod(path, parseInt(e.mode, 8))
      }
    } catch (err) {
      return `cannot make ${e.path}: ${(err as Error).message}`
    }
  }
  return undefined
}

/** Reads a directory into a tree (symlinks not followed; content read as UTF-8). */
export const read = async (path: string): Promise<Tree.Node> => {
  const st = await fs.lstat(path)
  if (st.isSymbolicLink()) return { _tag: 'Symlink', target: await fs.readlink(path) }
  if (st.isFile()) return { _tag: 'File', mode: st.mode, content: await fs.readFile(path, 'utf8') }
  if (!st.isDirectory()) return { _tag: 'Other' }
  const children = new Map<string, Tree.Node>()
  for (const name of await fs.readdir(path)) children.set(name, await read(nodePath.join(path, name)))
  return { _tag: 'Directory', mode: st.mode, children }
}
