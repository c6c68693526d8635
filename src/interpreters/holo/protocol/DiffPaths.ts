// DiffPaths: what `diff ENTITY` writes on file descriptor 3 (holo-plugin-interface(7), "The diff
// operation"): nothing (the entity has no meaningful diff), or exactly two NUL-terminated paths,
// the state as last applied and the current state. Anything else is a protocol violation.
import * as E from 'fp-ts/lib/Either.js'

// model

export type DiffPaths = { readonly _tag: 'None' } | { readonly _tag: 'Paths'; readonly from: string; readonly to: string }

/** The longest path plait accepts on fd 3 (Linux's PATH_MAX). */
export const maxPath = 4096

// constructors

export const none: DiffPaths = Object.freeze({ _tag: 'None' })

/** Two paths. */
export const paths = (from: string, to: string): DiffPaths => Object.freeze({ _tag: 'Paths', from, to })

// interop

/** Reads fd 3 of a diff. */
export const parse = (fd3: string): E.Either<string, DiffPaths> => {
  if (fd3 === '') return E.right(none)
  if (fd3.length > 2 * maxPath + 2) return E.left(`wrote more than ${2 * maxPath + 2} bytes on fd 3`)
  const parts = fd3.split('\0')
  if (parts.length !== 3 || parts[2] !== '')
    return E.left(`wrote ${JSON.stringify(fd3)} on fd 3, which is not two NUL-terminated paths`)
  const [from, to] = parts as [string, string, string]
  for (const [name, p] of [['first', from], ['second', to]] as const) {
    if (p === '') return E.left(`wrote an empty ${name} path on fd 3`)
    if (p.includes('\n')) return E.left(`wrote a ${name} path with a newline on fd 3: ${JSON.stringify(p)}`)
  }
  return E.right(paths(from, to))
}

/** The fd 3 text of diff paths. */
export const print = (d: DiffPaths): string => (d._tag === 'None' ? '' : `${d.from}\0${d.to}\0`)
