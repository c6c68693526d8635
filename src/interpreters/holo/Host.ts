// Host: plait as a Holo host, as a typed effect interpreter. A Host is opened on one root
// ($HOLO_ROOT_DIR): its configuration is read (etc/holorc.d/* sorted, then etc/holorc), every
// plugin it names answers `info`, the run's cache directory is made, generators render into the
// virtual resource directory and the static resources are copied beside them. Then each plugin can
// `scan`, and each entity can be applied (`apply` or `force-apply`, with fd 3 messages as a typed
// outcome) and diffed (`diff`, two paths on fd 3, rendered through `git diff --no-index` as Holo
// does). `close` removes the cache directory. runtime.ts is the real host (processes under the
// root); memory.ts is its scripted double.
//
// Every failure of the host or of the protocol is a Fault (module "holo"): its op is the operation
// (`info`, `scan`, `apply`, `force-apply`, `diff`, `configure`, `generate`, `lock`), its subject names the
// plugin, and the entity where there is one (`files file:/etc/foo.conf`). A fault of a plugin that
// ran (timed out, printed what the protocol forbids) carries what it printed as its cause (an
// Output; see `outputOf`), so that nothing it said is lost. A plugin that exits non-zero from
// apply is not a fault: it is the `Failed` outcome, as Holo shows it.
import type * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type * as Fault from '../../core/Fault.js'
import type * as Entity from './protocol/Entity.js'
import type * as Outcome from './protocol/Outcome.js'
import type * as Output from './protocol/Output.js'

// model

export type { Entity, Outcome, Output }

/** The version of holo-plugin-interface(7) plait implements. */
export const apiVersion = 3

/** A configured plugin that answered `info` with a compatible version. */
export interface Plugin {
  /** Matches [a-z0-9][a-z0-9-]* (PluginId.valid). */
  readonly id: string
  /** The program run, as the configuration gives it (relative paths are relative to the host's working directory, as in Holo). */
  readonly binary: string
  /** What `info` reported (MIN_API_VERSION and MAX_API_VERSION among them), in the order it printed them. */
  readonly info: ReadonlyArray<readonly [string, string]>
  /** $HOLO_RESOURCE_DIR: this plugin's directory in the run's virtual resource directory. */
  readonly resourceDir: string
  /** $HOLO_STATE_DIR (created before the plugin first runs). */
  readonly stateDir: string
  /** $HOLO_CACHE_DIR (removed when the host closes). */
  readonly cacheDir: string
}

/** What `scan` of one plugin gave: its entities sorted by ID (as Holo sorts them), and what it printed on stderr. */
export interface Scan {
  readonly plugin: string
  readonly entities: ReadonlyArray<Entity.Entity>
  readonly stderr: string
}

/** What `apply` or `force-apply` of one entity did: the outcome from its exit and fd 3, and what it printed (stdout and stderr chunks in the order they came). */
export interface Applied {
  readonly outcome: Outcome.Outcome
  readonly output: Output.Output
}

/** What `diff` of one entity gave. */
export type Diff =
  /** The plugin has no meaningful diff for it (it wrote nothing on fd 3). */
  | { readonly _tag: 'NoDiff'; readonly output: Output.Output }
  /**
   * The two files: `from` the state as last applied, `to` the current state, as the plugin named
   * them; `fromFile`/`toFile` what was compared (/dev/null for a file that does not exist). `text`
   * is the unified diff in Holo's form (`diff --holo FROM TO`, no index lines, a resource file
   * named by its physical path or its generator), empty when the files are the same.
   */
  | {
      readonly _tag: 'Files'
      readonly from: string
      readonly to: string
      readonly fromFile: string
      readonly toFile: string
      readonly text: string
      readonly output: Output.Output
    }

/**
 * Something said while the host opened, in order, that does not stop it: an error or warning in
 * Holo's words (a plugin whose binary is missing is skipped, as Holo does), or what a plugin's
 * `info` or a generator printed on stderr (`stderr`, passed on as it is).
 */
export interface Note {
  readonly level: 'error' | 'warning' | 'stderr'
  /** The plugin or generator it is about. */
  readonly subject: string
  readonly text: string
}

/** One run of a Holo host on a root. */
export interface Host {
  /** $HOLO_ROOT_DIR as given (default "/"); test mode when it is not "/". */
  readonly root: string
  /** The configured plugins that answered `info`, in configuration order. */
  readonly plugins: ReadonlyArray<Plugin>
  /** What was said while opening (skipped plugins, generator output, info's stderr), in order. */
  readonly notes: ReadonlyArray<Note>
  /** Runs `scan` of one plugin. */
  readonly scan: (plugin: Plugin) => TE.TaskEither<Fault.Fault, Scan>
  /** Runs `apply ENTITY`, or `force-apply ENTITY` when `force`. */
  readonly apply: (entity: Entity.Entity, force: boolean) => TE.TaskEither<Fault.Fault, Applied>
  /** Runs `diff ENTITY` and renders the difference of the two files it names. */
  readonly diff: (entity: Entity.Entity) => TE.TaskEither<Fault.Fault, Diff>
  /** Takes Holo's run lock ($HOLO_ROOT_DIR/run/holo.pid); its release, or a fault naming the lock file. */
  readonly lock: () => TE.TaskEither<Fault.Fault, () => Promise<void>>
  /** Removes the run's cache directory (and the virtual resource directory in it). */
  readonly close: () => Promise<void>
}

/** How a host is opened. */
export interface Options {
  /** $HOLO_ROOT_DIR (default "/"). */
  readonly root?: string
  /** The host's environment, from which PATH, HOME, LANG, LC_*, TZ and TMPDIR are passed on (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** The working directory relative plugin binaries, relative roots and relative diff paths are taken from (default: this process's). */
  readonly cwd?: string
  /** How long one plugin run may take before its process group is killed (default 10 minutes). */
  readonly timeoutMs?: number
}

/** Opens a host: reads the configuration, asks each plugin for `info`, prepares the run's directories. */
export type Open = (options: Options) => TE.TaskEither<Fault.Fault, Host>

// guards

/** What a plugin printed before the fault, when the fault is of a plugin that ran. */
export const outputOf = (f: Fault.Fault): Output.Output | undefined => {
  const c = f.cause as { readonly _tag?: unknown } | undefined
  return typeof c === 'object' && c !== null && c._tag === 'Output' ? (c as Output.Output) : undefined
}

/** The plugin of an entity, among a host's plugins. */
export const pluginOf = (host: Pick<Host, 'plugins'>, entity: Entity.Entity): E.Either<string, Plugin> => {
  const p = host.plugins.find((x) => x.id === entity.plugin)
  return p === undefined ? { _tag: 'Left', left: `no configured plugin ${entity.plugin} for ${entity.id}` } : { _tag: 'Right', right: p }
}
