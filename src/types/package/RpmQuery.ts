// RpmQuery: the DNF provider's observation, batched: one `rpm -q` for the installed NEVRAs of every
// package of a run, and one `dnf repoquery` for the newest version each could be upgraded to.
// What the real rpm (4.18) does, and this module relies on:
// - one line per installed instance in the query format (several for installonly packages such as
//   kernels, or two architectures), and "package NAME is not installed" on stdout for each name
//   with none; the exit status counts those names (0 when all are installed);
// - errors (a database it cannot open) go to stderr as "error: ...".
// - dnf 4.14's `repoquery --available --latest-limit 1 --qf` prints one line per package, the newest
//   of each name and architecture, nothing for a name no repository offers, and exits 0; it may
//   warn on stderr ("Unable to detect release version" below a root), which is not a failure.
import * as E from 'fp-ts/lib/Either.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import type { Command, Exit } from '../../core/Command.js'
import * as DnfRoot from './DnfRoot.js'
import * as Invalid from './Invalid.js'
import * as Nevra from './Nevra.js'
import * as RpmVersion from './RpmVersion.js'

// model

/** What rpm says of one requested name. */
export type PackageStatus =
  /** `newest` is the newest of `instances` by rpm's order (the version the plan compares). */
  | { readonly _tag: 'Installed'; readonly newest: Nevra.Nevra; readonly instances: ReadonlyNonEmptyArray<Nevra.Nevra> }
  | { readonly _tag: 'Absent' }

/** The spec's query format (NAME, EPOCH or 0, VERSION, RELEASE, ARCH), tab-separated, one package a line. */
export const format = '%{NAME}\\t%|EPOCH?{%{EPOCH}}:{0}|\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\n'

/**
 * dnf's format for the same fields. Space-separated (none of them can hold a space), as dnf 4
 * prints each entry on a line of its own and its handling of `\t` in `--qf` is not one to rely on.
 */
export const availableFormat = '%{name} %{epoch} %{version} %{release} %{arch}'

// constructors

/** The installed-package query for these names (at least one), of the database below `root` when given. */
export const query = (names: ReadonlyNonEmptyArray<string>, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): Command => ({
  argv: ['rpm', ...DnfRoot.rpmOptions(root), '-q', '--queryformat', format, '--', ...names],
  environment: ['LC_ALL=C'],
  timeoutMs,
})

/** The newest available version of each of these names in the enabled repositories, below `root` when given. */
export const available = (names: ReadonlyNonEmptyArray<string>, root: DnfRoot.DnfRoot | undefined, timeoutMs: number): Command => ({
  argv: ['dnf', '-q', ...DnfRoot.options(root), 'repoquery', '--available', '--latest-limit', '1', '--qf', availableFormat, '--', ...names],
  environment: ['LC_ALL=C'],
  timeoutMs,
})

/** Parses lines of five fields into NEVRAs. */
const nevras = (what: string, lines: ReadonlyArray<string>, separator: '\t' | ' '): E.Either<Invalid.Invalid, ReadonlyArray<Nevra.Nevra>> => {
  const out: Nevra.Nevra[] = []
  for (const line of lines) {
    const f = line.split(separator)
    if (f.length !== 5) return E.left(Invalid.invalid(what, line, `has ${f.length} ${separator === ' ' ? 'space' : 'tab'}-separated fields, not 5`))
    const [name, epoch, version, release, arch] = f as [string, string, string, string, string]
    if (!/^[0-9]+$/.test(epoch)) return E.left(Invalid.invalid(what, line, 'has an epoch that is not a whole number'))
    const n = Nevra.make(name, epoch, version, release, arch)
    if (E.isLeft(n)) return E.left(Invalid.invalid(what, line, Invalid.message(n.left)))
    out.push(n.right)
  }
  return E.right(out)
}

const newestOf = (ns: ReadonlyNonEmptyArray<Nevra.Nevra>): Nevra.Nevra => ns.reduce((a, b) => (RpmVersion.compare(b.evr, a.evr) > 0 ? b : a))

/**
 * The NEVRAs of each name, in output order. One query holds every package of a run, so filtering
 * the lines once per name would be quadratic in their number.
 */
const byName = (ns: ReadonlyArray<Nevra.Nevra>): ReadonlyMap<string, ReadonlyNonEmptyArray<Nevra.Nevra>> => {
  const out = new Map<string, [Nevra.Nevra, ...Nevra.Nevra[]]>()
  for (const n of ns) {
    const mine = out.get(n.name)
    if (mine === undefined) out.set(n.name, [n])
    else mine.push(n)
  }
  return out
}

/**
 * What rpm says of each requested name, from the whole outcome of `query(names)`: refused when rpm
 * failed, printed a package not asked for, or left a name unexplained.
 */
export const parse = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, PackageStatus>> => {
  const errors = exit.stderr.split('\n').filter((l) => l.trim() !== '')
  if (exit.exitCode === undefined || errors.length > 0) {
    return E.left(Invalid.invalid('rpm -q', errors[0] ?? '', exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const asked = new Set(names)
  const absent = new Set<string>()
  const lines: string[] = []
  for (const line of exit.stdout.split('\n')) {
    if (line === '') continue
    const m = /^package (.*) is not installed$/.exec(line)
    if (m !== null && asked.has(m[1]!)) absent.add(m[1]!)
    else lines.push(line)
  }
  const parsed = nevras('rpm -q output', lines, '\t')
  if (E.isLeft(parsed)) return parsed
  const stray = parsed.right.find((n) => !asked.has(n.name))
  if (stray !== undefined) return E.left(Invalid.invalid('rpm -q output', stray.name, 'is a package that was not asked for'))
  if ((exit.exitCode === 0) !== (absent.size === 0)) return E.left(Invalid.invalid('rpm -q', String(exit.exitCode), `is an exit status that does not fit ${absent.size} packages not installed`))
  const instances = byName(parsed.right)
  const result = new Map<string, PackageStatus>()
  for (const name of names) {
    const mine = instances.get(name)
    if (mine !== undefined) {
      if (absent.has(name)) return E.left(Invalid.invalid('rpm -q output', name, 'has a line for this package, and rpm also said it is not installed'))
      result.set(name, Object.freeze({ _tag: 'Installed', newest: newestOf(mine), instances: mine }))
    } else if (absent.has(name)) {
      result.set(name, Object.freeze({ _tag: 'Absent' }))
    } else {
      return E.left(Invalid.invalid('rpm -q output', name, 'has no line for this package, and rpm did not say it is not installed'))
    }
  }
  return E.right(result)
}

/**
 * The newest available version of each requested name, from the outcome of `available(names)`
 * (a name with no line has nothing available); refused when dnf failed or printed a stray package.
 */
export const parseAvailable = (names: ReadonlyArray<string>, exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, Nevra.Nevra>> => {
  if (exit.exitCode !== 0) {
    const first = exit.stderr.split('\n').find((l) => l.trim() !== '') ?? ''
    return E.left(Invalid.invalid('dnf repoquery', first, exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  const parsed = nevras('dnf repoquery output', exit.stdout.split('\n').filter((l) => l !== ''), ' ')
  if (E.isLeft(parsed)) return parsed
  const asked = new Set(names)
  const stray = parsed.right.find((n) => !asked.has(n.name))
  if (stray !== undefined) return E.left(Invalid.invalid('dnf repoquery output', stray.name, 'is a package that was not asked for'))
  const offered = byName(parsed.right)
  const result = new Map<string, Nevra.Nevra>()
  for (const name of names) {
    const mine = offered.get(name)
    if (mine !== undefined) result.set(name, newestOf(mine))
  }
  return E.right(result)
}
