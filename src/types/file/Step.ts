// Step: the file type's steps (`file.*`), as the plan carries them: write, mkdir, attrs, remove.
// They act on a path, and the journal can undo them (see interpreters/files/).
//
// Invariants: `path` is a clean absolute machine path; `mode` is four octal digits ("0644");
// a write's `content.sha256` is the sha256 of the decoded `content.data`.
import * as t from 'io-ts'
import * as Digest from '../../core/Digest.js'

// model

/** A user or group: the name as the manifest gave it (or as resolved), and its numeric id. */
export const Principal = t.type({ name: t.string, id: t.number })
export type Principal = t.TypeOf<typeof Principal>

/** File bytes carried by the plan: UTF-8 text when the bytes are valid UTF-8, base64 otherwise. */
export const Content = t.type({
  encoding: t.keyof({ utf8: null, base64: null }),
  data: t.string,
  sha256: t.string,
  size: t.number,
})
export type Content = t.TypeOf<typeof Content>

const common = { path: t.string, reason: t.string, noop: t.string }

export const FileWrite = t.intersection([
  t.type({ _tag: t.literal('file.write'), ...common, content: Content, owner: Principal, group: Principal, mode: t.string }),
  t.partial({
    /** A unified diff of the old and new text, when both are text and small enough to show. */
    diff: t.string,
  }),
])
export const FileMkdir = t.type({ _tag: t.literal('file.mkdir'), ...common, owner: Principal, group: Principal, mode: t.string })
export const FileAttrs = t.type({ _tag: t.literal('file.attrs'), ...common, owner: Principal, group: Principal, mode: t.string })
export const FileRemove = t.type({
  _tag: t.literal('file.remove'),
  ...common,
  kind: t.keyof({ file: null, directory: null, symlink: null, other: null }),
  recursive: t.boolean,
})

/** The steps of the file type: they act on a path, and the journal can undo them. */
export const FileStep = t.union([FileWrite, FileMkdir, FileAttrs, FileRemove])
export type FileStep = t.TypeOf<typeof FileStep>

export type FileWrite = t.TypeOf<typeof FileWrite>
export type FileMkdir = t.TypeOf<typeof FileMkdir>
export type FileAttrs = t.TypeOf<typeof FileAttrs>
export type FileRemove = t.TypeOf<typeof FileRemove>

// interop

/** Decodes a step's content into bytes. */
export const contentBytes = (c: Content): Uint8Array =>
  c.encoding === 'utf8' ? new TextEncoder().encode(c.data) : new Uint8Array(Buffer.from(c.data, 'base64'))

/** Why a write's content does not hold the bytes it declares (a hand-edited plan), or undefined when it does. */
export const contentProblem = (c: Content): string | undefined => {
  let bytes: Buffer
  if (c.encoding === 'utf8') bytes = Buffer.from(c.data, 'utf8')
  else {
    bytes = Buffer.from(c.data, 'base64')
    if (bytes.toString('base64') !== c.data) return 'its content is not canonical base64'
  }
  const sha256 = Digest.sha256(bytes)
  if (sha256 === c.sha256 && bytes.length === c.size) return undefined
  return `its content does not match its declared sha256 and size (declared ${c.sha256.slice(0, 12)}, ${c.size} bytes; the content has ${sha256.slice(0, 12)}, ${bytes.length} bytes)`
}
