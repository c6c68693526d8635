// options: what the commands share on their command lines: the one resolution of `--root`, and
// the options that give a manifest its facts, data, clock and providers.
import { realpathSync, statSync } from 'node:fs'
import { Option, type Command } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as PosixPath from '../core/PosixPath.js'
import { defaultStateDir } from '../executor/Options.js'

/** `--root DIR` as a real directory (symlinks resolved), "/" without it, or why it is not one. */
export const resolveRoot = async (root: string | undefined): Promise<E.Either<Diagnostic.Diagnostic, string>> => {
  if (root === undefined) return E.right('/')
  // two system calls, made synchronously: node:fs/promises is not loaded for them alone
  try {
    const r = realpathSync.native(root)
    if (!statSync(r).isDirectory()) throw new Error('not a directory')
    return E.right(r)
  } catch {
    return E.left(Diagnostic.make('Io', `--root ${root}: not an existing directory`))
  }
}

/**
 * The state directory (the lock, the journal, backups and generations): `--state-dir`, else
 * $PLAIT_STATE_DIR, else /var/lib/plait; a clean absolute machine path below "/", or why it is not.
 * A relative one would be resolved against whatever directory plait was started in, and the
 * executor, making its parents, would climb "." for ever.
 */
export const stateDir = (given: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): E.Either<Diagnostic.Diagnostic, string> => {
  const dir = given ?? env['PLAIT_STATE_DIR'] ?? defaultStateDir
  if (PosixPath.isCleanAbsolute(dir) && dir !== '/') return E.right(dir)
  const from = given !== undefined ? '--state-dir' : '$PLAIT_STATE_DIR'
  return E.left(Diagnostic.make('Validation', `${from} ${JSON.stringify(dir)}: expected a clean absolute machine path other than "/" (the state directory, below --root when one is given)`, { hint: 'for example --state-dir /var/lib/plait' }))
}

/**
 * The values of a repeatable option so far, with one more: the list the first value made, pushed to
 * (a copy for each value took 15 s for 20,000 `--fact`s). No option that takes it has a default,
 * so the list is always one of its own.
 */
export const repeatable = (v: string, prev: string[] | undefined): string[] => {
  if (prev === undefined) return [v]
  prev.push(v)
  return prev
}

/** `--root DIR`, with what it means to the command. */
export const root = (description: string): Option => new Option('--root <dir>', description)

/** `--facts FILE`: another machine's facts instead of this one's. */
export const facts = (description = "use another machine's facts (JSON or YAML, as `plait facts --json` prints them) instead of this one's"): Option =>
  new Option('--facts <file>', description)

/** `--fact KEY=VALUE`, repeatable (undefined when not given). */
export const fact = (description = 'set a fact, repeatable; a dotted key builds maps'): Option => new Option('--fact <key=value>', description).argParser(repeatable)

/** `--hiera FILE`. */
export const hiera = (description = "a data document (data, hierarchy, overrides) deep-merged on top of the manifest's data"): Option => new Option('--hiera <file>', description)

/** `--now TIME`. */
export const now = (description = "the time now() gives (RFC 3339), instead of the clock's; a plan records it when the manifest calls now()"): Option => new Option('--now <time>', description)

/** `--provider-path DIR`, repeatable (undefined when not given). */
export const providerPath = (description = "look for libral providers in DIR/providers first (repeatable; then $PLAIT_PROVIDER_PATH, plait's own, /usr/share/libral/data)"): Option =>
  new Option('--provider-path <dir>', description).argParser(repeatable)

/** `--project DIR`: the Bolt project whose plugins resolve `_plugin` references (default: the one around the working directory). */
export const project = (description = 'the Bolt project whose plugin modules resolve _plugin references (default: the project around the working directory)'): Option =>
  new Option('--project <dir>', description)

/** `--modulepath DIRS`: more directories of Bolt plugin modules, `:`-separated and repeatable. */
export const modulepath = (description = 'more directories of Bolt plugin modules (separated by ":", repeatable)'): Option =>
  new Option('--modulepath <dirs>', description).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), ...v.split(':').filter((d) => d !== '')])

/** `--plugin-timeout SECONDS`: how long one plugin task may run. */
export const pluginTimeout = (description = 'how long one plugin task may run, in seconds (default 300); it is then killed with its process group'): Option =>
  new Option('--plugin-timeout <seconds>', description).argParser((v: string) => Number(v))

/** What `--project`, `--modulepath` and `--plugin-timeout` say. */
export interface PluginFlags {
  readonly project?: string
  readonly modulepath?: string[]
  readonly pluginTimeout?: number
}

/**
 * The options of a command that plans a manifest on this host (plan, apply, check): where its facts,
 * data and plugins come from, in the order the help lists them.
 */
export const manifestInputs = (c: Command): Command =>
  c.addOption(facts()).addOption(fact()).addOption(hiera()).addOption(providerPath()).addOption(project()).addOption(modulepath()).addOption(pluginTimeout())

/** The flags of plugin references as the pipeline's options. */
export const plugins = (o: PluginFlags): { project?: string; modulepath: ReadonlyArray<string>; timeoutSeconds?: number } => ({
  ...(o.project !== undefined ? { project: o.project } : {}),
  modulepath: o.modulepath ?? [],
  ...(o.pluginTimeout !== undefined ? { timeoutSeconds: o.pluginTimeout } : {}),
})
