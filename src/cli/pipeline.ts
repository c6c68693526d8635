// pipeline: the top-level wiring, read → resolve plugin references → compile (files it reads loaded once) → load sources → observe → plan → seal, as the design's diagram draws it.
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Position from '../core/Position.js'
import type * as Plan from '../core/Plan.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as Compile from '../compiler/compile.js'
import * as Planner from '../compiler/plan.js'
import { observe, type ReadHost } from '../observe/observe.js'
import * as Errno from '../interpreters/Errno.js'
import type { Machine } from '../interpreters/Machine.js'
import * as HostFile from '../interpreters/posix/hostFile.js'
import * as Load from '../load/load.js'
import * as Resolve from '../load/resolve.js'
import type * as Node from '../manifest/Node.js'
import type { Session } from '../interpreters/libral/Session.js'
import type * as Interpreters from '../interpreters/families.js'
import * as Types from '../types/registry.js'
import * as Value from '../manifest/expr/Value.js'
import * as Heap from './heap.js'
import * as Held from './held.js'
import * as Sensitive from './sensitive.js'

/** Reads a host input file as bytes (regular files only, bounded), with errors as faults; a large one makes the run's heap lean (heap.ts). */
export const readHost: ReadHost = async (path) => {
  try {
    const bytes = HostFile.read(path)
    Heap.reading(bytes.length)
    return E.right(bytes)
  } catch (e) {
    const code = HostFile.codeOf(e)
    const tag: Fault.Tag = code === 'ENOENT' ? 'NotFound' : code === 'EACCES' ? 'PermissionDenied' : code === 'EISDIR' ? 'IsADirectory' : 'Failed'
    const description = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : e instanceof HostFile.InputError ? e.message : (e as Error).message
    return E.left(Fault.make(tag, 'host', 'read', path, description))
  }
}

/** Reads a manifest as text, or a diagnostic naming it. */
export const readManifest = async (path: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, string>> => {
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return E.left([Diagnostic.make('Io', `cannot read manifest ${path}: ${bytes.left.description}`)])
  try {
    return E.right(new TextDecoder('utf-8', { fatal: true }).decode(bytes.right))
  } catch {
    return E.left([Diagnostic.make('Io', `cannot read manifest ${path}: not UTF-8 text`)])
  }
}

/** Where a manifest's facts come from: this machine's (the default), or another's (`--facts FILE`), with `--fact` on top. */
export interface FactSource {
  readonly factsFile?: string
  readonly assignments: ReadonlyArray<string>
  /** `--hiera FILE`: a data document deep-merged on top of the manifest's data. */
  readonly hiera?: string
  /** `--now TIME`: the time `now()` gives (RFC 3339), instead of the clock's. */
  readonly now?: string
}

/** The time `now()` gives: `--now TIME`, else the clock's (read here, at the edge; the compiler takes it as an input). */
export const nowOf = (source: FactSource): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Value.Time> => {
  const t = source.now === undefined ? Value.time(Date.now()) : Value.time(source.now)
  return t === undefined ? E.left([Diagnostic.make('Validation', `--now ${source.now}: not an RFC 3339 time`, { hint: 'for example --now 2026-11-23T10:00:00Z' })]) : E.right(t)
}

/**
 * The file reader of `readFile`, `file` and `template`: UTF-8 text of a path below the manifest's
 * directory, read through handles so that neither `..` nor a symlink leads outside it.
 */
export const fileReader = (baseDir: string) => (path: string): E.Either<string, string> => {
  try {
    return E.right(new TextDecoder('utf-8', { fatal: true }).decode(HostFile.readBelow(baseDir, path)))
  } catch (e) {
    const code = HostFile.codeOf(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return E.left(`open ${path}: no such file or directory`)
    if (code === 'EISDIR') return E.left(`read ${path}: is a directory`)
    if (e instanceof TypeError) return E.left(`${path} is not UTF-8 text`)
    if (e instanceof HostFile.InputError) return E.left(`${path} ${e.message}`)
    if (Errno.isFault(e) && e._tag === 'Escape') return E.left(`${path} is outside the manifest directory (${e.description})`)
    return E.left(`${path}: ${(e as Error).message}`)
  }
}

/**
 * The facts a manifest sees: `--facts FILE`, else this machine's (system facts and facts files)
 * unless `local` is false, then `--fact` on top. Gathering is skipped when the manifest's text
 * never mentions facts: it reads /proc, /sys and the facts files, which such a manifest should
 * not pay for.
 */
export const factsFor = async (text: string, machine: Machine, source: FactSource, local = true): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, unknown>> => {
  if (!/facts/i.test(text) && source.hiera === undefined && source.factsFile === undefined && source.assignments.length === 0) return E.right({})
  const FactsGather = await import('../interpreters/posix/facts.js')
  if (local || source.factsFile !== undefined) {
    const FactsFiles = await import('../interpreters/posix/factsFiles.js')
    return FactsGather.gather({ machine, dirs: FactsFiles.defaultDirs(process.env), ...(source.factsFile !== undefined ? { factsFile: source.factsFile } : {}), assignments: source.assignments })
  }
  // Not this machine's: only what the command line says.
  const Facts = await import('../facts/Facts.js')
  const assignments = source.assignments.map(Facts.assignment)
  const bad = assignments.flatMap((a) => (E.isLeft(a) ? [a.left] : []))
  return bad.length > 0 ? E.left(bad) : E.right(Facts.assemble({ system: Facts.empty, files: [], assignments: assignments.flatMap((a) => (E.isRight(a) ? [a.right] : [])) }))
}

/** Reads a `--hiera FILE` (when given) as text. */
export const readHiera = async (path: string | undefined): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, { readonly file: string; readonly text: string } | undefined>> => {
  if (path === undefined) return E.right(undefined)
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return E.left([Diagnostic.make('Io', `cannot read hiera file ${path}: ${bytes.left.description}`)])
  return E.right({ file: path, text: new TextDecoder().decode(bytes.right) })
}

/** The plugins that resolve references, asked for only when a document says `_plugin` (finding them reads a project). */
export type References = () => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resolve.Resolvers>>

/** The Bolt project's reference plugins (`--project`, else the project around the working directory; `--modulepath`). */
export const boltReferences =
  (o: { readonly project?: string; readonly modulepath?: ReadonlyArray<string>; readonly timeoutSeconds?: number }): References =>
  async () => {
    const Discover = await import('../interpreters/bolt/discover.js')
    const Bolt = await import('../interpreters/bolt/resolvers.js')
    const projectDir = o.project !== undefined ? nodePath.resolve(o.project) : await Discover.projectOf(process.cwd())
    const r = await Bolt.resolversFor({ projectDir, modulepath: (o.modulepath ?? []).map((d) => nodePath.resolve(d)), ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}), held: (value) => Held.hold(Resolve.texts(value)) })
    return E.mapLeft((why: string) => [Diagnostic.make('Io', `plugin references: ${why}`)])(r)
  }

/** Runs the Bolt project's puppet_library hook before an apply when it is configured (or `required`, `--prepare`): what ran, undefined when nothing was to run, or why nothing may be applied. */
export const boltPrepare = async (o: { readonly project?: string; readonly modulepath?: ReadonlyArray<string>; readonly timeoutSeconds?: number; readonly required: boolean }): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, string | undefined>> => {
  const Library = await import('../interpreters/bolt/library.js')
  const ran = await Library.prepareFor({ ...(o.project !== undefined ? { project: o.project } : {}), modulepath: (o.modulepath ?? []).map((d) => nodePath.resolve(d)), ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}), required: o.required, held: (value) => Held.hold(Resolve.texts(value)) })
  return E.mapLeft((why: string) => [Diagnostic.make('Apply', `${o.required ? '--prepare: ' : ''}${why}; nothing was applied`)])(ran)
}

/** A parsed document with its plugin references resolved (the resolve stage). */
const resolveDocument = async (file: string, text: string, resolvers: Resolve.Resolvers): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Resolve.Outcome>> => {
  const parsed = Compile.parse(file, text)
  return E.isLeft(parsed) ? parsed : Resolve.resolve(parsed.right, resolvers)
}

/** The key of sensitive values' digests in a state directory below a root (made on first use; see interpreters/bolt/key.ts). */
export const secretKeyIn =
  (root: string, stateDir: string): (() => Promise<E.Either<string, Uint8Array>>) =>
  async () => {
    const Key = await import('../interpreters/bolt/key.js')
    return Key.readOrCreate(nodePath.join(nodePath.resolve(root), stateDir, Key.fileName))
  }

/** The process environment as the manifest's `Environ` (only what it reads ends up in the plan). */
const environ = (): Record<string, string> => Object.fromEntries(Object.entries(process.env).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])))

/** Where libral providers come from, and the session that runs them (made only when a manifest uses providers). */
export interface Providers {
  /** `--provider-path` directories, before $PLAIT_PROVIDER_PATH, plait's own and libral's. */
  readonly providerPath: ReadonlyArray<string>
  readonly session: () => Promise<Session>
  /** false: read only `.yaml` metadata and never run a provider (validate, compile). */
  readonly describe?: boolean
  /** Treat every provider as suitable (compiling for another machine). */
  readonly anySuitable?: boolean
  /** The plugins that resolve `_plugin` references (none: every reference is an error at it). */
  readonly references?: References
  /** The host's key of sensitive values' digests, asked for only when a plugin gave a sensitive value (none: such a plan is refused). */
  readonly secretKey?: () => Promise<E.Either<string, Uint8Array>>
  /** How holo resources are observed (`--plugin-timeout`; default: the real host, 300 s a plugin run). */
  readonly holo?: Interpreters.Services['holo']
}

const noReferences: References = async () => E.right(Resolve.none)

/** What `validate` uses without --resolve: every reference stands for a placeholder text, runs no plugin, and is listed. */
export const unresolved = (): { readonly references: References; readonly skipped: () => ReadonlyArray<string> } => {
  const seen: string[] = []
  const resolver: Resolve.Resolver = (ref) => {
    seen.push(`_plugin: ${ref.plugin} at ${Position.render(ref.at)}`)
    return TE.right({ value: `⟨unresolved _plugin: ${ref.plugin}⟩`, sensitive: false })
  }
  return { references: async () => E.right(new Map([[Resolve.anyPlugin, resolver]])), skipped: () => seen }
}

/** Applies a plan through `run` with its sensitive values in clear (see sensitive.ts), resolving them again with the providers' plugins when needed. */
export const applyingWith =
  (providers: Providers) =>
  <R>(plan: Plan.Plan, run: (r: Sensitive.Revealed) => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, R>>): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, R>> =>
    Sensitive.applying(plan, providers.references ?? noReferences, providers.secretKey, run)

/** A session with the scrubbed environment, PLAIT_ROOT_DIR set to a confining root, and no output. */
export const quietSession = (root: string): (() => Promise<Session>) => {
  let made: Session | undefined
  return async () => (made ??= (await import('../interpreters/libral/Session.js')).make(root === '/' ? {} : { root }))
}

/**
 * The libral providers a manifest can use, discovered only when it may use one (see
 * Compile.usesProviders): discovery reads the provider path and may run `describe`. Problems with
 * providers go to `warn`; a manifest that uses no broken provider still compiles.
 */
export const providersFor = async (
  tree: import('../manifest/Node.js').Node,
  providers: Providers,
  warn: (ds: ReadonlyArray<Diagnostic.Diagnostic>) => void,
): Promise<ReadonlyArray<Types.Plugin>> => {
  if (!Compile.usesProviders(tree)) return []
  const Discover = await import('../interpreters/libral/discover.js')
  const session = await providers.session()
  const path = Discover.providerPath({ cli: providers.providerPath, env: process.env['PLAIT_PROVIDER_PATH'] })
  const found = await Discover.discover(session.context, path, providers.describe === false ? { describe: false } : {})
  if (found.problems.length > 0) warn(found.problems)
  if (providers.anySuitable !== true) return [Types.libralPlugin(found.registry)]
  const Registry = await import('../interpreters/libral/protocol/Registry.js')
  return [Types.libralPlugin(Registry.make(found.registry.providers.map((p) => ({ ...p, suitable: E.right(true as const) }))))]
}

/** Compiles a manifest with the facts, the hiera file and the providers it uses. */
export const compileManifest = async (
  manifestPath: string,
  machine: Machine,
  facts: FactSource,
  providers: Providers,
  warn: (ds: ReadonlyArray<Diagnostic.Diagnostic>) => void,
  local = true,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Catalog>> => E.map((c: Compiled) => c.catalog)(await compileResolved(manifestPath, machine, facts, providers, warn, local))

/** A compiled manifest and the plugin references its documents held (plan inputs). */
export interface Compiled {
  readonly catalog: Catalog
  readonly resolved: ReadonlyArray<Resolve.Resolved>
}

/** A diagnostic with the sensitive texts in its message, hint and resource id shown as `[sensitive]`. */
const hideIn = (secrets: ReadonlyArray<string>): ((d: Diagnostic.Diagnostic) => Diagnostic.Diagnostic) => {
  if (secrets.length === 0) return (d) => d
  const hide = Resolve.hider(secrets)
  return (d) => Diagnostic.make(d.code, hide(d.message), { at: d.at, resource: d.resource === undefined ? undefined : hide(d.resource), hint: d.hint === undefined ? undefined : hide(d.hint) })
}

/** compileManifest, with the references resolved: a compile error or warning never quotes a sensitive value. */
export const compileResolved = async (
  manifestPath: string,
  machine: Machine,
  facts: FactSource,
  providers: Providers,
  warn: (ds: ReadonlyArray<Diagnostic.Diagnostic>) => void,
  local = true,
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Compiled>> => {
  const text = await readManifest(manifestPath)
  if (E.isLeft(text)) return text
  const hieraText = await readHiera(facts.hiera)
  if (E.isLeft(hieraText)) return hieraText
  // The resolve stage: only a document that says `_plugin` is walked, and only then are plugins looked
  // for. Each text is searched once (3 ms for a manifest of 10,000 files).
  const manifestRefers = Resolve.mayRefer(text.right)
  const hieraRefers = hieraText.right !== undefined && Resolve.mayRefer(hieraText.right.text)
  const resolvers = manifestRefers || hieraRefers ? await (providers.references ?? noReferences)() : E.right(Resolve.none)
  if (E.isLeft(resolvers)) return resolvers
  const resolvedTree = manifestRefers ? await resolveDocument(manifestPath, text.right, resolvers.right) : E.map((node: Node.Node): Resolve.Outcome => ({ node, resolved: [] }))(Compile.parse(manifestPath, text.right))
  if (E.isLeft(resolvedTree)) return resolvedTree
  const tree = resolvedTree.right.node
  const h = hieraText.right
  const hieraTree = h !== undefined && hieraRefers ? await resolveDocument(h.file, h.text, resolvers.right) : undefined
  if (hieraTree !== undefined && E.isLeft(hieraTree)) return hieraTree
  const hiera: Compile.Inputs['hiera'] = h === undefined ? undefined : { ...h, ...(hieraTree !== undefined ? { tree: hieraTree.right.node } : {}) }
  const resolved = [...resolvedTree.right.resolved, ...(hieraTree !== undefined ? hieraTree.right.resolved : [])]
  const secrets = resolved.filter((r) => r.sensitive).flatMap((r) => Resolve.texts(r.value))
  Held.hold(secrets)
  const hide = hideIn(secrets)
  const factValues = await factsFor(text.right, machine, facts, local)
  if (E.isLeft(factValues)) return factValues
  const plugins = await providersFor(tree, providers, warn)
  const now = nowOf(facts)
  if (E.isLeft(now)) return now
  const baseDir = nodePath.dirname(nodePath.resolve(manifestPath))
  const catalog = Compile.compileTree(manifestPath, text.right, tree, baseDir, {
    now: now.right,
    // Each file once: the plan's digest of a file is of the very text compile used.
    readFile: Load.once(fileReader(baseDir)),
    root: machine.root,
    facts: factValues.right,
    ...(local ? { environ: environ() } : {}),
    ...(hiera !== undefined ? { hiera } : {}),
    plugins,
  })
  if (E.isLeft(catalog)) return E.left(catalog.left.map(hide))
  if (catalog.right.warnings.length > 0) warn(catalog.right.warnings.map(hide))
  return E.right({ catalog: catalog.right, resolved })
}

/** Plans a manifest against a machine: the whole of `plait plan`. */
export const planManifest = async (
  manifestPath: string,
  machine: Machine,
  version: string,
  facts: FactSource = { assignments: [] },
  warn: (ds: ReadonlyArray<Diagnostic.Diagnostic>) => void = () => undefined,
  providers: Providers = { providerPath: [], session: quietSession(machine.root) },
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const compiled = await compileResolved(manifestPath, machine, facts, providers, warn, true)
  if (E.isLeft(compiled)) return compiled
  // The manifest's YAML tree is garbage now: for a large one, collect it before observing fills new pages.
  Heap.settle()
  const catalog = compiled.right.catalog
  // The session and the posix runner are made only when an observation asks a provider or runs a guard.
  const runner = async () => (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
  // The source files are loaded once, here; observation asks for them and never reads the host itself.
  const hostInputs = await Load.sources(catalog, readHost)
  // As CCM goes on past a failing resource: one that cannot be observed or planned is a failed resource of the plan.
  const observed = await observe(catalog, machine, hostInputs, providers.session, runner, true, providers.holo)
  if (E.isLeft(observed)) return E.left(observed.left.map(hideIn(compiled.right.resolved.filter((r) => r.sensitive).flatMap((r) => Resolve.texts(r.value)))))
  const body = Planner.planAll(catalog, observed.right, { version, root: machine.root }).body
  return Sensitive.seal(body, compiled.right.resolved, providers.secretKey, Sensitive.carriers(catalog.resources))
}
