// DotEnv: the `./.env` file of `plait ensure` (pure): KEY=value lines, `#` comments and blank lines,
// an optional `export ` before the key, and values optionally in single quotes (taken as they are)
// or double quotes (with \n, \t, \" and \\ escapes). An unquoted value ends at ` #` and is trimmed.
import * as E from 'fp-ts/lib/Either.js'

/** The variables of a file, in file order (a later line of a key wins). */
export type Vars = ReadonlyArray<readonly [string, string]>

const keyPattern = /^[A-Za-z_][A-Za-z0-9_]*$/

/** True for a name .env may set. */
export const isKey = (k: string): boolean => keyPattern.test(k)

const unescape = (s: string): string => s.replace(/\\([nt"\\])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c))

/** The value of a line's right-hand side, or why it is not one. */
const valueOf = (raw: string): E.Either<string, string> => {
  const v = raw.trim()
  if (v.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(v)
    return m === null ? E.left('an unterminated "quoted" value') : E.right(unescape(m[1]!))
  }
  if (v.startsWith("'")) {
    const m = /^'([^']*)'\s*(#.*)?$/.exec(v)
    return m === null ? E.left("an unterminated 'quoted' value") : E.right(m[1]!)
  }
  const comment = v.search(/\s#/)
  return E.right((comment < 0 ? v : v.slice(0, comment)).trim())
}

/** The variables of a .env text, or the first bad line (1-based) and why. */
export const parse = (text: string): E.Either<string, Vars> => {
  const vars: Array<readonly [string, string]> = []
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const t = line.trim()
    if (t.length === 0 || t.startsWith('#')) continue
    const body = t.startsWith('export ') ? t.slice('export '.length).trimStart() : t
    const at = body.indexOf('=')
    if (at < 0) return E.left(`line ${i + 1}: expected KEY=value`)
    const key = body.slice(0, at).trim()
    if (!isKey(key)) return E.left(`line ${i + 1}: ${JSON.stringify(key.slice(0, 64))} is not a variable name (letters, digits and _, not starting with a digit)`)
    const value = valueOf(body.slice(at + 1))
    if (E.isLeft(value)) return E.left(`line ${i + 1}: ${value.left}`)
    vars.push([key, value.right])
  }
  return E.right(vars)
}

/** A value as it is written: bare when it reads back the same, else double-quoted with escapes. */
const written = (v: string): string => (/^[A-Za-z0-9_./:,@%+=-]*$/.test(v) ? v : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`)

/** The .env text of variables (parse gives them back). */
export const print = (vars: Vars): string => vars.map(([k, v]) => `${k}=${written(v)}\n`).join('')

/** The environment with the .env variables joined: a variable already set keeps its value. */
export const join = (env: Readonly<Record<string, string | undefined>>, vars: Vars): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of vars) out[k] = v
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return out
}
