// discover: finds libral providers (`providers/*.prov`) under each directory of the provider path,
// reads their metadata (the sibling `.yaml` first, else `ral_action=describe`), checks that they
// can run here (`suitable`), and returns the registry with every problem as a diagnostic naming
// the file. A bad provider is left out; the others are still usable.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Digest from '../../core/Digest.js'
import * as Fault from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import * as Installation from '../installation.js'
import * as Metadata from './protocol/Metadata.js'
import * as Registry from './protocol/Registry.js'
import * as Invoke from './invoke.js'
import * as Append from '../../core/Append.js'

// model

/** A discovered provider: its metadata, its executable, where the metadata came from, whether it can run here. */
export interface Provider extends Registry.Entry {
  /** A digest of the executable's bytes and the metadata: a plan records it, and apply refuses a provider that changed. */
  readonly digest: string
  /** The file the metadata was read from: the `.yaml` sibling, or the provider itself (describe). */
  readonly metaSource: string
  readonly from: 'yaml' | 'describe'
}

/** One directory of the provider path; `explicit` ones (given on the command line) must exist. */
export interface PathDir {
  readonly dir: string
  readonly explicit: boolean
}

export interface Discovered {
  readonly registry: Registry.Registry<Provider>
  readonly problems: ReadonlyArray<Diagnostic.Diagnostic>
}

/** plait's own providers: lib/libral/ of the installed package. */
export const ownDir = nodePath.join(Installation.packageDir(import.meta.url), 'lib', 'libral')

/** Where libral installed its providers. */
export const systemDir = '/usr/share/libral/data'

/** How many `describe` runs go at once. */
export const concurrency = 8

// constructors

/**
 * The provider path, in order: each `--provider-path` (repeatable, or ':'-separated), each entry of
 * PLAIT_PROVIDER_PATH (':'-separated), plait's own lib/libral/, then /usr/share/libral/data.
 */
export const providerPath = (o: { readonly cli?: ReadonlyArray<string>; readonly env?: string; readonly own?: string; readonly system?: string } = {}): ReadonlyArray<PathDir> => {
  const split = (s: string): string[] => s.split(':').filter((x) => x !== '')
  const out: PathDir[] = []
  const add = (dir: string, explicit: boolean): void => {
    const abs = nodePath.resolve(dir)
    if (!out.some((d) => d.dir === abs)) out.push({ dir: abs, explicit })
  }
  for (const c of o.cli ?? []) for (const d of split(c)) add(d, true)
  for (const d of split(o.env ?? '')) add(d, false)
  add(o.own ?? ownDir, false)
  add(o.system ?? systemDir, false)
  return out
}

const isExecutableFile = async (p: string): Promise<boolean> => {
  try {
    const st = await fs.stat(p)
    if (!st.isFile()) return false
    await fs.access(p, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** True when a command is an executable file in one of PATH's directories. */
export const onPath = async (command: string, path: string): Promise<boolean> => {
  for (const dir of path.split(':')) if (dir !== '' && (await isExecutableFile(nodePath.join(dir, command)))) return true
  return false
}

const isReadable = async (p: string): Promise<boolean> => {
  try {
    await fs.access(p, fs.constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** A metadata file's text, nothing when it is missing, or the fault (of the errno's kind) whose description is the sentence a diagnostic shows. */
const readText = async (p: string): Promise<E.Either<Fault.Fault, string | undefined>> => {
  try {
    return E.right(HostFile.readText(p))
  } catch (e) {
    const code = Errno.codeOf(e)
    return code === 'ENOENT' ? E.right(undefined) : E.left(Fault.make(Errno.tag(code), 'libral', 'read', p, `cannot read ${p}: ${(e as Error).message}`, e))
  }
}

/** How to load providers: `describe: false` reads only `.yaml` metadata and never runs a provider (validate, compile). */
export interface LoadOptions {
  readonly describe?: boolean
}

/** Loads one provider file: its metadata (yaml first, else describe) and its suitability. */
export const load = async (ctx: Invoke.Context, path: string, options: LoadOptions = {}): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Provider>> => {
  const problem = (message: string, hint?: string): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, never> =>
    E.left([Diagnostic.make('Io', message, { at: { file: path, line: 1, col: 1 }, hint })])
  if (!(await isExecutableFile(path))) return problem(`provider ${path} is not an executable file`, `chmod +x ${path}`)
  const yamlPath = path.replace(/\.prov$/, '.yaml')
  const yaml = await readText(yamlPath)
  if (E.isLeft(yaml)) return problem(yaml.left.description)
  let text: string
  let metaSource: string
  let from: 'yaml' | 'describe'
  if (yaml.right !== undefined) {
    text = yaml.right
    metaSource = yamlPath
    from = 'yaml'
  } else if (options.describe === false) {
    return problem(`provider ${path} has no ${nodePath.basename(yamlPath)}, and reading its metadata would mean running it`, 'validate and compile never run providers; plan does')
  } else {
    const out = await Invoke.describe(ctx, path)
    if (E.isLeft(out)) return problem(`provider ${path} has no ${nodePath.basename(yamlPath)} and ral_action=describe failed: ${out.left.description}`)
    text = out.right
    metaSource = `${path} (ral_action=describe)`
    from = 'describe'
  }
  const meta = Metadata.parse(metaSource, Metadata.defaultName(path), text)
  if (E.isLeft(meta)) return meta
  const need = Metadata.commandsOf(meta.right.suitable)
  const found = new Map<string, boolean>()
  for (const c of need) found.set(c, await onPath(c, ctx.env['PATH'] ?? ''))
  const suitable = Metadata.suitability(meta.right.suitable, (c) => found.get(c) === true)
  let bytes: Uint8Array
  try {
    bytes = HostFile.read(path)
  } catch (e) {
    return problem(`cannot read provider ${path}: ${(e as Error).message}`)
  }
  const digest = Digest.ofValue({ executable: Digest.sha256(bytes), meta: meta.right })
  return E.right({ meta: meta.right, path, metaSource, from, suitable, digest })
}

/** The `.prov` files of a provider directory (`DIR/providers/*.prov`), sorted; none when it is missing. */
export const providerFiles = async (d: PathDir): Promise<E.Either<Diagnostic.Diagnostic, ReadonlyArray<string>>> => {
  const dir = nodePath.join(d.dir, 'providers')
  try {
    const names = await fs.readdir(dir)
    return E.right(names.filter((n) => n.endsWith('.prov')).sort().map((n) => nodePath.join(dir, n)))
  } catch (e) {
    const code = (e as { code?: string }).code
    if (!d.explicit && (code === 'ENOENT' || code === 'ENOTDIR')) return E.right([])
    return E.left(Diagnostic.make('Io', `provider path ${d.dir}: cannot read ${dir}: ${code === 'ENOENT' ? 'no such directory' : (e as Error).message}`))
  }
}

/** Discovers every provider on the path (a `.prov` file may also be named directly). */
export const discover = async (ctx: Invoke.Context, path: ReadonlyArray<PathDir>, options: LoadOptions = {}): Promise<Discovered> => {
  const problems: Diagnostic.Diagnostic[] = []
  const files: string[] = []
  for (const d of path) {
    if (d.dir.endsWith('.prov')) {
      files.push(d.dir)
      continue
    }
    const listed = await providerFiles(d)
    if (E.isLeft(listed)) problems.push(listed.left)
    else Append.append(files, listed.right)
  }
  // Without describe, a provider that has no .yaml is left out quietly: knowing it would mean running it.
  if (options.describe === false) {
    const described: string[] = []
    for (const f of files) if (await isReadable(f.replace(/\.prov$/, '.yaml'))) described.push(f)
    files.splice(0, files.length, ...described)
  }
  const loaded = new Array<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Provider>>(files.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++
      loaded[i] = await load(ctx, files[i]!, options)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker))
  const providers: Provider[] = []
  for (const l of loaded) {
    if (E.isLeft(l)) Append.append(problems, l.left)
    else providers.push(l.right)
  }
  return { registry: Registry.make(providers), problems }
}

/** A fault as a diagnostic about a provider (for commands that report faults with diagnostics). */
export const faultDiagnostic = (f: Fault.Fault, resource?: string): Diagnostic.Diagnostic =>
  Diagnostic.make(f.op === 'update' ? 'Apply' : 'Observe', `${f.subject}: ${f.op}: ${f.description}`, { resource })
