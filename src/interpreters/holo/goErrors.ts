// goErrors: a failed file system call in the words Go (and so Holo) uses: `open PATH: no such
// file or directory`. Holo's messages embed these; plait keeps them where it shows Holo's message.
import * as Errno from '../Errno.js'

const words: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'file exists',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
}

/** `OP PATH: WORDS` for a thrown Node error. */
export const describe = (op: string, path: string, e: unknown): string => {
  const code = Errno.codeOf(e)
  return `${op} ${path}: ${code !== undefined ? (words[code] ?? code) : (e as Error).message}`
}
