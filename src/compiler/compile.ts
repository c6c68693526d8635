// compile: manifest text → Catalog (pure): parse with positions, decode, resolve templates, validate.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Annotations from '../manifest/Annotations.js'
import type * as DeferredM from '../core/Deferred.js'
import type * as Evaluate from '../manifest/expr/Evaluate.js'
import * as Manifest from '../manifest/Manifest.js'
import * as Node from '../manifest/Node.js'
import * as Value from '../manifest/expr/Value.js'
import * as Yaml from '../manifest/Yaml.js'
import * as Registry from '../types/registry.js'
import type * as Deferral from '../types/Deferral.js'
import * as Properties from '../types/Properties.js'
import type { AnyType } from '../types/ResourceType.js'
import type { Catalog, Links as CatalogLinks, Read, Resource } from './Catalog.js'
import * as References from './References.js'
import * as Append from '../core/Append.js'
import { once } from '../core/Memo.js'

/** How many syntax errors are shown: after the first few, a YAML parser's errors are mostly echoes of them. */
export const syntaxErrorLimit = 3

const firstSyntaxErrors = (file: string, ds: ReadonlyArray<Diagnostic.Diagnostic>): ReadonlyArray<Diagnostic.Diagnostic> =>
  ds.length <= syntaxErrorLimit
    ? ds
    : [
        ...ds.slice(0, syntaxErrorLimit),
        Diagnostic.make('Syntax', `${ds.length - syntaxErrorLimit} more syntax errors, most likely caused by the first; fix it and run again`, {
          at: { file, line: ds[syntaxErrorLimit]!.at?.line ?? 1, col: ds[syntaxErrorLimit]!.at?.col ?? 1 },
        }),
      ]

/** The facts and environ values a manifest read, each once, sorted, with a digest of what was there (worked out when first read). */
export const readsOf = (reads: ReadonlyArray<Evaluate.Read>, inputs: Inputs): ReadonlyArray<Read> => {
  const out = new Map<string, Read>()
  for (const r of reads) {
    if (r.root === 'data') continue
    const path = r.path.map((seg) => seg.replaceAll('.', '\\.')).join('.')
    const key = `${r.root}:${path}`
    if (out.has(key)) continue
    // the value as it is now, hashed when first asked: a plan shown to a person never asks (see manifestInput)
    const canonical = Digest.canonical(valueAt(r.root === 'facts' ? inputs.facts : inputs.environ, r.path) ?? null)
    const sha256 = once(() => Digest.sha256(canonical))
    out.set(key, {
      root: r.root,
      path,
      get sha256() {
        return sha256()
      },
    })
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r)
}

/**
 * The manifest as a plan's input: its file, and the sha256 of its text worked out when first read,
 * then kept. A plan saved, applied or compared reads it; a plan shown to a person does not, and a
 * manifest of 10,000 files is 3 MB to hash (about 6 ms, and the loading of node:crypto for a plan
 * that hashes nothing else).
 */
const manifestInput = (file: string, text: string): Catalog['manifest'] => {
  let sha256: string | undefined
  return {
    file,
    get sha256() {
      return (sha256 ??= Digest.sha256(text))
    },
  }
}

/** The files the manifest read (readFile, file, template), each once in first-read order, with a digest of what was read. */
export const filesOf = (paths: ReadonlyArray<string>, inputs: Inputs): ReadonlyArray<{ readonly path: string; readonly sha256: string }> => {
  const out = new Map<string, string>()
  for (const p of paths) {
    if (out.has(p)) continue
    const text = inputs.readFile?.(p)
    out.set(p, text === undefined || E.isLeft(text) ? '' : Digest.sha256(text.right))
  }
  return [...out].map(([path, sha256]) => ({ path, sha256 }))
}

const valueAt = (root: unknown, path: ReadonlyArray<string>): unknown => {
  let cur = root
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = Array.isArray(cur) ? cur[Number(seg)] : Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined
  }
  return cur
}

/** Keeps one unknown-key error per key position: a bad key in `defaults` is reported once, not once per resource using it. */
const onePerKey = (ds: ReadonlyArray<Diagnostic.Diagnostic>): Diagnostic.Diagnostic[] => {
  const seen = new Set<string>()
  return ds.filter((d) => {
    if (d.code !== 'UnknownKey' || d.at === undefined) return true
    const k = `${d.at.file}:${d.at.line}:${d.at.col}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** True when a line of a text has a `#` before an `@` (as /#[^\n]*@/ tests): a comment may hold an annotation. Each line is looked at a few times at most. */
export const commentHasAt = (text: string): boolean => {
  for (let at = text.indexOf('@'); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1
    const newline = text.indexOf('\n', at)
    const end = newline < 0 ? text.length : newline
    const lastAt = text.lastIndexOf('@', end - 1)
    for (let i = start; i < lastAt; i++) if (text.charCodeAt(i) === HASH) return true
    if (newline < 0) return false
    at = text.indexOf('@', end)
  }
  return false
}

const HASH = 35

/** A raw resource's first entry of a key. */
const entryOf = (raw: Manifest.RawResource, key: string): Node.Entry | undefined => {
  for (const e of raw.props) if (e.key === key) return e
  return undefined
}

/** The `provider:` a raw resource gives, when it is a plain string (templates are not resolved here). */
const providerOf = (raw: Manifest.RawResource): string | undefined => {
  const e = entryOf(raw, 'provider')
  return e !== undefined && e.value._tag === 'Scalar' && typeof e.value.value === 'string' ? e.value.value : undefined
}

/**
 * Compiles a manifest. `file` names it in diagnostics and in the plan; `baseDir` is the directory
 * relative `source` paths resolve against (the manifest's own directory).
 */
/** What a compilation reads besides the manifest: the facts, the environment and a `--hiera` file. */
export interface Inputs {
  readonly facts?: unknown
  readonly environ?: Readonly<Record<string, string>>
  /** The `--hiera` document: its text (digests, annotations) and, when the resolve stage has replaced its plugin references, its resolved tree. */
  readonly hiera?: { readonly file: string; readonly text: string; readonly tree?: Node.Node }
  /** The plugin types found at run time (libral providers' types): manifest resource types too. */
  readonly plugins?: ReadonlyArray<Registry.Plugin>
  /** The time `now()` gives; recorded in the plan when the manifest calls it. */
  readonly now?: Value.Time
  /** Reads a file relative to the manifest's directory (`readFile`, `file`, `template`); the plan records each file read, with a digest. */
  readonly readFile?: (path: string) => E.Either<string, string>
  /** The host directory of the target's root ("/", or `--root`): a value that reads a file an earlier resource manages there is deferred. */
  readonly root?: string
}

/** Copies the value at a path of `from` into `into` (making the maps on the way); a missing value is left out. */
const copyAt = (from: unknown, into: Record<string, unknown>, path: ReadonlyArray<string>): void => {
  const value = valueAt(from, path)
  if (value === undefined || path.length === 0) return
  let cur = into
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg]
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[seg] = {}
    cur = cur[seg] as Record<string, unknown>
  }
  cur[path[path.length - 1]!] = value
}

/** The snapshot of what a deferred template read at plan time, from the compile's inputs and the manifest's data. */
const snapshotOf = (inputs: Inputs, data: unknown) => (reads: Evaluate.Reads): DeferredM.Snapshot => {
  const roots = { facts: {} as Record<string, unknown>, data: {} as Record<string, unknown>, environ: {} as Record<string, string> }
  for (const r of reads.values) {
    if (r.path.length === 0) {
      if (r.root === 'facts') Object.assign(roots.facts, inputs.facts ?? {})
      else if (r.root === 'data') Object.assign(roots.data, data ?? {})
      else Object.assign(roots.environ, inputs.environ ?? {})
    } else copyAt(r.root === 'facts' ? inputs.facts : r.root === 'data' ? data : inputs.environ, roots[r.root] as Record<string, unknown>, r.path)
  }
  const files: Record<string, string> = {}
  for (const f of reads.files) {
    const text = inputs.readFile?.(f)
    if (text !== undefined && E.isRight(text)) files[f] = text.right
  }
  return { roots, files, ...(reads.clock && inputs.now !== undefined ? { now: Value.isoTime(inputs.now) } : {}) }
}

export const compile = (file: string, text: string, baseDir: string, inputs: Inputs = {}): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Catalog> =>
  E.chain((tree: Node.Node) => compileTree(file, text, tree, baseDir, inputs))(parse(file, text))

/** Parses a manifest's YAML, keeping positions (the first stage of compile). */
export const parse = (file: string, text: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.Node> =>
  E.mapLeft((ds: ReadonlyArray<Diagnostic.Diagnostic>) => firstSyntaxErrors(file, ds))(Yaml.parse(file, text))

/**
 * True when a parsed manifest may use libral providers: a resource type plait does not have, or a
 * `provider:` with a `::` (a libral provider's full name). Callers discover providers (an effect) only then.
 */
export const usesProviders = (tree: Node.Node): boolean => {
  const ccm = tree._tag === 'Map' ? Node.get(tree, 'ccm') : undefined
  const list = ccm !== undefined && ccm.value._tag === 'Map' ? Node.get(ccm.value, 'resources') : undefined
  if (list === undefined || list.value._tag !== 'Seq') return false
  for (const item of list.value.items) {
    if (item._tag !== 'Map') continue
    for (const e of item.entries) if (!Registry.isBuiltIn(e.key) || namesProvider(e.value)) return true
  }
  return false
}

/**
 * Whether a `provider:` below a node names a libral provider (has a `::`). A loop over a stack of
 * the nodes still to look at, not a recursion of `some` callbacks: it visits every node of a
 * manifest's resources (70,000 in a manifest of 10,000 files), most of them before any code is hot.
 */
const namesProvider = (top: Node.Node): boolean => {
  const stack: Node.Node[] = [top]
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n._tag === 'Seq') for (const item of n.items) stack.push(item)
    else if (n._tag === 'Map') {
      for (const e of n.entries) {
        const v = e.value
        if (v._tag === 'Scalar') {
          if (e.key === 'provider' && v.text.includes('::')) return true
        } else stack.push(v)
      }
    }
  }
  return false
}


/** Compiles a parsed manifest (`text` is its source, for digests and annotations). */
export const compileTree = (file: string, text: string, root: Node.Node, baseDir: string, inputs: Inputs = {}): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Catalog> => {
  const hiera = inputs.hiera === undefined ? undefined : inputs.hiera.tree !== undefined ? E.right(inputs.hiera.tree) : Yaml.parse(inputs.hiera.file, inputs.hiera.text)
  if (hiera !== undefined && E.isLeft(hiera)) return E.left(firstSyntaxErrors(inputs.hiera!.file, hiera.left))
  const decoded = Manifest.decode(file, root, {
    ...(inputs.now !== undefined ? { now: inputs.now } : {}),
    ...(inputs.readFile !== undefined ? { readFile: inputs.readFile } : {}),
    ...(inputs.facts !== undefined ? { facts: inputs.facts } : {}),
    ...(inputs.environ !== undefined ? { environ: inputs.environ } : {}),
    ...(hiera !== undefined && E.isRight(hiera) ? { hiera: hiera.right } : {}),
  })
  const m = decoded.manifest
  const problems: Diagnostic.Diagnostic[] = [...decoded.problems]
  // CCM's data annotations (@require, @validate) hold for the data after the hierarchy resolved.
  const warnings: Diagnostic.Diagnostic[] = []
  // Without an "@" in a comment there can be no annotation: skip the second parse (1.6 s at 10k resources).
  for (const doc of [{ file, text }, ...(inputs.hiera !== undefined ? [inputs.hiera] : [])]) {
    if (m.dataNode === undefined || !commentHasAt(doc.text)) continue
    const annotations = Annotations.extract(doc.file, doc.text)
    if (E.isLeft(annotations)) Append.append(problems, annotations.left)
    else {
      Append.append(warnings, annotations.right.warnings)
      Append.append(problems, Annotations.check(m.dataNode, annotations.right.rules))
    }
  }
  const types = Registry.types(inputs.plugins ?? [])
  for (const g of m.types) {
    // A group's type is known when plait has it or a plugin brings it (with or without a `provider:`).
    if (types.lookup(g.type, undefined) === undefined) {
      problems.push(Diagnostic.make('Decode', `unknown resource type "${g.type}"`, { at: g.at, hint: `known types: ${types.names.join(', ')}` }))
    }
  }
  // A defaults entry's keys are checked even when no resource follows it to use them.
  for (const d of m.defaults) {
    const own = Registry.isBuiltIn(d.type) ? types.lookup(d.type, undefined)?.keys : undefined
    if (own === undefined) continue // a plugin type's attributes are checked against its provider, per resource
    const allowed = [...own, ...Properties.keys]
    for (const e of d.props) {
      if (!allowed.includes(e.key)) {
        problems.push(Diagnostic.make('UnknownKey', `unknown property "${e.key}" in ${d.type} defaults`, { at: e.keyAt, hint: `allowed: ${allowed.join(', ')}` }))
      }
    }
  }
  const scope = m.scope
  const resources: Resource[] = []
  // The type of each of `resources`, at the same index.
  const typeOf: AnyType[] = []
  const seen = new Map<string, Resource>()
  // The files earlier file resources manage, by machine path, for deferring values that read them
  // (a host path is the root's path and the machine path: no string is made per resource to key it);
  // filled from `resources` up to the resource being decoded.
  const managed = new Map<string, { readonly id: string; readonly path: string }>()
  let managedUpTo = 0
  const machineRoot = inputs.root ?? '/'
  const managedAt = (hostPath: string) => {
    for (; managedUpTo < resources.length; managedUpTo++) {
      const r = resources[managedUpTo]!
      const path = r._tag === 'skipped' ? undefined : typeOf[managedUpTo]!.manages?.(r)
      if (path !== undefined) managed.set(path, { id: r.id, path })
    }
    return machineRoot === '/' ? managed.get(hostPath) : hostPath.startsWith(machineRoot) ? managed.get(hostPath.slice(machineRoot.length)) : undefined
  }
  const deferral: Deferral.Deferral = { managedAt, snapshot: snapshotOf(inputs, m.data) }
  const decodeEnv = { scope, baseDir, deferral }
  const references = References.make(m.resources)
  const links = new Map<string, CatalogLinks>()
  const noIds: ReadonlyArray<string> = Object.freeze([])
  const subscribing = types.names.filter((n) => types.lookup(n, undefined)?.subscribes === true)
  const accepting: Properties.Subscribers = { accepts: true, kinds: subscribing }
  const refusing: Properties.Subscribers = { accepts: false, kinds: subscribing }
  // Consecutive resources are mostly of one type and provider (a group): its lookup is kept.
  let last: { readonly type: string; readonly provider: string | undefined; readonly found: AnyType | undefined } | undefined
  // Without plugins, a type is plait's own whatever `provider:` says: it need not be looked for.
  const plugins = inputs.plugins ?? []
  for (let index = 0; index < m.resources.length; index++) {
    const whole = m.resources[index]!
    // `provider` is not a common property: the rest names the same provider as the whole.
    const provider = plugins.length === 0 ? undefined : providerOf(whole)
    if (last === undefined || last.type !== whole.type || last.provider !== provider) last = { type: whole.type, provider, found: types.lookup(whole.type, provider) }
    const type = last.found
    const split = Properties.decode(whole, scope, type?.subscribes === true ? accepting : refusing)
    const id = Manifest.idOf(whole)
    if (split.problems.length > 0) Append.append(problems, split.problems.map(Diagnostic.withResource(id)))
    const require = split.common.require.length === 0 ? noIds : references.resolve(split.common.require, 'require', index, id, problems)
    const subscribe = split.common.subscribe.length === 0 ? noIds : references.resolve(split.common.subscribe, 'subscribe', index, id, problems)
    const alias = split.common.alias
    if (alias !== undefined && alias.text !== id && references.isId(alias.text)) {
      problems.push(Diagnostic.make('Duplicate', `alias ${alias.text} is the id of another resource of this manifest`, { at: alias.at, resource: id, hint: 'an alias must not look like another resource' }))
    } else if (alias !== undefined) {
      const taken = references.earlier(alias.text, index)
      if (taken !== undefined) problems.push(Diagnostic.make('Duplicate', `alias ${alias.text} is already ${taken === alias.text ? 'a resource id' : `the alias of ${taken}`}`, { at: alias.at, resource: id }))
    }
    if (require.length > 0 || subscribe.length > 0 || split.common.healthChecks.length > 0) links.set(id, { require, subscribe, healthChecks: split.common.healthChecks })
    const raw = split.rest
    // Later references to this resource resolve even when it does not decode (its own errors say why).
    if (alias !== undefined) references.noteAlias(alias.text, whole.type, id)
    // The type decodes it: plait's own, unless its `provider:` names a plugin's by its full name; or a plugin's type.
    if (type === undefined) continue // an unknown type: reported once for its group, above
    const decoded: E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resource> = type.decode(raw, decodeEnv)
    // A resource its control skips keeps only its name: its properties are checked for unknown keys, never resolved.
    const spec: E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resource> =
      split.common.control.skip === undefined
        ? decoded
        : E.isLeft(decoded) && decoded.left.some((d) => d.code === 'UnknownKey')
          ? E.left(decoded.left.filter((d) => d.code === 'UnknownKey'))
          : E.right({ _tag: 'skipped', kind: type.kind, id, type: raw.type, name: raw.name, at: raw.nameAt, reason: split.common.control.skip })
    if (E.isLeft(spec)) {
      Append.append(problems, spec.left)
      continue
    }
    const prior = seen.get(spec.right.id)
    if (prior !== undefined) {
      problems.push(
        Diagnostic.make('Duplicate', `duplicate resource ${spec.right.id} (first declared at ${prior.at.line}:${prior.at.col})`, {
          at: spec.right.at,
          resource: spec.right.id,
        }),
      )
      continue
    }
    seen.set(spec.right.id, spec.right)
    resources.push(spec.right)
    typeOf.push(type)
  }
  if (problems.length > 0) return E.left(onePerKey(problems).sort(Diagnostic.compare))
  const catalog: Catalog = {
    manifest: manifestInput(file, text),
    warnings: [...warnings].sort(Diagnostic.compare),
    reads: readsOf(m.scope.reads, inputs),
    files: filesOf(m.scope.files, inputs),
    ...(m.scope.clock.read && inputs.now !== undefined ? { clock: Value.isoTime(inputs.now) } : {}),
    ...(inputs.hiera !== undefined ? { hiera: { file: inputs.hiera.file, sha256: Digest.sha256(inputs.hiera.text) } } : {}),
    failOnError: m.failOnError,
    resources,
    links,
    ...(m.preMessage !== undefined ? { preMessage: m.preMessage } : {}),
    ...(m.postMessage !== undefined ? { postMessage: m.postMessage } : {}),
  }
  return E.right(catalog)
}
