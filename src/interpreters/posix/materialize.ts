// materialize: writes a snapshot into a real directory (and captures one back), so that the posix
// and memory interpreters can start from the same machine and be compared afterwards.
import * as fs from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Fault } from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Snapshot from '../Snapshot.js'
import { view } from './probe.js'

const hostOf = (hostRoot: string, path: string): string => (path === '/' ? hostRoot : hostRoot.replace(/\/$/, '') + path)

/**
 * Writes every node of a snapshot below `hostRoot` (an existing, empty directory, which takes the
 * attributes of "/"), with chown and chmod; directories get their attributes last, innermost first,
 * so that a read-only directory can still be filled. Special files ("other") are not supported.
 */
export const materialize =
  (snapshot: Snapshot.Snapshot, hostRoot: string): TE.TaskEither<Fault, void> =>
  async () => {
    let current = '/'
    try {
      const entries = Object.entries(snapshot.files)
      for (const [path, n] of entries) {
        current = path
        const host = hostOf(hostRoot, path)
        switch (n.kind) {
          case 'directory':
            if (path !== '/') await fs.mkdir(host, 0o700)
            break
          case 'file':
            await fs.writeFile(host, Snapshot.bytes(n), { flag: 'wx', mode: 0o600 })
            await fs.chmod(host, n.mode)
            await fs.chown(host, n.uid, n.gid)
            break
          case 'symlink':
            await fs.symlink(n.target, host)
            await fs.lchown(host, n.uid, n.gid)
            break
          case 'other':
            throw Errno.failure('EINVAL', 'cannot materialize a special file')
        }
      }
      for (const [path, n] of [...entries].reverse()) {
        if (n.kind !== 'directory') continue
        current = path
        await fs.chmod(hostOf(hostRoot, path), n.mode)
        await fs.chown(hostOf(hostRoot, path), n.uid, n.gid)
      }
      return E.right(undefined)
    } catch (e) {
      return E.left(Errno.toFault('posix', 'materialize', current, e))
    }
  }

/** Reads the tree below `hostRoot` back into a snapshot (with the given accounts, default the snapshot defaults). */
export const capture =
  (hostRoot: string, accounts: Partial<Pick<Snapshot.Snapshot, 'users' | 'groups'>> = {}): TE.TaskEither<Fault, Snapshot.Snapshot> =>
  async () => {
    const files: Record<string, Snapshot.Node> = {}
    let current = '/'
    try {
      const walk = async (path: string): Promise<void> => {
        current = path
        const host = hostOf(hostRoot, path)
        const st = await fs.lstat(host)
        const owner = { uid: st.uid, gid: st.gid, mode: st.mode & 0o777 }
        if (st.isDirectory()) {
          files[path] = Snapshot.directory(owner)
          for (const name of (await fs.readdir(host)).sort()) await walk(PosixPath.join(path, name))
        } else if (st.isFile()) files[path] = Snapshot.file(view(await fs.readFile(host)), owner)
        else if (st.isSymbolicLink()) files[path] = Snapshot.symlink(await fs.readlink(host), owner)
        else files[path] = Object.freeze({ kind: 'other', ...owner })
      }
      await walk('/')
    } catch (e) {
      return E.left(Errno.toFault('posix', 'capture', current, e))
    }
    return E.mapLeft((m: string) => Errno.toFault('posix', 'capture', '/', Errno.failure('EINVAL', m)))(
      Snapshot.make(files, { users: accounts.users ?? Snapshot.defaultUsers, groups: accounts.groups ?? Snapshot.defaultGroups }),
    )
  }
