// Step: one typed effect of a plan, with the reason it is needed and the spec's noop message.
//
// Invariants: `path` is a clean absolute machine path; `mode` is four octal digits ("0644");
// a write's `content.sha256` is the sha256 of the decoded `content.data`.
import * as t from 'io-ts'

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

/** An attribute value of a libral resource in a plan file: a string, a boolean or a list of strings. */
export const LibralValue = t.union([t.string, t.boolean, t.array(t.string)])
export type LibralValue = t.TypeOf<typeof LibralValue>

export const LibralChange = t.intersection([t.type({ attr: t.string, is: LibralValue }), t.partial({ was: LibralValue })])
export type LibralChange = t.TypeOf<typeof LibralChange>

/** A libral provider's `update` of one resource with exactly the changed writable attributes; it cannot be undone. */
export const LibralUpdate = t.type({
  _tag: t.literal('libral.update'),
  /** The provider's full name, `type::name`. */
  provider: t.string,
  /** The resource's name. */
  name: t.string,
  /** The changes to send, in metadata order; never `name`, never a read-only attribute. */
  changes: t.array(LibralChange),
  reason: t.string,
  noop: t.string,
})
export type LibralUpdate = t.TypeOf<typeof LibralUpdate>

/** A command to run (an exec resource, or one of its guards): its words, where, with what environment, for how long. */
export const CommandC = t.intersection([
  t.type({ argv: t.array(t.string), environment: t.array(t.string), timeoutMs: t.number }),
  t.partial({ cwd: t.string, path: t.string }),
])
export type CommandC = t.TypeOf<typeof CommandC>

/**
 * Run an exec resource's command; it cannot be undone. `guards` are checked again at its turn
 * (unless a subscription triggered it): an earlier step may have changed their answer.
 */
export const ExecRun = t.intersection([
  t.type({
  _tag: t.literal('exec.run'),
  /** The command line as the manifest gave it, for people. */
  line: t.string,
  provider: t.keyof({ posix: null, shell: null }),
  command: CommandC,
  /** Exit codes that mean success. */
  returns: t.array(t.number),
  logoutput: t.boolean,
  guards: t.partial({ creates: t.string, onlyif: CommandC, unless: CommandC }),
  reason: t.string,
  noop: t.string,
  }),
  t.partial({
    /** The subscribed resources: when one of them changed in this run, the command runs whatever its guards say. */
    subscribe: t.array(t.string),
    /** A refresh only: the command runs only if one of these changed in this run (the guards said skip at plan time). */
    when: t.array(t.string),
  }),
])
export type ExecRun = t.TypeOf<typeof ExecRun>

/** The steps of the file type: they act on a path, and the journal can undo them. */
export const FileStep = t.union([FileWrite, FileMkdir, FileAttrs, FileRemove])
export type FileStep = t.TypeOf<typeof FileStep>

export const Step = t.union([FileWrite, FileMkdir, FileAttrs, FileRemove, LibralUpdate, ExecRun])
export type Step = t.TypeOf<typeof Step>
export type FileWrite = t.TypeOf<typeof FileWrite>
export type FileMkdir = t.TypeOf<typeof FileMkdir>
export type FileAttrs = t.TypeOf<typeof FileAttrs>
export type FileRemove = t.TypeOf<typeof FileRemove>

// guards

/** True for steps whose effect the journal can undo (files and directories). */
export const isFileStep = (s: Step): s is FileStep => s._tag.startsWith('file.')

// combinators

/** Runs the function of the step's case. */
export const match = <R>(cases: {
  readonly 'file.write': (s: FileWrite) => R
  readonly 'file.mkdir': (s: FileMkdir) => R
  readonly 'file.attrs': (s: FileAttrs) => R
  readonly 'file.remove': (s: FileRemove) => R
  readonly 'libral.update': (s: LibralUpdate) => R
  readonly 'exec.run': (s: ExecRun) => R
}) => (s: Step): R => {
  switch (s._tag) {
    case 'file.write':
      return cases['file.write'](s)
    case 'file.mkdir':
      return cases['file.mkdir'](s)
    case 'file.attrs':
      return cases['file.attrs'](s)
    case 'file.remove':
      return cases['file.remove'](s)
    case 'libral.update':
      return cases['libral.update'](s)
    case 'exec.run':
      return cases['exec.run'](s)
  }
}

/** Decodes a step's content into bytes. */
export const contentBytes = (c: Content): Uint8Array =>
  c.encoding === 'utf8' ? new TextEncoder().encode(c.data) : new Uint8Array(Buffer.from(c.data, 'base64'))
