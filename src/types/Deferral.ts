// Deferral: finds out whether a property's template reads (readFile, file, template) a file that an
// earlier resource of the manifest manages; such a value is known only at apply. The template is
// rendered once more with those files empty, to learn (and snapshot) what else it reads.
import * as E from 'fp-ts/lib/Either.js'
import type * as Deferred from '../core/Deferred.js'
import * as PosixPath from '../core/PosixPath.js'
import type { Position } from '../core/Position.js'
import type * as Evaluate from '../manifest/expr/Evaluate.js'
import * as Template from '../manifest/expr/Template.js'
import * as TemplateSyntax from '../manifest/expr/TemplateSyntax.js'
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

/** The names of the functions that read a file (Evaluate's readFile, file and template), anywhere in a hole's expression. */
const readsFiles = /file|File|template/

/**
 * Whether a template may read a file: one of its holes names readFile, file or template. Only the
 * holes run; the text around them was searched too, and a content whose comment says "this file
 * is managed by ..." (as most do) was rendered through a reader watching for managed files, with a
 * copy of the environment, for nothing. A template that does not parse reads nothing either
 * (rendering it says why). The parse is the one rendering then takes from its cache.
 */
export const mayReadFiles = (text: string): boolean => {
  const parsed = TemplateSyntax.parse(text)
  if (E.isLeft(parsed)) return false
  const parts = parsed.right.parts
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    if (p._tag === 'Hole' && readsFiles.test(p.source)) return true
  }
  return false
}

/** A scalar's template when it reads a managed file; undefined when it can be rendered now. */
export const probe = (n: Node.Node, scope: Scope, baseDir: string, deferral: Deferral | undefined): Probed | undefined => {
  const p = renderOrProbe(n, scope, baseDir, deferral)
  return p !== undefined && p._tag === 'Deferred' ? p.probed : undefined
}

/**
 * As `probe`, keeping the rendering when the template reads no managed file (`Now`; what it read is
 * not recorded yet: the caller records it as it takes the value), so that it is not rendered a
 * second time. Undefined when it cannot be probed or does not render (rendering it again says why).
 */
export const renderOrProbe = (
  n: Node.Node,
  scope: Scope,
  baseDir: string,
  deferral: Deferral | undefined,
): { readonly _tag: 'Now'; readonly rendered: Template.Rendered } | { readonly _tag: 'Deferred'; readonly probed: Probed } | undefined => {
  const read = scope.env.readFile
  if (deferral === undefined || read === undefined || n._tag !== 'Scalar' || typeof n.value !== 'string') return undefined
  const where = { base: n.at, shift: n.quoted ? 1 : 0 }
  // A template reads a file only by calling readFile, file or template by name: one whose holes
  // name none of them is rendered as it is, without a reader that watches for managed files (most are).
  if (!mayReadFiles(n.text)) {
    const now = Template.render(n.text, scope.env, where)
    return E.isRight(now) ? { _tag: 'Now', rendered: now.right } : undefined
  }
  const managed = new Map<string, { readonly id: string; readonly path: string }>()
  const reader = (blank: boolean) => (p: string): E.Either<string, string> => {
    const m = deferral.managedAt(PosixPath.resolve(baseDir, p))
    if (m === undefined) return read(p)
    managed.set(p, m)
    return blank ? E.right('') : E.left('plait: deferred read')
  }
  const first = Template.render(n.text, { ...scope.env, readFile: reader(false) }, where)
  if (managed.size === 0) return E.isRight(first) ? { _tag: 'Now', rendered: first.right } : undefined
  if (E.isRight(first)) return undefined
  const dry = Template.render(n.text, { ...scope.env, readFile: reader(true) }, where)
  const reads: Evaluate.Reads = E.isRight(dry) ? dry.right.reads : { values: [], files: [], clock: false }
  record(scope, reads)
  return { _tag: 'Deferred', probed: { template: n.text, at: n.at, managed, reads: { ...reads, files: reads.files.filter((f) => !managed.has(f)) } } }
}

/** Merges what several deferred values read into one snapshot's reads. */
export const mergeReads = (all: ReadonlyArray<Evaluate.Reads>): Evaluate.Reads => ({
  values: all.flatMap((r) => r.values),
  files: [...new Set(all.flatMap((r) => r.files))].sort(),
  clock: all.some((r) => r.clock),
})
