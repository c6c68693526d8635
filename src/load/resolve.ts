// resolve: the effect stage just before compile that replaces plugin references (`_plugin: NAME`
// maps, as Bolt writes them) in the manifest and the `--hiera` document with the values their
// plugins give. Inner references are resolved first (a reference's parameters may hold
// references), and a plugin's result is resolved again when it holds references itself, up to
// `depthLimit` levels. Compile sees only resolved documents and stays pure; a reference no plugin
// answers is an error at its position, never data passed on as it is.
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type { Position } from '../core/Position.js'
import * as Fault from '../core/Fault.js'
import * as Literals from '../core/Literals.js'
import * as Terminal from '../core/Terminal.js'
import * as Json from '../manifest/expr/Json.js'
import * as Node from '../manifest/Node.js'
import * as References from '../manifest/References.js'
import * as Append from '../core/Append.js'

// model

/** What a plugin gave for a reference: the value, and whether it is sensitive (it came from a secret plugin). */
export interface Answer {
  readonly value: unknown
  readonly sensitive: boolean
}

/** Runs one plugin for a reference: what it gives, or the fault that stopped it. */
export type Resolver = (reference: References.Reference) => TE.TaskEither<Fault.Fault, Answer>

/** The plugins a run can resolve references with, by name. */
export type Resolvers = ReadonlyMap<string, Resolver>

/**
 * One reference of a document (not one inside another's parameters or result), as written and as
 * resolved: a plan input. `sensitive` when its plugin, or any plugin its parameters or its result
 * needed, is a secret plugin; then `value` must never be shown or saved in clear.
 */
export interface Resolved {
  readonly plugin: string
  readonly at: Position
  /** The reference as the document writes it, its inner references unresolved: what apply resolves again. */
  readonly reference: Readonly<Record<string, unknown>>
  readonly value: unknown
  readonly sensitive: boolean
}

/** A document with its references resolved, and the references it held, in document order. */
export interface Outcome {
  readonly node: Node.Node
  readonly resolved: ReadonlyArray<Resolved>
}

/** How many times a plugin's result may itself be a reference that is resolved again (a plugin that answers with itself stops here). */
export const depthLimit = 32

/** The name under which a table may hold the resolver of every plugin it does not name (validate's placeholders). */
export const anyPlugin = '*'

/** The plugins of a run that has none. */
export const none: Resolvers = new Map()

type Result = E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.Node>

/** What a walk gathers: the document's references (top level only), and whether anything it resolved was sensitive. */
interface Gathered {
  readonly resolved: Resolved[] | undefined
  sensitive: boolean
  /** The texts of every sensitive value resolved (hidden from the messages of the plugins that got them). */
  readonly secrets: string[]
}

// guards

/** False when a document's text cannot hold a reference (it never says `_plugin`): the stage then leaves it unparsed and unwalked. */
export const mayRefer = (text: string): boolean => text.includes(References.pluginKey)

// combinators

/** Resolves every reference of a document; a document without one is given back as it is, without a walk. */
export const resolve = async (doc: Node.Node, resolvers: Resolvers): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Outcome>> => {
  if (!References.any(doc)) return E.right({ node: doc, resolved: [] })
  const g: Gathered = { resolved: [], sensitive: false, secrets: [] }
  return E.map((node: Node.Node): Outcome => ({ node, resolved: g.resolved ?? [] }))(await walk(doc, resolvers, 0, g))
}

/**
 * The sensitive texts of a value: every string and number in it (keys and booleans are its shape,
 * not its secret), each with the forms it takes where plait shows it (see `forms`).
 */
export const texts = (v: unknown): ReadonlyArray<string> => [...new Set(values(v).flatMap(forms))]

/** The shortest derived form that is redacted: a shorter line or trimmed form would match too much that is not the secret (a whole value is redacted whatever its length). */
export const minForm = 4

/**
 * A sensitive text and the forms it takes on its way to a terminal or a file, so that redacting
 * each form catches it where it is split, trimmed or escaped: each of its lines (a diff, a
 * command's output line by line) and trimmed (an excerpt of stderr), each of those escaped as
 * JSON, as the expression language's toJSON writes it, as a terminal field or text shows it, and
 * both (a terminal field of a JSON string). Lines and trimmed forms shorter than `minForm` are
 * left out; an escape is kept whatever its length (it is as long as what it escapes, or longer).
 */
export const forms = (t: string): ReadonlyArray<string> => {
  const out = [t]
  const seen = new Set(out)
  const add = (f: string, min: number): void => {
    if (f !== '' && f.length >= min && !seen.has(f)) {
      seen.add(f)
      out.push(f)
    }
  }
  add(t.trim(), minForm)
  for (const line of t.split(/\r?\n/)) {
    add(line, minForm)
    add(line.trim(), minForm)
  }
  for (const f of [...out]) {
    const json = JSON.stringify(f).slice(1, -1)
    for (const escaped of [json, Json.quote(f).slice(1, -1), Terminal.field(f), Terminal.text(f), Terminal.field(json), Terminal.json(json)]) add(escaped, 0)
  }
  return out
}

/** The strings and numbers of a value, as they are (numbers as JSON writes them): what `texts` takes the forms of. */
export const values = (v: unknown): ReadonlyArray<string> => {
  if (typeof v === 'string') return [v]
  if (typeof v === 'number') return [String(v)]
  if (Array.isArray(v)) return v.flatMap(values)
  if (typeof v === 'object' && v !== null) return Object.values(v).flatMap(values)
  return []
}

const walk = async (n: Node.Node, resolvers: Resolvers, depth: number, g: Gathered): Promise<Result> => {
  switch (n._tag) {
    case 'Scalar':
      return E.right(n)
    case 'Seq': {
      const items = await all(n.items.map((i) => () => walk(i, resolvers, depth, g)))
      return E.map((xs: ReadonlyArray<Node.Node>): Node.Node => ({ ...n, items: xs }))(items)
    }
    case 'Map': {
      const plugin = References.pluginEntry(n)
      if (plugin !== undefined) return reference(n, plugin, resolvers, depth, g)
      const values = await all(n.entries.map((e) => () => walk(e.value, resolvers, depth, g)))
      return E.map((vs: ReadonlyArray<Node.Node>): Node.Node => ({ ...n, entries: n.entries.map((e, i) => ({ ...e, value: vs[i]! })) }))(values)
    }
  }
}

/** Resolves one reference: its parameters first, then the plugin, then whatever references its value holds. */
const reference = async (n: Node.MapNode, plugin: Node.Entry, resolvers: Resolvers, depth: number, g: Gathered): Promise<Result> => {
  const name = plugin.value
  if (name._tag !== 'Scalar' || typeof name.value !== 'string' || name.value === '') {
    return E.left([Diagnostic.make('Decode', `${References.pluginKey} must name a plugin (a non-empty string), not ${name._tag === 'Scalar' && name.value === '' ? 'an empty string' : Node.describe(name)}`, { at: name.at })])
  }
  const resolver = resolvers.get(name.value) ?? resolvers.get(anyPlugin)
  if (resolver === undefined) {
    const known = [...resolvers.keys()].filter((k) => k !== anyPlugin).sort()
    return E.left([
      Diagnostic.make('Reference', `${References.pluginKey}: ${JSON.stringify(name.value)}: no plugin of that name`, {
        at: plugin.keyAt,
        hint: known.length === 0 ? 'no reference plugins are available' : `reference plugins: ${known.join(', ')}`,
      }),
    ])
  }
  if (depth >= depthLimit) {
    return E.left([Diagnostic.make('Reference', `${References.pluginKey}: ${JSON.stringify(name.value)}: plugin results hold references ${depthLimit} levels deep`, { at: plugin.keyAt, hint: 'a plugin that answers with a reference to itself never ends' })])
  }
  // Inner references are not plan inputs of their own: the reference that holds them is, and is resolved again whole.
  const inner: Gathered = { resolved: undefined, sensitive: false, secrets: [] }
  const params = await all(n.entries.filter((e) => e !== plugin).map((e) => async () => E.map((v: Node.Node) => [e.key, Node.toJS(v)] as const)(await walk(e.value, resolvers, depth, inner))))
  if (E.isLeft(params)) return params
  const answer = await resolver({ plugin: name.value, parameters: Object.fromEntries(params.right), at: plugin.keyAt })()
  // A plugin given a secret may quote it in its error: the message is shown without it.
  if (E.isLeft(answer)) return E.left([Diagnostic.make('Reference', `${References.pluginKey}: ${JSON.stringify(name.value)}: ${hide(inner.secrets, Fault.render(answer.left))}`, { at: plugin.keyAt })])
  if (answer.right.sensitive) {
    inner.sensitive = true
    Append.append(inner.secrets, texts(answer.right.value))
  }
  const node = References.nodeOf(answer.right.value, plugin.keyAt)
  const result = References.any(node) ? await walk(node, resolvers, depth + 1, inner) : E.right(node)
  if (E.isLeft(result)) return result
  if (inner.sensitive) {
    g.sensitive = true
    Append.append(g.secrets, inner.secrets)
  }
  g.resolved?.push({ plugin: name.value, at: plugin.keyAt, reference: Node.toJS(n) as Record<string, unknown>, value: Node.toJS(result.right), sensitive: inner.sensitive })
  return result
}

/**
 * A hider of sensitive texts: a message with every text in it replaced by `[sensitive]`, longest
 * first, each in the message as the longer ones left it. The texts are prepared once: one secret
 * of many lines is thousands of texts, and a report hides every string it prints, so a message
 * none of them is in is found so by Literals.finder (all at once, once that pays) and given back
 * as it is.
 */
export const hider = (secrets: ReadonlyArray<string>): ((message: string) => string) => {
  const longestFirst = [...new Set(secrets)].filter((x) => x !== '').sort((a, b) => b.length - a.length)
  if (longestFirst.length === 0) return (message) => message
  const found = Literals.finder(longestFirst)
  return (message) => (found(message) ? longestFirst.reduce((m, x) => (m.includes(x) ? m.split(x).join('[sensitive]') : m), message) : message)
}

/** A message with every sensitive text in it replaced by `[sensitive]` (see `hider`, for many messages). */
export const hide = (secrets: ReadonlyArray<string>, message: string): string => hider(secrets)(message)

/** Runs the tasks in order (plugins are programs: one at a time, in document order), gathering every error. */
const all = async <A>(tasks: ReadonlyArray<() => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, A>>>): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ReadonlyArray<A>>> => {
  const out: A[] = []
  const problems: Diagnostic.Diagnostic[] = []
  for (const task of tasks) {
    const r = await task()
    if (E.isLeft(r)) Append.append(problems, r.left)
    else out.push(r.right)
  }
  return problems.length > 0 ? E.left(problems) : E.right(out)
}
