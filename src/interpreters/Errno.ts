// Errno: how a failed system call becomes a Fault, shared by the posix and memory interpreters so
// that both describe the same failure with the same tag and words.
import * as Fault from '../core/Fault.js'

// model

/** A failed system call as an interpreter reports it: the errno code and, optionally, better words. */
export interface Failure {
  readonly code: string
  readonly description?: string
}

// constructors

/** A failure with an errno code and optional description. */
export const failure = (code: string, description?: string): Failure =>
  description === undefined ? { code } : { code, description }

/** The failure of a write whose parent directory is missing. */
export const parentMissing = (dir: string): Failure => failure('ENOENT', `parent directory ${dir} does not exist`)

/** The failure of a write whose parent is not a directory (or whose path crosses a non-directory). */
export const parentNotDirectory = (dir: string): Failure => failure('ENOTDIR', `parent ${dir} is not a directory`)

// guards

/** The errno code of a thrown Node error, if it has one. */
export const codeOf = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined

/** Whether a thrown value is a Fault (interpreters raise faults internally and return them at the boundary). */
export const isFault = (e: unknown): e is Fault.Fault =>
  typeof e === 'object' && e !== null && '_tag' in e && 'module' in e && 'op' in e

// interop

/** The fault tag of an errno code. */
export const tag = (code: string | undefined): Fault.Tag => {
  switch (code) {
    case 'ENOENT':
      return 'NotFound'
    case 'EACCES':
    case 'EPERM':
      return 'PermissionDenied'
    case 'EEXIST':
      return 'Exists'
    case 'ENOTDIR':
      return 'NotADirectory'
    case 'EISDIR':
      return 'IsADirectory'
    case 'ENOTEMPTY':
      return 'NotEmpty'
    default:
      return 'Failed'
  }
}

const words: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'is a symbolic link (not followed)',
  EINVAL: 'invalid argument',
  EXDEV: 'crosses file systems',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
}

/** Words for an errno code (never a host path: Node's own messages name them). */
export const describe = (code: string | undefined): string => (code === undefined ? 'failed' : words[code] ?? code.toLowerCase())

/** Builds the fault of a failure (a Failure or a thrown Node error), keeping a thrown error as the cause. */
export const toFault = (module: string, op: string, subject: string, e: unknown): Fault.Fault => {
  if (isFault(e)) return e
  const code = codeOf(e)
  const given = typeof e === 'object' && e !== null && !(e instanceof Error) ? (e as Failure).description : undefined
  const description = given ?? (code === undefined && e instanceof Error ? e.message : describe(code))
  return Fault.make(tag(code), module, op, subject, description, e instanceof Error ? e : undefined)
}

/** The fault of a path that is not an absolute clean machine path. */
export const escape = (module: string, op: string, path: string, why: string): Fault.Fault =>
  Fault.make('Escape', module, op, String(path), `not an absolute clean machine path: ${why}`)

/** The fault of a temp file name that is not one plain directory entry name. */
export const badName = (module: string, op: string, path: string, name: string): Fault.Fault =>
  Fault.make('Escape', module, op, path, `temp name "${name}" is not a plain file name`)
