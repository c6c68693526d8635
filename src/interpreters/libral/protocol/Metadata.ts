// Metadata: a libral provider's description (its sibling `.yaml` file or `ral_action=describe`
// output) decoded into a typed value, or positioned diagnostics naming the file.
//
// Invariants: `attributes` holds `name` (a string) first, then the others in metadata order, each
// name an identifier that is not reserved (`ral`, `ral_*`, `__*`); `qname` is `type::name`.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../../core/Diagnostic.js'
import type { Position } from '../../../core/Position.js'
import * as Node from '../../../manifest/Node.js'
import * as Yaml from '../../../manifest/Yaml.js'
import * as PlaitHints from './PlaitHints.js'
import type { TestHints } from './PlaitHints.js'
import * as Value from './Value.js'

export type { TestHints }

// model

/** How the provider is called: key=value arguments and `# simple` output, or JSON on stdin and stdout. */
export type Invoke = 'simple' | 'json'

/** `r`: reported, never sent to update; `w`: sent, never reported; `rw`: both. */
export type Kind = 'r' | 'w' | 'rw'

export interface Attribute {
  readonly name: string
  readonly desc: string
  readonly type: Value.DataType
  readonly kind: Kind
}

/** Whether the provider can run here: a fixed answer, or commands that must (or must not) be on PATH. */
export type Suitable =
  | { readonly _tag: 'Fixed'; readonly value: boolean }
  | { readonly _tag: 'Commands'; readonly checks: ReadonlyArray<{ readonly command: string; readonly present: boolean }> }

/** What the provider can do, whatever its convention calls it (`list`/`find`/`update` or `get`/`set`). */
export interface Actions {
  readonly list: boolean
  readonly find: boolean
  readonly update: boolean
}

export interface Metadata {
  /** The provider's own name: `provider.name`, else the file name without `.prov`. */
  readonly name: string
  readonly type: string
  /** `type::name`, the provider's full name. */
  readonly qname: string
  readonly desc: string
  readonly invoke: Invoke
  readonly actions: Actions
  readonly suitable: Suitable
  readonly attributes: ReadonlyArray<Attribute>
  /** plait extension `provider.plait.noop: true`: the provider honours `ral_noop`, so plait may ask it. */
  readonly noop: boolean
  /** plait extension `provider.plait.timeout` (seconds), when the provider sets one. */
  readonly timeoutSeconds?: number
  /** plait extension `provider.plait.test`. */
  readonly test: TestHints
}


const typePattern = /^[a-z][a-z0-9_]*$/
const namePattern = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/
const attrPattern = /^[A-Za-z_][A-Za-z0-9_]*$/
const kinds: ReadonlyArray<Kind> = ['r', 'w', 'rw']
const actionNames = ['describe', 'list', 'find', 'update', 'get', 'set'] as const

// constructors

/** The provider name a file gives by default: its base name without `.prov`. */
export const defaultName = (path: string): string => path.slice(path.lastIndexOf('/') + 1).replace(/\.prov$/, '')

/**
 * Decodes metadata text. `file` names the source in every diagnostic (the `.yaml` path, or the
 * provider path with "(describe)"); `fallbackName` is the provider name when `provider.name` is absent.
 */
export const parse = (file: string, fallbackName: string, text: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Metadata> => {
  const tree = Yaml.parse(file, text)
  if (E.isLeft(tree)) return tree
  return decode(file, fallbackName, tree.right)
}

/** Decodes a parsed metadata tree (see `parse`). */
export const decode = (file: string, fallbackName: string, root: Node.Node): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Metadata> => {
  const problems: Diagnostic.Diagnostic[] = []
  const fail = (message: string, at: Position, hint?: string): void => {
    problems.push(Diagnostic.make('Decode', message, { at, hint }))
  }
  const done = (): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, never> => E.left(problems)
  if (root._tag !== 'Map') {
    fail(`provider metadata must be a map with a "provider" key, found ${Node.describe(root)}`, root.at)
    return done()
  }
  const prov = Node.get(root, 'provider')
  if (prov === undefined) {
    fail('provider metadata has no "provider" entry', root.at, 'see docs/libral.md for the metadata format')
    return done()
  }
  if (prov.value._tag !== 'Map') {
    fail(`"provider" must be a map, found ${Node.describe(prov.value)}`, prov.value.at)
    return done()
  }
  const p = prov.value
  const str = (key: string, required: boolean): string | undefined => {
    const e = Node.get(p, key)
    if (e === undefined) {
      if (required) fail(`provider.${key} is missing`, p.at)
      return undefined
    }
    if (e.value._tag !== 'Scalar' || typeof e.value.value !== 'string') {
      fail(`provider.${key} must be a string, found ${Node.describe(e.value)}`, e.value.at)
      return undefined
    }
    return e.value.value
  }

  const type = str('type', true)
  if (type !== undefined && !typePattern.test(type)) fail(`provider.type "${type}" must be lower-case letters, digits and '_', starting with a letter`, Node.get(p, 'type')!.value.at)
  const name = str('name', false) ?? fallbackName
  if (!namePattern.test(name)) fail(`provider name "${name}" must be letters, digits, '_', '.' and '-'`, Node.get(p, 'name')?.value.at ?? p.at)
  const desc = str('desc', false) ?? ''

  const invokeText = str('invoke', true)
  let invoke: Invoke | undefined
  if (invokeText === 'simple' || invokeText === 'json') invoke = invokeText
  else if (invokeText !== undefined) fail(`provider.invoke "${invokeText}" is not a calling convention plait knows`, Node.get(p, 'invoke')!.value.at, 'use simple or json')

  const actions = decodeActions(p, invoke ?? 'simple', fail)
  const suitable = decodeSuitable(p, fail)
  const attributes = decodeAttributes(p, fail)
  const plait = PlaitHints.decode(p, attributes ?? [], fail)

  if (problems.length > 0 || type === undefined || invoke === undefined || suitable === undefined || attributes === undefined || plait === undefined) return done()
  const meta: Metadata = {
    name,
    type,
    qname: `${type}::${name}`,
    desc,
    invoke,
    actions,
    suitable,
    attributes,
    noop: plait.noop,
    test: plait.test,
    ...(plait.timeoutSeconds !== undefined ? { timeoutSeconds: plait.timeoutSeconds } : {}),
  }
  return E.right(Object.freeze(meta))
}

type Fail = PlaitHints.Fail

const decodeActions = (p: Node.MapNode, invoke: Invoke, fail: Fail): Actions => {
  const e = Node.get(p, 'actions')
  if (e === undefined) return { list: true, find: true, update: true }
  if (e.value._tag !== 'Seq') {
    fail(`provider.actions must be a list, found ${Node.describe(e.value)}`, e.value.at)
    return { list: false, find: false, update: false }
  }
  const names = new Set<string>()
  for (const item of e.value.items) {
    if (item._tag !== 'Scalar' || typeof item.value !== 'string' || !(actionNames as ReadonlyArray<string>).includes(item.value)) {
      fail(`provider.actions: ${item._tag === 'Scalar' ? `"${item.text}"` : Node.describe(item)} is not an action`, item.at, `actions are ${actionNames.join(', ')}`)
      continue
    }
    names.add(item.value)
  }
  // The json convention calls list and find `get`, and update `set`; either spelling is accepted.
  const json = invoke === 'json'
  return {
    list: names.has('list') || (json && names.has('get')),
    find: names.has('find') || (json && names.has('get')),
    update: names.has('update') || (json && names.has('set')),
  }
}

const decodeSuitable = (p: Node.MapNode, fail: Fail): Suitable | undefined => {
  const e = Node.get(p, 'suitable')
  if (e === undefined) {
    fail('provider.suitable is missing', p.at, 'say true, false, or commands: [cmd, "not cmd"]')
    return undefined
  }
  const v = e.value
  if (v._tag === 'Scalar') {
    if (v.value === true || v.value === 'true') return { _tag: 'Fixed', value: true }
    if (v.value === false || v.value === 'false') return { _tag: 'Fixed', value: false }
    fail(`provider.suitable must be true or false, found "${v.text}"`, v.at)
    return undefined
  }
  if (v._tag === 'Seq') {
    fail('provider.suitable must be true, false or a map with "commands", found a list', v.at, 'write suitable: { commands: [...] }')
    return undefined
  }
  let ok = true
  for (const x of v.entries) {
    if (x.key !== 'commands') {
      fail(`provider.suitable: unknown key "${x.key}"`, x.keyAt, 'only "commands" is supported')
      ok = false
    }
  }
  const cmds = Node.get(v, 'commands')
  if (cmds === undefined || cmds.value._tag !== 'Seq') {
    fail('provider.suitable.commands must be a list of command names', cmds?.value.at ?? v.at)
    return undefined
  }
  const checks: { command: string; present: boolean }[] = []
  for (const item of cmds.value.items) {
    if (item._tag !== 'Scalar' || typeof item.value !== 'string' || item.value.trim() === '') {
      fail('provider.suitable.commands entries must be command names', item.at)
      ok = false
      continue
    }
    const m = /^not\s+(.+)$/.exec(item.value.trim())
    const command = (m === null ? item.value : m[1]!).trim()
    if (/[\s/]/.test(command)) {
      fail(`provider.suitable.commands: "${command}" is not a command name`, item.at, 'name a command found on PATH, optionally prefixed by "not "')
      ok = false
      continue
    }
    checks.push({ command, present: m === null })
  }
  return ok ? { _tag: 'Commands', checks } : undefined
}

const decodeAttributes = (p: Node.MapNode, fail: Fail): ReadonlyArray<Attribute> | undefined => {
  const e = Node.get(p, 'attributes')
  if (e === undefined) {
    fail('provider.attributes is missing', p.at, 'every provider describes at least its "name" attribute')
    return undefined
  }
  if (e.value._tag !== 'Map') {
    fail(`provider.attributes must be a map, found ${Node.describe(e.value)}`, e.value.at)
    return undefined
  }
  const out: Attribute[] = []
  let ok = true
  for (const a of e.value.entries) {
    if (!attrPattern.test(a.key) || a.key === 'ral' || a.key.startsWith('ral_') || a.key.startsWith('__')) {
      fail(`attribute name "${a.key}" is not allowed`, a.keyAt, 'names are identifiers; ral, ral_* and __* are reserved')
      ok = false
      continue
    }
    const spec = a.value
    if (spec._tag === 'Scalar' && spec.value === null) {
      out.push({ name: a.key, desc: '', type: Value.string, kind: 'rw' })
      continue
    }
    if (spec._tag !== 'Map') {
      fail(`attribute "${a.key}" must be a map (desc, type, kind), found ${Node.describe(spec)}`, spec.at)
      ok = false
      continue
    }
    const field = (key: string): string | undefined => {
      const f = Node.get(spec, key)
      if (f === undefined || (f.value._tag === 'Scalar' && f.value.value === null)) return undefined
      if (f.value._tag !== 'Scalar' || typeof f.value.value !== 'string') {
        fail(`attribute "${a.key}": ${key} must be a string, found ${Node.describe(f.value)}`, f.value.at)
        ok = false
        return undefined
      }
      return f.value.value
    }
    const typeText = field('type') ?? 'string'
    const type = Value.parseType(typeText)
    if (E.isLeft(type)) {
      fail(`attribute "${a.key}": ${type.left}`, Node.get(spec, 'type')!.value.at)
      ok = false
      continue
    }
    const kindText = field('kind') ?? 'rw'
    if (!(kinds as ReadonlyArray<string>).includes(kindText)) {
      fail(`attribute "${a.key}": unknown kind "${kindText}"`, Node.get(spec, 'kind')!.value.at, 'kind is r, w or rw')
      ok = false
      continue
    }
    out.push({ name: a.key, desc: field('desc') ?? '', type: type.right, kind: kindText as Kind })
  }
  const nameAttr = out.find((a) => a.name === 'name')
  if (ok && nameAttr === undefined) {
    fail('provider.attributes has no "name" attribute, but every provider must describe it', e.value.at)
    return undefined
  }
  if (nameAttr !== undefined && nameAttr.type._tag !== 'String') {
    fail(`attribute "name" must be of type string, not ${Value.formatType(nameAttr.type)}`, e.value.at)
    return undefined
  }
  if (!ok || nameAttr === undefined) return undefined
  return Object.freeze([nameAttr, ...out.filter((a) => a.name !== 'name')])
}

// combinators

/** The attribute of a given name. */
export const attribute = (m: Metadata, name: string): Attribute | undefined => {
  let byName = attributesByName.get(m)
  if (byName === undefined) {
    // The first of a name, as a search in order finds it; made once per metadata, as replies ask for every key they hold.
    byName = new Map()
    for (const a of m.attributes) if (!byName.has(a.name)) byName.set(a.name, a)
    attributesByName.set(m, byName)
  }
  return byName.get(name)
}

const attributesByName = new WeakMap<Metadata, Map<string, Attribute>>()

/** True for attributes that update may set: not `name`, not read-only. */
export const isWritable = (a: Attribute): boolean => a.name !== 'name' && a.kind !== 'r'

/** True for attributes that list and find report: not write-only. */
export const isReadable = (a: Attribute): boolean => a.kind !== 'w'

/** The commands a suitability check looks for. */
export const commandsOf = (s: Suitable): ReadonlyArray<string> => (s._tag === 'Fixed' ? [] : s.checks.map((c) => c.command))

/** Evaluates suitability given a lookup of commands on PATH; returns why not when unsuitable. */
export const suitability = (s: Suitable, onPath: (command: string) => boolean): E.Either<string, true> => {
  if (s._tag === 'Fixed') return s.value ? E.right(true) : E.left('its metadata says suitable: false')
  for (const c of s.checks) {
    const found = onPath(c.command)
    if (c.present && !found) return E.left(`command "${c.command}" is not on PATH`)
    if (!c.present && found) return E.left(`command "${c.command}" is on PATH`)
  }
  return E.right(true)
}
