// Deferred: a value the plan cannot know, because it reads a file that an earlier resource of the
// same manifest manages. The plan carries what the executor needs to work it out at that
// resource's turn ("known after apply"): the template and a snapshot of everything else it read.
//
// Invariants: `managed` maps each relative path the template reads through an earlier resource to
// that resource's machine path, and `after` names those resources; `snapshot` holds only what
// the template read at plan time (facts, data and environ paths, other files' text, the clock).
import * as t from 'io-ts'

// model

/** What a deferred template saw at plan time, apart from the managed files. */
export const Snapshot = t.intersection([
  t.type({
    /** The subsets of the expression roots the template read: `{ facts, data, environ }`, each a JSON tree. */
    roots: t.type({ facts: t.unknown, data: t.unknown, environ: t.record(t.string, t.string) }),
    /** The text of other files it read, by relative path. */
    files: t.record(t.string, t.string),
  }),
  t.partial({ now: t.string }),
])
export type Snapshot = t.TypeOf<typeof Snapshot>

export const Deferred = t.intersection([
  t.type({
    /** The property the value is for. */
    property: t.keyof({ content: null, source: null }),
    /** Where the property's value is written: `file:line:col`. */
    at: t.string,
    /** The resources whose files it reads, in manifest order. */
    after: t.array(t.string),
    /** Relative path read → the machine path an earlier resource manages there. */
    managed: t.record(t.string, t.string),
  }),
  t.partial({
    /** `content`: the template text, rendered at apply. */
    template: t.string,
    snapshot: Snapshot,
    /** `source`: the machine path whose bytes become the content. */
    path: t.string,
  }),
])
export type Deferred = t.TypeOf<typeof Deferred>

/** The exec properties that can wait for apply, as templates. */
export const ExecTemplates = t.partial({ command: t.string, cwd: t.string, creates: t.string, onlyif: t.string, unless: t.string, environment: t.array(t.string) })
export type ExecTemplates = t.TypeOf<typeof ExecTemplates>

/** An exec resource whose command, cwd, environment, creates or guards read a file an earlier resource manages. */
export const DeferredExec = t.type({
  at: t.string,
  after: t.array(t.string),
  managed: t.record(t.string, t.string),
  snapshot: Snapshot,
  templates: ExecTemplates,
})
export type DeferredExec = t.TypeOf<typeof DeferredExec>

// guards

/** A one-line description of a deferred exec for plans and reports. */
export const describeExec = (d: DeferredExec): string =>
  `known after apply: its ${Object.keys(d.templates).sort().join(', ')} read${Object.keys(d.templates).length === 1 ? 's' : ''} ${Object.keys(d.managed).sort().join(', ')}, managed by ${d.after.join(', ')}`

/** A one-line description for plans and reports. */
export const describe = (d: Deferred): string =>
  d.property === 'source'
    ? `content known after apply: its source ${d.path} is managed by ${d.after.join(', ')}`
    : `content known after apply: it reads ${Object.keys(d.managed).sort().join(', ')}, managed by ${d.after.join(', ')}`

// combinators

/** The bytes of a deferred value's managed files (by the relative path read) out of files read by machine path, when every one was. */
export const managedBytes = (managed: Readonly<Record<string, string>>, byPath: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> | undefined => {
  const out = new Map<string, Uint8Array>()
  for (const [rel, path] of Object.entries(managed)) {
    const b = byPath.get(path)
    if (b === undefined) return undefined
    out.set(rel, b)
  }
  return out
}
