// Probe: what observing a machine path yields, and the account database: data shared by
// interpreters (which produce it) and resource types (whose pure parsers read it).


/** The kind of a directory entry, as lstat sees it (symlinks are not followed). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other'

/** What lstat says of a path. `mode` holds the permission bits only (& 0o777). */
export interface Entry {
  readonly kind: EntryKind
  readonly uid: number
  readonly gid: number
  readonly mode: number
  readonly size: number
}

/** A regular file's probe result: its entry, the sha256 of its bytes, and the bytes when asked for. */
export interface FileProbe {
  readonly entry: Entry
  readonly sha256: string
  /** Present only when the probe asked for content and the hash differed from `unlessSha256`. */
  readonly content?: Uint8Array
}

/** Result of probing a path: absent, or its entry (with hash and maybe content for files). */
export type Probe =
  | { readonly _tag: 'Absent' }
  | { readonly _tag: 'File'; readonly probe: FileProbe }
  | { readonly _tag: 'Directory'; readonly entry: Entry; readonly empty: boolean }
  | { readonly _tag: 'Symlink'; readonly entry: Entry; readonly target: string }
  | { readonly _tag: 'Other'; readonly entry: Entry }

/** Options of a path probe. */
export interface ProbeOptions {
  /** Return the file's bytes when its sha256 differs from this value (for diffs); omit to never return them. */
  readonly contentUnless?: string
  /** Return the bytes only when the file is at most this many bytes. */
  readonly contentLimit?: number
}

/** Ownership and permissions to give a file or directory. */
export interface Attrs {
  readonly uid: number
  readonly gid: number
  readonly mode: number
}

/** The user and group database: names to ids and back. */
export interface Accounts {
  readonly users: ReadonlyMap<string, number>
  readonly groups: ReadonlyMap<string, number>
  readonly userNames: ReadonlyMap<number, string>
  readonly groupNames: ReadonlyMap<number, string>
}
