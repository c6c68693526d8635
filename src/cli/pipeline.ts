// pipeline: the top-level wiring, read → resolve plugin references → compile (files it reads loaded once) → load sources → observe → plan → seal, as the design's diagram draws it.
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as Compile from '../compiler/compile.js'
import * as Planner from '../compiler/plan.js'
import { inlineMemo, observe, type ReadHost } from '../observe/observe.js'
import * as Errno from '../interpreters/Errno.js'
import type { Machine } from '../interpreters/Machine.js'
import * as HostFile from '../interpreters/posix/hostFile.js'
import * as Load from '../load/load.js'
import * as Resolve from '../load/resolve.js'
import type * as Node from '../manifest/Node.js'
import type { Session } from '../interpreters/libral/Session.js'
import * as Types from '../types/registry.js'
import * as Value from '../manifest/expr/Value.js'
import * as PlanFile from '../planfile/PlanFile.js'

/** Reads a host input file as bytes (regular files only, bounded), with errors as faults. */
export const readHost: ReadHost = async (path) => {
  try {
    return E.right(HostFile.read(path))
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
    return FactsGather.gather({ machine, dirs: FactsGather.defaultDirs(process.env), ...(source.factsFile !== undefined ? { factsFile: source.factsFile } : {}), assignments: source.assignments })
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
    const r = await Bolt.resolversFor({ projectDir, modulepath: (o.modulepath ?? []).map((d) => nodePath.resolve(d)), ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}) })
    return E.mapLeft((why: string) => [Diagnostic.make('Io', `plugin references: ${why}`)])(r)
  }

/** A parsed document with its plugin references resolved (the resolve stage). */
const resolveDocument = async (file: string, text: string, resolvers: Resolve.Resolvers): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.Node>> => {
  const parsed = Compile.parse(file, text)
  return E.isLeft(parsed) ? parsed : Resolve.resolve(parsed.right, resolvers)
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
}

const noReferences: References = async () => E.right(Resolve.none)

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
): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Catalog>> => {
  const text = await readManifest(manifestPath)
  if (E.isLeft(text)) return text
  const hieraText = await readHiera(facts.hiera)
  if (E.isLeft(hieraText)) return hieraText
  // The resolve stage: only a document that says `_plugin` is walked, and only then are plugins looked for.
  const refer = Resolve.mayRefer(text.right) || (hieraText.right !== undefined && Resolve.mayRefer(hieraText.right.text))
  const resolvers = refer ? await (providers.references ?? noReferences)() : E.right(Resolve.none)
  if (E.isLeft(resolvers)) return resolvers
  const tree = Resolve.mayRefer(text.right) ? await resolveDocument(manifestPath, text.right, resolvers.right) : Compile.parse(manifestPath, text.right)
  if (E.isLeft(tree)) return tree
  const h = hieraText.right
  const hieraTree = h !== undefined && Resolve.mayRefer(h.text) ? await resolveDocument(h.file, h.text, resolvers.right) : undefined
  if (hieraTree !== undefined && E.isLeft(hieraTree)) return hieraTree
  const hiera: Compile.Inputs['hiera'] = h === undefined ? undefined : { ...h, ...(hieraTree !== undefined ? { tree: hieraTree.right } : {}) }
  const factValues = await factsFor(text.right, machine, facts, local)
  if (E.isLeft(factValues)) return factValues
  const plugins = await providersFor(tree.right, providers, warn)
  const now = nowOf(facts)
  if (E.isLeft(now)) return now
  const baseDir = nodePath.dirname(nodePath.resolve(manifestPath))
  const catalog = Compile.compileTree(manifestPath, text.right, tree.right, baseDir, {
    now: now.right,
    // Each file once: the plan's digest of a file is of the very text compile used.
    readFile: Load.once(fileReader(baseDir)),
    root: machine.root,
    facts: factValues.right,
    ...(local ? { environ: environ() } : {}),
    ...(hiera !== undefined ? { hiera } : {}),
    plugins,
  })
  if (E.isRight(catalog) && catalog.right.warnings.length > 0) warn(catalog.right.warnings)
  return catalog
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
  const catalog = await compileManifest(manifestPath, machine, facts, providers, warn)
  if (E.isLeft(catalog)) return catalog
  const inline = inlineMemo()
  // The session and the posix runner are made only when an observation asks a provider or runs a guard.
  const runner = async () => (await import('../interpreters/commands/posix.js')).make({ root: machine.root })
  // The source files are loaded once, here; observation asks for them and never reads the host itself.
  const hostInputs = await Load.sources(catalog.right, readHost)
  // As CCM goes on past a failing resource: one that cannot be observed or planned is a failed resource of the plan.
  const observed = await observe(catalog.right, machine, hostInputs, inline, providers.session, runner, true)
  if (E.isLeft(observed)) return observed
  const body = Planner.planAll(catalog.right, observed.right, { version, root: machine.root }).body
  return E.right(PlanFile.sealLazily(body))
}
