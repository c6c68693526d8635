// Args: a `plait ensure TYPE NAME [ARGS] [--prop K=V]...` command line as a one-resource manifest
// document (pure). Which positional arguments a type takes is a table here; every other property
// is a flag. The document is JSON (which is YAML), so no value can break out of its place, and the
// manifest's decoder checks every property as it would in a manifest.
import * as E from 'fp-ts/lib/Either.js'

// model

/** What a command line says of one resource. */
export interface Request {
  readonly type: string
  readonly name: string
  /** The positional arguments after the name. */
  readonly args: ReadonlyArray<string>
  /** Properties given as flags or `--prop K=V`, in command-line order (a later one wins). */
  readonly props: ReadonlyArray<readonly [string, string]>
  /** `type#name` references to resources an earlier command of the session ensured. */
  readonly require: ReadonlyArray<string>
  readonly subscribe: ReadonlyArray<string>
}

/** A resource's properties as the manifest document gives them. */
export type Properties = Readonly<Record<string, unknown>>

/** A one-resource manifest: its type, name and properties (links are kept apart: see Links). */
export interface Resource {
  readonly type: string
  readonly name: string
  readonly properties: Properties
}

/** The properties each type takes as positional arguments after the name (`plait ensure package zsh 5.9`: ensure=5.9). */
export const positionals: Readonly<Record<string, ReadonlyArray<string>>> = { package: ['ensure'], service: ['ensure'], file: ['ensure'] }

/** The positional properties of a type (none for a type the table does not name). */
export const positionalsOf = (type: string): ReadonlyArray<string> => positionals[type] ?? []

/**
 * The properties of a resource that `plait status` observes: what the type needs to decode without
 * wanting anything of the machine (a file wants an owner, group and mode unless it is to be absent).
 */
export const statusProperties = (type: string): Properties => (type === 'file' ? { ensure: 'absent' } : {})

/** Properties whose value is true or false. */
const booleans = new Set(['enable', 'force', 'refreshonly', 'refresh_only', 'logoutput'])
/** Properties whose value is a list, given as repeated flags. */
const lists = new Set(['environment'])
/** Properties whose value is a list of whole numbers, given comma-separated (`--returns 0,2`). */
const numberLists = new Set(['returns'])

const keyPattern = /^[a-z][a-z0-9_]{0,63}$/

/** A reference as `require`/`subscribe` take it: `type#name`. */
export const referencePattern = /^[a-z][a-z0-9_]*#.+$/

// constructors

/** `K=V` of `--prop`, or why it is not one. */
export const prop = (text: string): E.Either<string, readonly [string, string]> => {
  const at = text.indexOf('=')
  if (at <= 0) return E.left(`--prop ${JSON.stringify(text)}: expected KEY=VALUE`)
  const key = text.slice(0, at)
  return keyPattern.test(key) ? E.right([key, text.slice(at + 1)] as const) : E.left(`--prop ${JSON.stringify(text)}: a property name is lower case letters, digits and _`)
}

/** A flag's value as the property's type wants it. */
const valueOf = (key: string, text: string, before: unknown): E.Either<string, unknown> => {
  if (booleans.has(key)) {
    if (text === 'true' || text === 'false') return E.right(text === 'true')
    return E.left(`${key}: expected true or false, got ${JSON.stringify(text)}`)
  }
  if (lists.has(key)) {
    // a list only an earlier flag of this command line made (a positional value is a string): pushed to, not copied per flag
    if (!Array.isArray(before)) return E.right([text])
    ;(before as string[]).push(text)
    return E.right(before)
  }
  if (numberLists.has(key)) {
    const parts = text.split(',')
    if (!parts.every((p) => /^-?[0-9]{1,9}$/.test(p.trim()))) return E.left(`${key}: expected whole numbers separated by commas, got ${JSON.stringify(text)}`)
    return E.right(parts.map((p) => Number(p.trim())))
  }
  return E.right(text)
}

/** The resource a command line asks for, or every problem with it. */
export const resource = (r: Request): E.Either<ReadonlyArray<string>, Resource> => {
  const problems: string[] = []
  if (r.name.length === 0) problems.push(`${r.type}: the name is empty`)
  const names = positionalsOf(r.type)
  if (r.args.length > names.length) {
    problems.push(`${r.type} ${r.name}: ${r.args.length} argument${r.args.length === 1 ? '' : 's'} after the name, but a ${r.type} takes ${names.length === 0 ? 'none' : `at most ${names.length} (${names.join(', ')})`}; give other properties as flags`)
  }
  const properties: Record<string, unknown> = {}
  for (const [i, a] of r.args.slice(0, names.length).entries()) properties[names[i]!] = a
  for (const [k, v] of r.props) {
    if (!keyPattern.test(k)) {
      problems.push(`${JSON.stringify(k)}: a property name is lower case letters, digits and _`)
      continue
    }
    if (k === 'name' || k === 'require' || k === 'subscribe') {
      problems.push(`--prop ${k}: give ${k === 'name' ? 'the name as the argument after the type' : `--${k} TYPE#NAME`}`)
      continue
    }
    const value = valueOf(k, v, properties[k])
    if (E.isLeft(value)) problems.push(value.left)
    else properties[k] = value.right
  }
  for (const ref of [...r.require, ...r.subscribe]) if (!referencePattern.test(ref)) problems.push(`${JSON.stringify(ref)}: a reference is TYPE#NAME, e.g. file#/etc/motd`)
  return problems.length > 0 ? E.left(problems) : E.right({ type: r.type, name: r.name, properties })
}

/** The manifest document of one resource (JSON text, which the YAML reader takes). */
export const document = (r: Resource): string => JSON.stringify({ ccm: { resources: [{ [r.type]: [{ [r.name]: r.properties }] }] } }, null, 2) + '\n'

/** The id of a resource (`type#name`). */
export const idOf = (r: Pick<Resource, 'type' | 'name'>): string => `${r.type}#${r.name}`
