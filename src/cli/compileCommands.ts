// compileCommands: `plait validate` and `plait compile`, the compile-only commands: they read a
// manifest and its facts and stop before anything of the target is observed, so they run on a
// machine that is not the target (a laptop, a code review job).
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import { isSkipped, type Catalog } from '../compiler/Catalog.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import * as Options from './options.js'
import * as Posix from '../interpreters/posix/posix.js'
import * as Registry from '../types/registry.js'
import * as Hidden from './hidden.js'
import { boltReferences, compileResolved, quietSession, unresolved, type Compiled, type References } from './pipeline.js'
import * as Render from './render.js'
import * as Streams from './streams.js'
import { field as f } from '../core/Terminal.js'

interface Flags extends Options.PluginFlags {
  readonly facts?: string
  readonly hiera?: string
  readonly fact?: ReadonlyArray<string>
  readonly json?: boolean
  readonly providerPath?: string[]
  readonly now?: string
}

const failed = (): CommanderError => new CommanderError(1, 'plait.compile', 'compilation failed')

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  Streams.err(Render.diagnostics(ds))
  throw failed()
}

/** Compiles a manifest with the facts of the command line (this machine's too when `local`). */
const compileFile = async (manifest: string, o: Flags, local: boolean, references: References = boltReferences(Options.plugins(o))): Promise<Compiled> => {
  const source = { ...(o.facts !== undefined ? { factsFile: o.facts } : {}), ...(o.hiera !== undefined ? { hiera: o.hiera } : {}), ...(o.now !== undefined ? { now: o.now } : {}), assignments: o.fact ?? [] }
  // Providers are read from their .yaml metadata and never run; suitability is the target's business.
  const providers = { providerPath: o.providerPath ?? [], session: quietSession('/'), describe: false, anySuitable: true, references }
  const catalog = await compileResolved(manifest, Posix.make({}), source, providers, (ds) => Streams.err(Render.warnings(ds)), local)
  return E.isLeft(catalog) ? fail(catalog.left) : catalog.right
}

/** The catalog as JSON: each resource as its type writes it (a libral resource names its provider instead of carrying its metadata). */
export const catalogJson = (c: Catalog): unknown => ({
  ...c,
  links: Object.fromEntries(c.links),
  resources: c.resources.map((r) => (isSkipped(r) ? r : (Registry.ofKind(r._tag).json?.(r) ?? r))),
})

/** The catalog in text: one line per resource with where it was declared and its properties. */
export const renderCatalog = (c: Catalog): string => {
  const lines = [`${f(c.manifest.file)}: ${c.resources.length} resource${c.resources.length === 1 ? '' : 's'}`]
  for (const r of c.resources) {
    const where = `  ${f(r.id)}  (${f(r.at.file)}:${r.at.line}:${r.at.col})`
    lines.push(isSkipped(r) ? `${where}  skipped: ${f(r.reason)}` : `${where}  ${Registry.ofKind(r._tag).show(r)}`)
  }
  return lines.join('\n') + '\n'
}

const factOptions = (c: Command): Command =>
  c
    .addOption(Options.facts("the target machine's facts (JSON or YAML, as `plait facts --json` prints them there)"))
    .addOption(Options.fact())
    .addOption(Options.hiera())
    .addOption(Options.now("the time now() gives (RFC 3339), instead of the clock's"))
    .addOption(Options.providerPath('look for libral providers in DIR/providers first (repeatable)'))
    .addOption(Options.project())
    .addOption(Options.modulepath())
    .addOption(Options.pluginTimeout())

/** Adds `plait validate` and `plait compile` to a program. */
export const register = (program: Command): void => {
  factOptions(
    program
      .command('validate')
      .description('parse, decode, resolve and type-check a manifest; observes nothing and uses no facts unless given')
      .argument('<manifest>', 'the manifest (CCM YAML format)')
      .option('--resolve', 'run the plugins of _plugin references (without it, each stands for a placeholder and is listed)'),
  ).action(async (manifest: string, o: Flags & { resolve?: boolean }) => {
    const skip = o.resolve === true ? undefined : unresolved()
    const c = (await compileFile(manifest, o, false, skip?.references)).catalog
    Streams.out(`${manifest}: valid, ${c.resources.length} resource${c.resources.length === 1 ? '' : 's'}\n`)
    const skipped = skip?.skipped() ?? []
    if (skipped.length > 0) Streams.out(`not resolved (--resolve runs their plugins): ${f(skipped.join(', '))}\n`)
  })
  factOptions(
    program
      .command('compile')
      .description("print the resolved catalog: every resource as the target will be asked for it (this machine's facts unless --facts)")
      .argument('<manifest>', 'the manifest (CCM YAML format)')
      .option('--json', 'print the catalog as JSON'),
  ).action(async (manifest: string, o: Flags) => {
    const { catalog, resolved } = await compileFile(manifest, o, true)
    // A secret plugin's value is shown as [sensitive]: hidden in the catalog before a value is cut
    // short or escaped to be shown, then in the text printed (the catalog is printed, never saved).
    const secrets = Hidden.secretsOf(resolved)
    const c = Hidden.deep(secrets)(catalog)
    Streams.out(Hidden.text(secrets)(o.json === true ? Streams.json(catalogJson(c)) : renderCatalog(c)))
  })
}
