// Holorc: Holo's configuration (holorc(5)): the files $HOLO_ROOT_DIR/etc/holorc.d/* in sorted
// order, then $HOLO_ROOT_DIR/etc/holorc. Each line, trimmed, is blank, a `#` comment, or
// `plugin ID` / `plugin ID=BINARY`. Without a binary, a plugin runs $HOLO_ROOT_DIR/usr/lib/holo/holo-ID
// (as Holo 3 does, although holo-plugin-interface(7) says the default ignores the root); a
// binary given is used as written, so a relative one is relative to the host's working directory
// (holo-test(7): "relative to the test case directory, since that's the working directory").
// Anything else, an invalid ID, an empty binary or a plugin named twice is an error at its line.
import * as E from 'fp-ts/lib/Either.js'
import * as PosixPath from '../../../core/PosixPath.js'
import * as PluginId from './PluginId.js'

// model

/** One configuration file and its text. */
export interface File {
  /** As a message shows it (the root joined with etc/holorc, ...). */
  readonly path: string
  readonly text: string
}

/** A plugin line. */
export interface Entry {
  readonly id: string
  /** The binary as configured (BINARY, or the default under the root). */
  readonly binary: string
  /** Whether the line gave the binary. */
  readonly explicit: boolean
  /** Where the line is: `FILE:LINE`. */
  readonly at: string
}

/** The most a configuration file may hold (bytes). */
export const maxFile = 1024 * 1024

// constructors

/** The binary of a plugin configured without one: Holo joins the root and usr/lib/holo/holo-ID (Go's filepath.Join, so a relative root stays relative). */
export const defaultBinary = (root: string, id: string): string => PosixPath.normalize(`${root}/usr/lib/holo/holo-${id}`)

// interop

/** Reads configuration files, in the order given, into plugin entries; or every error, each at its line. */
export const parse = (root: string, files: ReadonlyArray<File>): E.Either<ReadonlyArray<string>, ReadonlyArray<Entry>> => {
  const errors: string[] = []
  const entries: Entry[] = []
  for (const file of files) {
    if (file.text.length > maxFile) {
      errors.push(`${file.path}: cannot parse configuration: the file is larger than ${maxFile} bytes`)
      continue
    }
    // Holo trims the whole text before splitting it, and numbers lines from there; plait numbers them in the file.
    for (const [i, raw] of file.text.split('\n').entries()) {
      const at = `${file.path}:${i + 1}`
      const line = trim(raw)
      if (line === '' || line.startsWith('#')) continue
      // eslint-disable-next-line no-control-regex -- a control character in a line is refused
      if (/[\u0000-\u0008\u000b-\u001f\u007f]/u.test(line)) {
        errors.push(`${at}: cannot parse configuration: the line contains a control character: ${JSON.stringify(line)}`)
        continue
      }
      if (!line.startsWith('plugin ')) {
        errors.push(`${at}: cannot parse configuration: unknown command: ${line}`)
        continue
      }
      const spec = trim(line.slice('plugin'.length))
      const eq = spec.indexOf('=')
      const id = eq === -1 ? spec : spec.slice(0, eq)
      const bad = PluginId.problem(id)
      if (bad !== undefined) {
        errors.push(`${at}: cannot parse configuration: ${bad}`)
        continue
      }
      const binary = eq === -1 ? defaultBinary(root, id) : spec.slice(eq + 1)
      if (binary === '') {
        errors.push(`${at}: cannot parse configuration: plugin ${id} has an empty binary after "="`)
        continue
      }
      const twice = entries.find((x) => x.id === id)
      if (twice !== undefined) {
        errors.push(`${at}: cannot parse configuration: plugin ${id} is configured twice (first at ${twice.at})`)
        continue
      }
      entries.push(Object.freeze({ id, binary, explicit: eq !== -1, at }))
    }
  }
  return errors.length > 0 ? E.left(errors) : E.right(entries)
}

/** Orders holorc.d snippet names as Holo does (Go's sort.Strings: by bytes). */
export const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Trims ASCII white space as Go's strings.TrimSpace does for the configuration's characters. */
const trim = (s: string): string => s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '')
