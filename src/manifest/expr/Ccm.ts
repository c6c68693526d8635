// Ccm: the functions CCM adds to expr-lang for manifests: lookup (GJSON paths over facts, data
// and environ), and readFile / file, which read through the environment's capability.
import * as E from 'fp-ts/lib/Either.js'
import type { Env, Read, Root } from './Env.js'
import * as Lookup from './Lookup.js'
import * as Value from './Value.js'

/** Where the functions record what they read. */
export interface Recorder {
  readonly record: (read: Read) => void
  readonly readFile: (path: string) => void
}

/** Cleans a relative path as Go's filepath.Clean does (`a/./b/../c` is `a/c`). */
export const cleanPath = (p: string): string => {
  const out: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop()
    else out.push(seg)
  }
  return out.length === 0 ? '.' : out.join('/')
}

/** CCM's lookup(path[, default]); in hierarchy entries a missing path gives the default or "". */
export const lookup = (args: ReadonlyArray<Value.Value>, env: Env, recorder: Recorder): E.Either<string, Value.Value> => {
  if (args.length === 0 || args.length > 2) return E.left('lookup requires 1 or 2 arguments')
  const path = args[0]!
  if (typeof path !== 'string') return E.left('lookup requires a string argument')
  const segments = Lookup.split(path)
  if (E.isLeft(segments)) return segments
  const roots: ReadonlyArray<Root> = env.mode === 'hierarchy' ? ['facts'] : ['facts', 'data', 'environ']
  const doc = Value.map(roots.map((r) => [r, env[r]] as const))
  const read = Lookup.readPath(segments.right)
  const root = read[0]
  if (root !== undefined && (roots as ReadonlyArray<string>).includes(root)) recorder.record({ root: root as Root, path: read.slice(1) })
  else if (root === undefined) roots.forEach((r) => recorder.record({ root: r, path: [] }))
  const found = Lookup.walk(doc, segments.right)
  if (found._tag === 'Found') {
    const v = found.value
    return E.right(Value.isArray(v) || Value.isMap(v) ? Lookup.asGjson(v) : v)
  }
  const dflt = args[1]
  if (env.mode === 'hierarchy') return E.right(dflt === undefined ? '' : dflt)
  if (dflt === undefined || dflt === null) return E.left(`missing key '${path}' in environment`)
  return E.right(dflt)
}

/** CCM's readFile(path) (also named file): a relative path, cleaned, read through the capability. */
export const readFile = (name: string, args: ReadonlyArray<Value.Value>, env: Env, recorder: Recorder): E.Either<string, string> => {
  const path = args[0]
  if (args.length !== 1 || typeof path !== 'string') return E.left(`${name} requires a string argument`)
  if (path.startsWith('/')) return E.left(`${name} can only read files in the working directory`)
  const clean = cleanPath(path)
  if (env.readFile === undefined) return E.left(`${name} is not available here: no file reader was given to the evaluator`)
  recorder.readFile(clean)
  const body = env.readFile(clean)
  return E.isLeft(body) ? E.left(`failed to read file ${JSON.stringify(path)}: ${body.left}`) : body
}
