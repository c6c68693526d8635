// PosixPath: pure POSIX path arithmetic (the pure core may not import node:path), and the
// absolute, clean paths by which a machine names its files: a machine path starts with "/", has no
// empty, "." or ".." segment, no NUL byte and no trailing slash (except "/" itself). Interpreters
// refuse any other path with an Escape fault (see `problem`).

/** True for an absolute path. */
export const isAbsolute = (p: string): boolean => p.startsWith('/')

/** Normalizes a path: collapses `//`, resolves `.` and `..`, drops a trailing slash. */
export const normalize = (p: string): string => {
  const abs = isAbsolute(p)
  const out: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop()
      else if (!abs) out.push('..')
    } else {
      out.push(seg)
    }
  }
  const body = out.join('/')
  return abs ? '/' + body : body === '' ? '.' : body
}

const SLASH = 47
const DOT = 46

/**
 * True for an absolute path that normalizes to itself (no `.`, `..`, `//` or trailing slash): "/",
 * or "/" and segments none of which is empty, "." or "..". One scan, no array (it runs per resource).
 */
export const isCleanAbsolute = (p: string): boolean => {
  if (p.charCodeAt(0) !== SLASH) return false
  if (p.length === 1) return true
  let start = 1
  for (let i = 1; i <= p.length; i++) {
    if (i < p.length && p.charCodeAt(i) !== SLASH) continue
    const n = i - start
    if (n === 0 || (p.charCodeAt(start) === DOT && (n === 1 || (n === 2 && p.charCodeAt(start + 1) === DOT)))) return false
    start = i + 1
  }
  return true
}

/** Joins a base directory and a path; an absolute path is returned as it is (normalized). */
export const resolve = (base: string, p: string): string => normalize(isAbsolute(p) ? p : `${base}/${p}`)

/** The directory part of a path ("/" for "/x"). */
export const dirname = (p: string): string => {
  const i = p.lastIndexOf('/')
  if (i < 0) return '.'
  if (i === 0) return '/'
  return p.slice(0, i)
}

/** The last segment of a path. */
export const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1)

/** True when `p` is `dir` or below it (both clean). */
export const isWithin = (dir: string, p: string): boolean =>
  dir === '/' ? isAbsolute(p) : p === dir || p.startsWith(dir + '/')

/** The path of `name` in the same directory as `p` (`/a` with `.a.tmp` gives `/.a.tmp`, not `//.a.tmp`). */
export const sibling = (p: string, name: string): string => {
  const dir = dirname(p)
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}

// machine paths

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
export const isName = (name: string): boolean => name.length > 0 && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0')

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
export const rebase = (path: string, from: string, to: string): string => (path === from ? to : join(to, path.slice(from === '/' ? 1 : from.length + 1)))
