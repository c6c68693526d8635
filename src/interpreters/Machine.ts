// Machine: the primitives an interpreter provides; every effect plait has on a machine goes through one.
//
// Paths are machine paths: absolute, clean, as a manifest names them. An interpreter confined to a
// root (posix with --root, or memory) maps them below that root and refuses any that escape it.
// Every primitive returns a TaskEither; failures are Fault values, never exceptions.
import type * as E from 'fp-ts/lib/Either.js'
import type * as T from 'fp-ts/lib/Task.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Fault } from '../core/Fault.js'

// model (the data types live in core, so pure parsers can read them)
import type { Accounts, Attrs, Probe, ProbeOptions } from '../core/Probe.js'
export type { Accounts, Attrs, Entry, EntryKind, FileProbe, Probe, ProbeOptions } from '../core/Probe.js'

/** The interpreter interface. */
export interface Machine {
  /** Short name used in reports ("posix", "memory"). */
  readonly name: string
  /** The host directory this machine is confined to ("/" when unconfined); recorded in plans. */
  readonly root: string

  // observation
  /** lstat + (for regular files) read + sha256, in one primitive so observe stays a single pass. */
  readonly probe: (path: string, options?: ProbeOptions) => TE.TaskEither<Fault, Probe>
  /**
   * Probes many paths at once: for each, what `probe` gives it, in order. An interpreter may share
   * work between them (posix walks each parent directory once per batch); observation asks this.
   */
  readonly probeAll: (requests: ReadonlyArray<{ readonly path: string; readonly options?: ProbeOptions }>) => T.Task<ReadonlyArray<E.Either<Fault, Probe>>>
  /** The user and group database, read once per run. */
  readonly accounts: () => TE.TaskEither<Fault, Accounts>
  /** Reads a whole file. */
  readonly readFile: (path: string) => TE.TaskEither<Fault, Uint8Array>
  /** Lists a directory's entry names, sorted. */
  readonly readdir: (path: string) => TE.TaskEither<Fault, ReadonlyArray<string>>

  // mutation
  /**
   * Writes a file atomically: a temp file named `tempName` in the same directory, chmod, write,
   * chown, fsync, rename over `path`, fsync the directory. The parent must exist (NotFound/
   * NotADirectory otherwise). On failure the temp file is removed and `path` is untouched.
   */
  readonly writeFileAtomic: (path: string, data: Uint8Array, attrs: Attrs, tempName: string) => TE.TaskEither<Fault, void>
  /**
   * The first half of writeFileAtomic: the temp file `tempName` beside `path`, chmod, write, chown,
   * fsync; it is left there for `renameTemp`. On failure the temp file is removed. Faults name the
   * operation writeFileAtomic, as the whole write's do.
   */
  readonly writeTemp: (path: string, data: Uint8Array, attrs: Attrs, tempName: string) => TE.TaskEither<Fault, void>
  /** The second half: renames the temp file `tempName` beside `path` over it (not fsynced: see `syncDirectory`). */
  readonly renameTemp: (path: string, tempName: string) => TE.TaskEither<Fault, void>
  /** fsyncs a directory, so that the renames and new entries in it survive a power loss. */
  readonly syncDirectory: (path: string) => TE.TaskEither<Fault, void>
  /**
   * Creates a directory and any missing parents (mkdir -p), then chmod and chown the last one
   * explicitly (umask does not apply). Returns the directories it created, outermost first.
   */
  readonly mkdirp: (path: string, attrs: Attrs) => TE.TaskEither<Fault, ReadonlyArray<string>>
  /** Changes owner, group and mode of a path (lchown for symlinks; chmod is not applied to symlinks). */
  readonly setAttrs: (path: string, attrs: Attrs) => TE.TaskEither<Fault, void>
  /** Removes a path: a file or symlink, an empty directory, or with `recursive` a whole tree. */
  readonly remove: (path: string, options: { readonly recursive: boolean }) => TE.TaskEither<Fault, void>
  /** Renames a path atomically (same filesystem), replacing the destination if it is a file. */
  readonly rename: (from: string, to: string) => TE.TaskEither<Fault, void>
  /** Copies a file or a whole tree, preserving owner, group, mode and symlinks; `to` must not exist. */
  readonly copy: (from: string, to: string) => TE.TaskEither<Fault, void>

  /**
   * Until the returned function is called, the interpreter may keep what it resolved for one
   * operation (posix: the parent directory handles of a confined walk) for the next ones, so that
   * the executor's batch of writes in one directory walks to it once, not twice a file. What an
   * operation acts on is exactly what it would act on alone, but for a directory moved or replaced
   * by someone else meanwhile: the operation then acts in the directory that was reached (as a walk
   * that raced the move would). The executor holds for one batch (docs/apply.md, "Batches").
   */
  readonly hold: () => () => void

  // state files (journal, lock): plain, durable writes
  /** Creates a file that must not exist yet, fsynced; it appears with all its bytes at once. Exists fault if present. */
  readonly createExclusive: (path: string, data: Uint8Array) => TE.TaskEither<Fault, void>
  /**
   * Appends bytes to a file (creating it), then fsyncs it: durable journal records. With `sync:
   * false` it does not fsync: a process crash keeps the bytes, a power loss may not.
   */
  readonly append: (path: string, data: Uint8Array, options?: { readonly sync?: boolean }) => TE.TaskEither<Fault, void>

  // host
  /** This process's id. */
  readonly pid: () => number
  /** A process's start time (as /proc/PID/stat field 22 gives it), or null when no such process runs. */
  readonly processStart: (pid: number) => TE.TaskEither<Fault, string | null>
}
