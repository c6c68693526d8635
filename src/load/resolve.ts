// resolve: the effect stage just before compile that replaces plugin references (`_plugin: NAME`
// maps, as Bolt writes them) in the manifest and the `--hiera` document with the values their
// plugins give. Inner references are resolved first (a reference's parameters may hold
// references), and a plugin's result is resolved again when it holds references itself, up to
// `depthLimit` levels. Compile sees only resolved documents and stays pure; a reference no plugin
// answers is an error at its position, never data passed on as it is.
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Node from '../manifest/Node.js'
import * as References from '../manifest/References.js'

// model

/** Runs one plugin for a reference: the value it gives, or the fault that stopped it. */
export type Resolver = (reference: References.Reference) => TE.TaskEither<Fault.Fault, unknown>

/** The plugins a run can resolve references with, by name. */
export type Resolvers = ReadonlyMap<string, Resolver>

/** How many times a plugin's result may itself be a reference that is resolved again (a plugin that answers with itself stops here). */
export const depthLimit = 32

/** The plugins of a run that has none. */
export const none: Resolvers = new Map()

type Result = E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.Node>

// guards

/** False when a document's text cannot hold a reference (it never says `_plugin`): the stage then leaves it unparsed and unwalked. */
export const mayRefer = (text: string): boolean => text.includes(References.pluginKey)

// combinators

/** Resolves every reference of a document; a document without one is given back as it is, without a walk. */
export const resolve = async (doc: Node.Node, resolvers: Resolvers): Promise<Result> => (References.any(doc) ? walk(doc, resolvers, 0) : E.right(doc))

const walk = async (n: Node.Node, resolvers: Resolvers, depth: number): Promise<Result> => {
  switch (n._tag) {
    case 'Scalar':
      return E.right(n)
    case 'Seq': {
      const items = await all(n.items.map((i) => () => walk(i, resolvers, depth)))
      return E.map((xs: ReadonlyArray<Node.Node>): Node.Node => ({ ...n, items: xs }))(items)
    }
    case 'Map': {
      const plugin = References.pluginEntry(n)
      if (plugin !== undefined) return reference(n, plugin, resolvers, depth)
      const values = await all(n.entries.map((e) => () => walk(e.value, resolvers, depth)))
      return E.map((vs: ReadonlyArray<Node.Node>): Node.Node => ({ ...n, entries: n.entries.map((e, i) => ({ ...e, value: vs[i]! })) }))(values)
    }
  }
}

/** Resolves one reference: its parameters first, then the plugin, then whatever references its value holds. */
const reference = async (n: Node.MapNode, plugin: Node.Entry, resolvers: Resolvers, depth: number): Promise<Result> => {
  const name = plugin.value
  if (name._tag !== 'Scalar' || typeof name.value !== 'string' || name.value === '') {
    return E.left([Diagnostic.make('Decode', `${References.pluginKey} must name a plugin (a non-empty string), not ${name._tag === 'Scalar' && name.value === '' ? 'an empty string' : Node.describe(name)}`, { at: name.at })])
  }
  const resolver = resolvers.get(name.value)
  if (resolver === undefined) {
    const known = [...resolvers.keys()].sort()
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
  const params = await all(n.entries.filter((e) => e !== plugin).map((e) => async () => E.map((v: Node.Node) => [e.key, Node.toJS(v)] as const)(await walk(e.value, resolvers, depth))))
  if (E.isLeft(params)) return params
  const value = await resolver({ plugin: name.value, parameters: Object.fromEntries(params.right), at: plugin.keyAt })()
  if (E.isLeft(value)) return E.left([Diagnostic.make('Reference', `${References.pluginKey}: ${JSON.stringify(name.value)}: ${Fault.render(value.left)}`, { at: plugin.keyAt })])
  const node = References.nodeOf(value.right, plugin.keyAt)
  return References.any(node) ? walk(node, resolvers, depth + 1) : E.right(node)
}

/** Runs the tasks in order (plugins are programs: one at a time, in document order), gathering every error. */
const all = async <A>(tasks: ReadonlyArray<() => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, A>>>): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ReadonlyArray<A>>> => {
  const out: A[] = []
  const problems: Diagnostic.Diagnostic[] = []
  for (const task of tasks) {
    const r = await task()
    if (E.isLeft(r)) problems.push(...r.left)
    else out.push(r.right)
  }
  return problems.length > 0 ? E.left(problems) : E.right(out)
}
