// MachinePath: the absolute, clean POSIX paths by which a machine names its files.
//
// A machine path starts with "/", has no empty, "." or ".." segment, no NUL byte and no trailing
// slash (except "/" itself). Interpreters refuse any other path with an Escape fault.

// guards

/** Says why a path is not an absolute clean machine path, or undefined when it is one. */
export const problem = (path: string): string | undefined => {
  if (typeof path !== 'string' || path.length === 0) return 'the path is empty'
  if (path.charCodeAt(0) !== 47) return 'the path is not absolute'
  if (path === '/') return undefined
  if (path.includes('\0')) return 'the path contains a NUL byte'
  if (path.endsWith('/')) return 'the path has a trailing slash'
  const segments = path.split('/')
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]
    if (s === '') return 'the path has an empty segment ("//")'
    if (s === '.' || s === '..') return `the path has a "${s}" segment`
  }
  return undefined
}

/** Whether a string names one directory entry: non-empty, no "/", not "." or "..", no NUL. */
export const isName = (name: string): boolean =>
  name.length > 0 && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0')

/** Whether `path` is `base` or lies below it (both clean machine paths). */
export const isAtOrBelow = (path: string, base: string): boolean =>
  base === '/' || path === base || path.startsWith(base + '/')

// combinators

/** The parent directory of a clean path ("/" for "/" itself). */
export const dirname = (path: string): string => {
  const i = path.lastIndexOf('/')
  return i <= 0 ? '/' : path.slice(0, i)
}

/** The last segment of a clean path ("" for "/"). */
export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

/** Appends one entry name to a directory path. */
export const join = (dir: string, name: string): string => (dir === '/' ? '/' + name : dir + '/' + name)

/** The path's ancestors below "/" and the path itself, outermost first ("/a/b" gives "/a", "/a/b"). */
export const lineage = (path: string): ReadonlyArray<string> => {
  const out: string[] = []
  let i = path.indexOf('/', 1)
  while (i !== -1) {
    out.push(path.slice(0, i))
    i = path.indexOf('/', i + 1)
  }
  if (path !== '/') out.push(path)
  return out
}

/** Moves `path`, at or below `from`, to the same place below `to`. */
export const rebase = (path: string, from: string, to: string): string =>
  path === from ? to : join(to, path.slice(from === '/' ? 1 : from.length + 1))
