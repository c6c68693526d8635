// Root: the directory a `--root DIR` run confines package managers to, as their options name it
// (dpkg's --root and --log, apt's Dir, rpm's --root, dnf's --installroot).
import * as E from 'fp-ts/lib/Either.js'
import * as Invalid from './Invalid.js'

// model

export interface Root {
  readonly _tag: 'Root'
  /** Absolute, without a trailing `/`, never `/` itself, no `.` or `..` component, no control character. */
  readonly path: string
}

// constructors

/** A root directory for the package managers' options, or why it cannot be one. */
export const make = (dir: string): E.Either<Invalid.Invalid, Root> => {
  const bad = (reason: string) => E.left(Invalid.invalid('root directory', dir, reason))
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(dir)) return bad('contains a control character')
  if (!dir.startsWith('/')) return bad('is not an absolute path')
  const path = dir.replace(/\/+$/, '')
  if (path === '') return bad('is the host itself: run without a root')
  if (path.split('/').some((c) => c === '.' || c === '..')) return bad('has a "." or ".." component')
  return E.right(Object.freeze({ _tag: 'Root', path: path.replace(/\/{2,}/g, '/') }))
}

// interop

/** A machine path below the root: `below(r, '/var/lib/dpkg')` is `ROOT/var/lib/dpkg`. */
export const below = (r: Root, machinePath: string): string => `${r.path}${machinePath}`
