// Deferral: finds out whether a property's template reads (readFile, file, template) a file that an
// earlier resource of the manifest manages; such a value is known only at apply. The template is
// rendered once more with those files empty, to learn (and snapshot) what else it reads.
import * as E from 'fp-ts/lib/Either.js'
import type * as Deferred from '../core/Deferred.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Position } from '../core/Position.js'
import type * as Evaluate from '../manifest/expr/Evaluate.js'
import * as Template from '../manifest/expr/Template.js'
import { record, type Scope } from '../manifest/Manifest.js'
import type * as Node from '../manifest/Node.js'

// model

/** What decoders need to defer a value: which files earlier resources manage, and a snapshot of the rest. */
export interface Deferral {
  /** The earlier resource that manages the file at a host path, if one does: its id and machine path. */
  readonly managedAt: (hostPath: string) => { readonly id: string; readonly path: string } | undefined
  /** What a template read at plan time, as the executor will need it. */
  readonly snapshot: (reads: Evaluate.Reads) => Deferred.Snapshot
}

/** A value that must wait: its template, the managed files it reads (relative path → id and machine path), and what else it read. */
export interface Probed {
  readonly template: string
  readonly at: Position
  readonly managed: ReadonlyMap<string, { readonly id: string; readonly path: string }>
  readonly reads: Evaluate.Reads
}

// constructors

/** A scalar's template when it reads a managed file; undefined when it can be rendered now. */
export const probe = (n: Node.Node, scope: Scope, baseDir: string, deferral: Deferral | undefined): Probed | undefined => {
  const read = scope.env.readFile
  if (deferral === undefined || read === undefined || n._tag !== 'Scalar' || typeof n.value !== 'string') return undefined
  const managed = new Map<string, { readonly id: string; readonly path: string }>()
  const reader = (blank: boolean) => (p: string): E.Either<string, string> => {
    const m = deferral.managedAt(PosixPath.resolve(baseDir, p))
    if (m === undefined) return read(p)
    managed.set(p, m)
    return blank ? E.right('') : E.left('plait: deferred read')
  }
  const where = { base: n.at, shift: n.quoted ? 1 : 0 }
  const first = Template.render(n.text, { ...scope.env, readFile: reader(false) }, where)
  if (E.isRight(first) || managed.size === 0) return undefined
  const dry = Template.render(n.text, { ...scope.env, readFile: reader(true) }, where)
  const reads: Evaluate.Reads = E.isRight(dry) ? dry.right.reads : { values: [], files: [], clock: false }
  record(scope, reads)
  return { template: n.text, at: n.at, managed, reads: { ...reads, files: reads.files.filter((f) => !managed.has(f)) } }
}

/** Merges what several deferred values read into one snapshot's reads. */
export const mergeReads = (all: ReadonlyArray<Evaluate.Reads>): Evaluate.Reads => ({
  values: all.flatMap((r) => r.values),
  files: [...new Set(all.flatMap((r) => r.files))].sort(),
  clock: all.some((r) => r.clock),
})
