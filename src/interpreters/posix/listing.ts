// listing: which entries of a directory are regular files, learnt from one listing of it (the kind
// each entry's d_type gives) rather than from an lstat of each. probeAll uses it where a batch asks
// for many files of one directory: an lstat through a handle's /proc path costs about as much as
// the open that follows it, a listing a tenth of that per entry. The answer is only a hint for
// speed (the probe still decides by fstat of what it opened); a directory is listed only where the
// listing costs less than the lstats it saves, so a large directory with few managed files is not.
import { readdirSync, statSync } from 'node:fs'

/** Fewer asked entries than this, and the directory is not listed: the lstats cost less than a listing's open and close. */
export const minimumAsked = 4

/**
 * A directory's size (st_size) grows by at least about this many bytes per entry on the common file
 * systems (tmpfs 20, ext4 and xfs a record of 8 bytes and the name, btrfs twice the name), so that
 * size / bytesPerEntry estimates how many entries a listing would read.
 */
const bytesPerEntry = 24

/**
 * A listing reads an entry for about an eighth of an lstat's cost (measured: 0.56 against 4.6 µs on
 * ext4): it pays while the entries it would read are at most this many times the asked ones.
 */
const entriesPerAsked = 8

/** What one listing of a directory said. */
export interface Listing {
  /** The names of its regular files (those whose names decode cleanly: see `list`). */
  readonly files: ReadonlySet<string>
  /** Whether it had no entry (besides "." and ".."). */
  readonly empty: boolean
  /** The device and inode of the directory listed, to know it again when it is probed. */
  readonly dev: number
  readonly ino: number
}

/**
 * One listing of the directory at host path `host` (a handle's /proc path, or "." inside it);
 * undefined where `asked` entries of it do not pay for a listing, or it fails (the caller then
 * lstats each). A name that does not decode cleanly is left out of `files`: a lossy decoding may
 * stand for entries of other kinds.
 */
export const list = (host: string, asked: number): Listing | undefined => {
  if (asked < minimumAsked) return undefined
  try {
    const st = statSync(host)
    if (st.size > asked * entriesPerAsked * bytesPerEntry) return undefined
    const entries = readdirSync(host, { withFileTypes: true })
    const files = new Set<string>()
    for (const d of entries) if (d.isFile() && !d.name.includes('\uFFFD')) files.add(d.name)
    return { files, empty: entries.length === 0, dev: st.dev, ino: st.ino }
  } catch {
    return undefined
  }
}
