// DpkgStatus: the APT provider's status query, batched (one `dpkg-query -W` for every package of
// a run), and its parser. What the real dpkg-query (1.21) does, and this module relies on:
// - it prints one line per package it knows (installed or not: a package it merely has a record
//   of prints `not-installed` with an empty version), sorted by name, not in argv order, and one
//   line per architecture of a multi-arch package;
// - for each name it has no record of it writes "dpkg-query: no packages found matching NAME" to
//   stderr, keeps going, and exits 1; 0 when every name matched; 2 on a fatal error (a database it
//   cannot read). A missing database is not an error: every name is then unknown;
// - names are glob patterns (Name keeps `*?[` out) and `pkg:arch` selects one architecture;
// - messages are translated, so the query runs with LC_ALL=C; with no name at all it would list
//   every package, so the query needs at least one.
// Only `installed` counts as present (the spec's table); every other state is absent, so that
// apt-get install repairs a half-installed package.
import * as E from 'fp-ts/lib/Either.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import type { Command, Exit } from '../../core/Command.js'
import * as DebianVersion from './DebianVersion.js'
import * as Invalid from './Invalid.js'
import * as Name from './Name.js'
import type { Root } from './Root.js'

// model

/** The values of dpkg's `db:Status-Status`. */
export const states = ['installed', 'config-files', 'half-installed', 'half-configured', 'unpacked', 'triggers-awaited', 'triggers-pending', 'not-installed'] as const
export type State = (typeof states)[number]

/** One line of the query's output. */
export interface Row {
  readonly package: string
  /** A valid Debian version; empty only for `not-installed`. */
  readonly version: string
  readonly architecture: string
  readonly state: State
}

/** What dpkg says of one requested name. */
export type PackageStatus =
  | { readonly _tag: 'Installed'; readonly version: string; readonly architecture: string }
  /** `state` is undefined when dpkg has no record of the name; `version` is what a non-installed state keeps (config-files), or empty. */
  | { readonly _tag: 'Absent'; readonly state: State | undefined; readonly version: string }

/** The output format: tab-separated fields, one package a line (the spec's fields, in its order). */
export const format = '${Package}\\t${Version}\\t${Architecture}\\t${db:Status-Status}\\n'

// constructors

/**
 * The status query for these names (at least one: with none, dpkg-query lists every package),
 * of the database below `root` when given (`--root` sets dpkg's admin directory to ROOT/var/lib/dpkg).
 */
export const query = (names: ReadonlyNonEmptyArray<string>, root: Root | undefined, timeoutMs: number): Command => ({
  argv: ['dpkg-query', ...(root === undefined ? [] : [`--root=${root.path}`]), '-W', `-f=${format}`, '--', ...names],
  environment: ['LC_ALL=C'],
  timeoutMs,
})

const what = 'dpkg-query output'

/** Parses the query's stdout into rows, refusing a line that is not four known fields. */
export const rows = (stdout: string): E.Either<Invalid.Invalid, ReadonlyArray<Row>> => {
  const out: Row[] = []
  for (const line of stdout.split('\n')) {
    if (line === '') continue
    const bad = (reason: string) => E.left(Invalid.invalid(what, line, reason))
    const f = line.split('\t')
    if (f.length !== 4) return bad(`has ${f.length} tab-separated fields, not 4`)
    const [pkg, version, architecture, state] = f as [string, string, string, string]
    if (E.isLeft(Name.check(pkg))) return bad('names a package that is not a valid name')
    if (!(states as ReadonlyArray<string>).includes(state)) return bad(`has an unknown status ${Invalid.quote(state)}`)
    if (version === '' ? state !== 'not-installed' : E.isLeft(DebianVersion.parse(version))) return bad('has a missing or malformed version')
    if (!/^[a-z0-9-]*$/.test(architecture)) return bad('has a malformed architecture')
    out.push(Object.freeze({ package: pkg, version, architecture, state: state as State }))
  }
  return E.right(out)
}

/** The row's name qualified with its architecture (`pkg:arch`): the other name a row answers to, beside `pkg`. */
const qualified = (r: Row): string => `${r.package}:${r.architecture}`

/**
 * The rows that answer each requested name, in output order, under both names a row answers to:
 * `pkg` and `pkg:arch` (never equal, so a row is listed once under a name). One query holds every
 * package of a run, so matching every name against every row would be quadratic in their number.
 */
const answering = (rs: ReadonlyArray<Row>): ReadonlyMap<string, ReadonlyArray<Row>> => {
  const out = new Map<string, Row[]>()
  for (const r of rs) {
    for (const name of [r.package, qualified(r)]) {
      const mine = out.get(name)
      if (mine === undefined) out.set(name, [r])
      else mine.push(r)
    }
  }
  return out
}

/**
 * What dpkg says of each requested name, from the whole outcome of `query(names)`: refused when
 * dpkg failed, printed a package not asked for, left a name unexplained, or reports one name
 * installed at two versions (two architectures: name one with `:arch`).
 */
export const parse = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, PackageStatus>> => {
  if (exit.exitCode !== 0 && exit.exitCode !== 1) {
    const first = exit.stderr.split('\n').find((l) => l.trim() !== '') ?? ''
    return E.left(Invalid.invalid('dpkg-query', first, exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const parsed = rows(exit.stdout)
  if (E.isLeft(parsed)) return parsed
  const asked = new Set(names)
  const stray = parsed.right.find((r) => !asked.has(r.package) && !asked.has(qualified(r)))
  if (stray !== undefined) return E.left(Invalid.invalid(what, stray.package, 'is a package that was not asked for'))
  const unknown = new Set<string>()
  for (const line of exit.stderr.split('\n')) {
    if (line === '' || line.startsWith('dpkg-query: warning: ')) continue
    const m = /^dpkg-query: no packages found matching (.*)$/.exec(line)
    if (m === null || !asked.has(m[1]!)) return E.left(Invalid.invalid('dpkg-query error output', line, 'is not a message plait knows'))
    unknown.add(m[1]!)
  }
  const byName = answering(parsed.right)
  const result = new Map<string, PackageStatus>()
  for (const name of names) {
    const mine = byName.get(name) ?? []
    if (mine.length === 0) {
      if (!unknown.has(name)) return E.left(Invalid.invalid(what, name, 'has no line for this package, and dpkg-query did not say it found none'))
      result.set(name, Object.freeze({ _tag: 'Absent', state: undefined, version: '' }))
      continue
    }
    if (unknown.has(name)) return E.left(Invalid.invalid(what, name, 'has a line for this package, and dpkg-query also said it found none'))
    const installed = mine.filter((r) => r.state === 'installed')
    const first = installed[0]
    if (first === undefined) {
      const r = mine[0]!
      result.set(name, Object.freeze({ _tag: 'Absent', state: r.state, version: r.version }))
    } else if (installed.some((r) => r.version !== first.version)) {
      return E.left(Invalid.invalid('package', name, `is installed at several versions (${installed.map((r) => `${r.version} ${r.architecture}`).join(', ')}): name one architecture, as ${name}:${first.architecture}`))
    } else {
      result.set(name, Object.freeze({ _tag: 'Installed', version: first.version, architecture: first.architecture }))
    }
  }
  if (exit.exitCode === 0 && unknown.size > 0) return E.left(Invalid.invalid('dpkg-query', [...unknown][0]!, 'said it found no such package, yet exited 0'))
  if (exit.exitCode === 1 && unknown.size === 0) return E.left(Invalid.invalid('dpkg-query', '', 'exited 1 without saying which package it did not find'))
  return E.right(result)
}

// guards

/** The spec's state table: only `installed` is present. */
export const isPresent = (s: PackageStatus): boolean => s._tag === 'Installed'
