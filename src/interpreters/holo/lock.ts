// lock: Holo's run lock, $HOLO_ROOT_DIR/run/holo.pid, made exclusively with this process's ID in
// it, for apply only (reading runs take none, as in Holo 1.1.1), and removed afterwards.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Errno from '../Errno.js'
import * as GoErrors from './goErrors.js'

/** Takes the lock below `root` (relative to `cwd`); its release, or the fault in Holo's words (its lines joined by newlines). */
export const take = async (root: string, cwd: string): Promise<E.Either<Fault.Fault, () => Promise<void>>> => {
  const shown = PosixPath.normalize(`${root}/run/holo.pid`)
  const path = nodePath.resolve(cwd, shown)
  let handle: fs.FileHandle
  try {
    handle = await fs.open(path, 'wx', 0o644)
  } catch (e) {
    const code = Errno.codeOf(e)
    const more = code === 'EEXIST' ? '\nThis usually means that another instance of Holo is currently running.\nIf not, you can try to delete the lock file manually.' : ''
    return E.left(Fault.make(Errno.tag(code), 'holo', 'lock', shown, `Cannot create lock file ${shown}: ${GoErrors.describe('open', shown, e)}${more}`, e))
  }
  await handle.writeFile(`${process.pid}\n`)
  await handle.sync()
  return E.right(async () => {
    await handle.close().catch(() => undefined)
    await fs.rm(path, { force: true })
  })
}
