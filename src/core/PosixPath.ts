// PosixPath: pure POSIX path arithmetic (the pure core may not import node:path).

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

/** True for an absolute path that normalizes to itself (no `.`, `..`, `//` or trailing slash). */
export const isCleanAbsolute = (p: string): boolean => isAbsolute(p) && normalize(p) === p

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

/** True when `p` is `dir` or below it. */
export const isWithin = (dir: string, p: string): boolean =>
  dir === '/' ? isAbsolute(p) : p === dir || p.startsWith(dir + '/')

/** The path of `name` in the same directory as `p` (`/a` with `.a.tmp` gives `/.a.tmp`, not `//.a.tmp`). */
export const sibling = (p: string, name: string): string => {
  const dir = dirname(p)
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}
