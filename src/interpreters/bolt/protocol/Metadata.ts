// Metadata: a Bolt task's metadata file (`tasks/NAME.json`), decoded: its parameters with their
// types (parsed once, see Type.ts) and defaults, its input method, the support files it needs,
// and its implementations. Unknown keys are ignored, as Bolt ignores them; a key plait reads with
// the wrong shape is an error naming the file.
import * as E from 'fp-ts/lib/Either.js'
import * as Type from './Type.js'

// model

/** How a task gets its parameters: JSON on stdin, `PT_name` variables, both (Bolt's default), or PowerShell named arguments. */
export type InputMethod = 'stdin' | 'environment' | 'both' | 'powershell'

export interface Parameter {
  readonly type: Type.Type
  /** The value used when a reference leaves the parameter out (none: no default). */
  readonly default?: unknown
  readonly sensitive: boolean
}

/** One implementation of a multi-implementation task: its file (a name in `tasks/`), what the target must offer, its own input method and files. */
export interface Implementation {
  readonly name: string
  readonly requirements: ReadonlyArray<string>
  readonly inputMethod?: InputMethod
  readonly files: ReadonlyArray<string>
}

export interface Metadata {
  readonly description?: string
  /** Undefined: the metadata declares no parameters, and the task takes any (Bolt checks nothing). */
  readonly parameters?: ReadonlyMap<string, Parameter>
  /** Undefined: the metadata names none (`both`, unless an implementation names one). */
  readonly inputMethod?: InputMethod
  /** Support files, as `MODULE/files/...`, `MODULE/lib/...` or `MODULE/tasks/...` (a trailing `/` names a directory). */
  readonly files: ReadonlyArray<string>
  readonly implementations?: ReadonlyArray<Implementation>
}

/** The metadata of a task that has no metadata file. */
export const empty: Metadata = Object.freeze({ files: [] })

/** The longest metadata file read (bytes of text). */
export const maxText = 1024 * 1024

/** Parameter names Bolt accepts: lower case, digits and `_`, starting with a letter. */
export const parameterName = /^[a-z][a-z0-9_]*$/

const methods: ReadonlyArray<InputMethod> = ['stdin', 'environment', 'both', 'powershell']

// constructors

/** Decodes a task metadata file's text; errors name the file. */
export const parse = (file: string, text: string): E.Either<string, Metadata> => {
  const bad = (why: string): E.Either<string, never> => E.left(`task metadata ${file}: ${why}`)
  if (text.length > maxText) return bad(`longer than ${maxText} characters`)
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    return bad(`not JSON: ${(e as Error).message}`)
  }
  if (!isObject(raw)) return bad('not a JSON object')
  const description = raw['description']
  if (description !== undefined && typeof description !== 'string') return bad('"description" must be a string')
  const inputMethod = method(raw['input_method'])
  if (E.isLeft(inputMethod)) return bad(inputMethod.left)
  const files = strings(raw['files'], 'files')
  if (E.isLeft(files)) return bad(files.left)
  let parameters: Map<string, Parameter> | undefined
  const ps = raw['parameters']
  if (ps !== undefined) {
    if (!isObject(ps)) return bad('"parameters" must be an object')
    parameters = new Map()
    for (const [name, spec] of Object.entries(ps)) {
      if (!parameterName.test(name)) return bad(`parameter name ${JSON.stringify(name)} is not valid (lower case letters, digits and _, starting with a letter)`)
      if (!isObject(spec)) return bad(`parameter ${name} must be an object`)
      const typeText = spec['type'] ?? 'Any'
      if (typeof typeText !== 'string') return bad(`parameter ${name}: "type" must be a string`)
      const type = Type.parse(typeText)
      if (E.isLeft(type)) return bad(`parameter ${name}: type ${JSON.stringify(typeText.slice(0, 200))}: ${type.left}`)
      if ('default' in spec) {
        const problem = Type.check(type.right, spec['default'])
        if (problem !== undefined) return bad(`parameter ${name}: the default ${problem}`)
      }
      parameters.set(name, Object.freeze({ type: type.right, sensitive: spec['sensitive'] === true, ...('default' in spec ? { default: spec['default'] } : {}) }))
    }
  }
  let implementations: Implementation[] | undefined
  const is = raw['implementations']
  if (is !== undefined) {
    if (!Array.isArray(is)) return bad('"implementations" must be a list')
    implementations = []
    for (const [n, x] of is.entries()) {
      if (!isObject(x) || typeof x['name'] !== 'string') return bad(`implementation ${n + 1} must be an object with a "name"`)
      const req = strings(x['requirements'], `implementation ${x['name']}: requirements`)
      const m = method(x['input_method'])
      const fs = strings(x['files'], `implementation ${x['name']}: files`)
      if (E.isLeft(req)) return bad(req.left)
      if (E.isLeft(m)) return bad(`implementation ${x['name']}: ${m.left}`)
      if (E.isLeft(fs)) return bad(fs.left)
      implementations.push(Object.freeze({ name: x['name'], requirements: req.right, files: fs.right, ...(m.right !== undefined ? { inputMethod: m.right } : {}) }))
    }
  }
  return E.right(
    Object.freeze({
      files: files.right,
      ...(typeof description === 'string' ? { description } : {}),
      ...(parameters !== undefined ? { parameters } : {}),
      ...(inputMethod.right !== undefined ? { inputMethod: inputMethod.right } : {}),
      ...(implementations !== undefined ? { implementations } : {}),
    }),
  )
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const method = (v: unknown): E.Either<string, InputMethod | undefined> =>
  v === undefined ? E.right(undefined) : methods.includes(v as InputMethod) ? E.right(v as InputMethod) : E.left(`"input_method" must be one of ${methods.join(', ')}, not ${JSON.stringify(v)}`)

const strings = (v: unknown, what: string): E.Either<string, ReadonlyArray<string>> =>
  v === undefined ? E.right([]) : Array.isArray(v) && v.every((x) => typeof x === 'string') ? E.right(v as string[]) : E.left(`"${what}" must be a list of strings`)
