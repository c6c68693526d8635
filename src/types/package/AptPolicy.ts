// AptPolicy: `apt-cache policy` for many packages at once, read for the versions `ensure: latest`
// plans against (the candidate) and what apt calls installed. What the real apt-cache (2.6) does:
// - one section per package, in argv order: a header `name:` (`name:arch` for a foreign
//   architecture) at column 0, then indented `Installed:`, `Candidate:` (`(none)` for either),
//   `Version table:` and the table itself;
// - a name it cannot find prints nothing and is no error (exit 0); a name that is not a package
//   but matches others as a regular expression (`zs.`) prints their sections instead, so a name
//   is only answered by a section headed exactly by it (and sections may repeat: `zs.` and `zsh`
//   both print zsh's);
// - apt counts an unpacked package as installed: dpkg's state (DpkgStatus) says what is present,
//   this module only what apt would install;
// - labels are translated, so the query runs with LC_ALL=C; with no name it prints the global
//   policy, so the query needs at least one.
import * as E from 'fp-ts/lib/Either.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import type { Command, Exit } from '../../core/Command.js'
import * as DebianVersion from './DebianVersion.js'
import * as Invalid from './Invalid.js'
import * as AptRoot from './AptRoot.js'
import * as Name from './Name.js'

// model

/** What apt says of one package. */
export interface Policy {
  /** The installed version in apt's view; undefined for `(none)`. */
  readonly installed: string | undefined
  /** The version `apt-get install NAME` would install; undefined for `(none)` (nothing installable). */
  readonly candidate: string | undefined
}

// constructors

/** The policy query for these names (at least one), below the root when given. */
export const query = (names: ReadonlyNonEmptyArray<string>, root: AptRoot.AptRoot | undefined, timeoutMs: number): Command => ({
  argv: ['apt-cache', ...AptRoot.aptOptions(root), 'policy', '--', ...names],
  environment: ['LC_ALL=C', ...AptRoot.environment(root)],
  timeoutMs,
})

const what = 'apt-cache policy output'

const version = (line: string, label: string): E.Either<Invalid.Invalid, string | undefined> => {
  const v = line.slice(line.indexOf(':') + 1).trim()
  if (v === '(none)') return E.right(undefined)
  return E.isLeft(DebianVersion.parse(v)) ? E.left(Invalid.invalid(what, line, `has a malformed ${label} version`)) : E.right(v)
}

/** Parses the policy output into a section per header, refusing anything it does not recognise. */
export const sections = (stdout: string): E.Either<Invalid.Invalid, ReadonlyMap<string, Policy>> => {
  const out = new Map<string, Policy>()
  let current: { name: string; installed?: string | undefined; candidate?: string | undefined; seen: Set<string> } | undefined
  const close = (): E.Either<Invalid.Invalid, void> => {
    if (current === undefined) return E.right(undefined)
    if (!current.seen.has('Installed') || !current.seen.has('Candidate')) return E.left(Invalid.invalid(what, current.name, 'has a section without an Installed: and a Candidate: line'))
    const before = out.get(current.name)
    if (before !== undefined && (before.installed !== current.installed || before.candidate !== current.candidate)) {
      return E.left(Invalid.invalid(what, current.name, 'is a package shown twice with different versions'))
    }
    out.set(current.name, Object.freeze({ installed: current.installed, candidate: current.candidate }))
    return E.right(undefined)
  }
  for (const line of stdout.split('\n')) {
    if (line === '') continue
    if (!/^\s/.test(line)) {
      const closed = close()
      if (E.isLeft(closed)) return closed
      const header = /^(.+):$/.exec(line)
      if (header === null || E.isLeft(Name.check(header[1]!))) return E.left(Invalid.invalid(what, line, 'is not a "package:" header'))
      current = { name: header[1]!, seen: new Set() }
      continue
    }
    if (current === undefined) return E.left(Invalid.invalid(what, line, 'comes before any "package:" header'))
    const label = /^ {2}(Installed|Candidate|Version table|Package pin):/.exec(line)?.[1]
    if (label === undefined) {
      // the version table: deeper-indented lines, read by nobody here
      if (current.seen.has('Version table') && /^ {3,}|^ \*\*\* /.test(line)) continue
      return E.left(Invalid.invalid(what, line, 'is not a line of a policy section'))
    }
    if (current.seen.has(label)) return E.left(Invalid.invalid(what, line, `repeats ${label}:`))
    current.seen.add(label)
    if (label === 'Installed' || label === 'Candidate') {
      const v = version(line, label.toLowerCase())
      if (E.isLeft(v)) return v
      current[label === 'Installed' ? 'installed' : 'candidate'] = v.right
    }
  }
  const closed = close()
  return E.isLeft(closed) ? closed : E.right(out)
}

/** The policy query's outcome, refused when apt-cache failed. */
export const parse = (exit: Exit): E.Either<Invalid.Invalid, ReadonlyMap<string, Policy>> => {
  if (exit.exitCode !== 0) {
    const first = exit.stderr.split('\n').find((l) => l.startsWith('E: ')) ?? exit.stderr.split('\n').find((l) => l.trim() !== '') ?? ''
    return E.left(Invalid.invalid('apt-cache policy', first, exit.exitCode === undefined ? `ended by signal ${exit.signal ?? '?'}` : `failed with exit status ${exit.exitCode}`))
  }
  return sections(exit.stdout)
}

// combinators

/**
 * What apt says of a requested name: the section headed exactly by it, or, for `pkg:ARCH` of the
 * native architecture (which apt heads `pkg:`), the section of `pkg`. Undefined when apt does not
 * know the name (never another package's section).
 */
export const lookup = (policies: ReadonlyMap<string, Policy>, name: string, nativeArch: string | undefined): Policy | undefined => {
  const exact = policies.get(name)
  if (exact !== undefined) return exact
  const colon = name.indexOf(':')
  if (colon < 0 || nativeArch === undefined || name.slice(colon + 1) !== nativeArch) return undefined
  return policies.get(name.slice(0, colon))
}
