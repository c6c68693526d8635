// HostCompile: one revision's manifest compiled for one host's facts, offline, from the files of
// that revision held in memory (pure: compile reads files only through the reader made here).
// A revision is parsed once (`prepare`) and compiled once per host (`compile`).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Compile from '../compiler/compile.js'
import * as References from '../manifest/References.js'
import * as Facts from '../facts/Facts.js'
import * as FactsFile from '../facts/FactsFile.js'
import type * as Node from '../manifest/Node.js'
import * as Value from '../manifest/expr/Value.js'
import * as CatalogDiff from './CatalogDiff.js'
import type * as Grouping from './Grouping.js'
import * as Snapshot from './Snapshot.js'

// model

/** A file of a revision below the manifest's directory: its UTF-8 text, or why it cannot be read. */
export type File = { readonly text: string } | { readonly problem: string }

/** One revision's sources, as read from git. */
export interface Sources {
  /** The manifest's path as diagnostics and the report name it (the same at both revisions). */
  readonly manifest: string
  readonly text: string
  /** The files below the manifest's directory, by path relative to it (`templates/app.templ`). */
  readonly files: ReadonlyMap<string, File>
  /** A `--hiera` document of that revision. */
  readonly hiera?: { readonly file: string; readonly text: string }
  /** Why the manifest cannot be read at this revision (it does not exist there): every host fails at it. */
  readonly missing?: string
}

/** A revision ready for its hosts: its sources and its parsed manifest (or why it does not parse). */
export interface Prepared {
  readonly sources: Sources
  readonly tree: E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Node.Node>
}

/** What every host's compile shares: the manifest's directory on the host (relative `source:` paths resolve against it) and the time `now()` gives. */
export interface Setting {
  readonly baseDir: string
  /** RFC 3339. */
  readonly now: string
}

// constructors

/** A path cleaned of `.` and `..` segments; undefined when it is absolute or leads above its start. */
export const clean = (path: string): string | undefined => {
  if (path.startsWith('/')) return undefined
  const out: string[] = []
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (out.length === 0) return undefined
      out.pop()
    } else out.push(seg)
  }
  return out.join('/')
}

/** The `readFile`, `file` and `template` reader of a revision: its files below the manifest's directory, nothing else. */
export const reader =
  (files: ReadonlyMap<string, File>) =>
  (path: string): E.Either<string, string> => {
    const p = clean(path)
    if (p === undefined) return E.left(`${path} is outside the manifest directory`)
    const f = files.get(p)
    if (f === undefined) return E.left(`open ${path}: no such file or directory`)
    return 'text' in f ? E.right(f.text) : E.left(`${path} ${f.problem}`)
  }

/** Why a document that holds Bolt `_plugin` references cannot be compiled here (they are not resolved offline, and a secret must not reach the report). */
const referring = (file: string): Diagnostic.Diagnostic =>
  Diagnostic.make('Validation', `${file} holds Bolt _plugin references, which plait diff does not resolve (it runs no plugin)`, {
    hint: 'compare plans instead: plait plan --out at each revision, then plait show new.json --against old.json',
  })

/** Parses a revision's manifest once, for all its hosts; a manifest or hiera document with `_plugin` references fails every host. */
export const prepare = (sources: Sources): Prepared => {
  if (sources.missing !== undefined) return { sources, tree: E.left([Diagnostic.make('Io', sources.missing)]) }
  const tree = Compile.parse(sources.manifest, sources.text)
  if (E.isRight(tree) && References.any(tree.right)) return { sources, tree: E.left([referring(sources.manifest)]) }
  const h = sources.hiera
  if (E.isRight(tree) && h !== undefined && h.text.includes(References.pluginKey)) {
    const hiera = Compile.parse(h.file, h.text)
    if (E.isRight(hiera) && References.any(hiera.right)) return { sources, tree: E.left([referring(h.file)]) }
  }
  return { sources, tree }
}

/** A host's facts from the text of its facts file (`plait facts --json` output, JSON or YAML), with `--fact` assignments on top. */
export const factsOf = (file: string, text: string, assignments: ReadonlyArray<string>): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Facts.Facts> => {
  const parsed = FactsFile.parse(file, text, FactsFile.formatOf(file) ?? 'yaml')
  if (E.isLeft(parsed)) return parsed
  const set = assignments.map(Facts.assignment)
  const bad = set.flatMap((a) => (E.isLeft(a) ? [a.left] : []))
  if (bad.length > 0) return E.left(bad)
  return E.right(Facts.assemble({ system: Facts.empty, files: [], factsFile: parsed.right, assignments: set.flatMap((a) => (E.isRight(a) ? [a.right] : [])) }))
}

/** A prepared revision compiled for a host's facts, as a snapshot; diagnostics rendered as the CLI prints them. */
export const compile = (p: Prepared, facts: Facts.Facts, setting: Setting): E.Either<ReadonlyArray<string>, Snapshot.Snapshot> => {
  if (E.isLeft(p.tree)) return E.left(p.tree.left.map(Diagnostic.render))
  const now = Value.time(setting.now)
  if (now === undefined) return E.left([Diagnostic.render(Diagnostic.make('Validation', `--now ${setting.now}: not an RFC 3339 time`))])
  const catalog = Compile.compileTree(p.sources.manifest, p.sources.text, p.tree.right, setting.baseDir, {
    now,
    readFile: reader(p.sources.files),
    facts,
    ...(p.sources.hiera !== undefined ? { hiera: p.sources.hiera } : {}),
  })
  // A `source:` below the manifest's directory is a file of the revision: its text is compared too.
  const below = setting.baseDir.endsWith('/') ? setting.baseDir : `${setting.baseDir}/`
  const readSource = (path: string): string | undefined => {
    const f = path.startsWith(below) ? p.sources.files.get(path.slice(below.length)) : undefined
    return f !== undefined && 'text' in f ? f.text : undefined
  }
  return E.isLeft(catalog) ? E.left(catalog.left.map(Diagnostic.render)) : E.right(Snapshot.of(catalog.right, readSource))
}

/** A host's outcome: both revisions compiled for its facts and compared, or the diagnostics of each revision that failed. */
export const outcome = (
  host: { readonly name: string; readonly file: string; readonly text: string },
  from: Prepared,
  to: Prepared,
  o: Setting & { readonly assignments: ReadonlyArray<string>; readonly labels: CatalogDiff.Labels },
): Grouping.Outcome => {
  const facts = factsOf(host.file, host.text, o.assignments)
  if (E.isLeft(facts)) {
    const ds = facts.left.map(Diagnostic.render)
    return { _tag: 'Failed', host: host.name, from: ds, to: ds }
  }
  const a = compile(from, facts.right, o)
  const b = compile(to, facts.right, o)
  if (E.isLeft(a) || E.isLeft(b)) return { _tag: 'Failed', host: host.name, ...(E.isLeft(a) ? { from: a.left } : {}), ...(E.isLeft(b) ? { to: b.left } : {}) }
  return { _tag: 'Compiled', host: host.name, diff: CatalogDiff.compare(a.right, b.right, o.labels) }
}
