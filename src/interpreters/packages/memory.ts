// memory: a package manager in memory, the double of apt and dnf for offline tests and the laws:
// packages with the version installed (if any) and the versions available, the candidate being the
// newest available in the order of the provider asked (Debian's; rpm's when dnf is named), and a
// machine where no package manager is suitable. It answers as the provider named (apt when none
// is), keeps every call it was asked, and fails as apt-get does (its words, exit 100).
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as DebianVersion from '../../types/package/DebianVersion.js'
import * as Observed from '../../types/package/Observed.js'
import * as RpmVersion from '../../types/package/RpmVersion.js'
import { notSuitable, type Manager, type Operation, type Provider } from './Manager.js'

// model

/** A package: the version installed (undefined: not installed) and those the repositories offer. */
export interface MemoryPackage {
  readonly installed?: string
  readonly available: ReadonlyArray<string>
}

export interface MemoryManager extends Manager {
  /** The packages as they are now. */
  readonly packages: () => Readonly<Record<string, MemoryPackage>>
  /** The calls so far, as the contract writes them (`status a b`, `install a=1.0-1`, `remove a`). */
  readonly calls: () => ReadonlyArray<string>
}

type Order = (a: string, b: string) => number

/** The version order of the provider named: rpm's for dnf, Debian's otherwise. */
const orderOf = (provider: Provider | undefined): Order => {
  const compare = provider === 'dnf' ? RpmVersion.compareText : DebianVersion.compareText
  return (a, b) => E.getOrElse(() => 0)(compare(a, b))
}

const newest = (vs: ReadonlyArray<string>, order: Order): string | undefined => vs.reduce<string | undefined>((best, v) => (best === undefined || order(v, best) > 0 ? v : best), undefined)

// constructors

/** A package manager with these packages; `suitable: false` is a machine without apt. */
export const make = (initial: Readonly<Record<string, MemoryPackage>>, options: { readonly suitable?: boolean } = {}): MemoryManager => {
  const packages = new Map(Object.entries(initial))
  const calls: string[] = []
  const unsuitable = (op: string) => (options.suitable === false ? E.left(Fault.make('NotFound', 'package', op, 'apt', notSuitable)) : undefined)
  const failed = (op: string, name: string, detail: string) => E.left(Fault.make('Failed', 'package', op, name, `apt-get ${op} exited 100: ${detail}`))
  return {
    packages: () => Object.fromEntries(packages),
    calls: () => [...calls],
    status: async (names, provider) => {
      if (names.length === 0) return E.right([])
      calls.push(`status ${names.join(' ')}`)
      const u = unsuitable('status')
      if (u !== undefined) return u
      const order = orderOf(provider)
      return E.right(names.map((n) => Observed.of(packages.get(n)?.installed, newest(packages.get(n)?.available ?? [], order), provider === 'dnf' ? 'dnf' : 'apt')))
    },
    act: async (op: Operation) => {
      const verb = op._tag === 'Remove' ? 'remove' : 'install'
      calls.push(op._tag === 'Install' && op.target._tag !== 'Newest' ? `install ${op.name}=${op.target.version}` : `${verb} ${op.name}`)
      const u = unsuitable(verb)
      if (u !== undefined) return u
      const p = packages.get(op.name)
      if (op._tag === 'Remove') {
        if (p !== undefined) packages.set(op.name, { available: p.available })
        return E.right(undefined)
      }
      if (p === undefined || p.available.length === 0) return failed(verb, op.name, `E: Unable to locate package ${op.name}`)
      const order = orderOf(op.provider)
      const to = op.target._tag === 'Newest' ? newest(p.available, order)! : op.target.version
      // apt-get install NAME leaves a package at or above the candidate as it is
      if (op.target._tag === 'Newest' && p.installed !== undefined && order(p.installed, to) >= 0) return E.right(undefined)
      if (!p.available.includes(to)) return failed(verb, op.name, `E: Version '${to}' for '${op.name}' was not found`)
      if (op.target._tag === 'Latest' && p.installed !== undefined && order(to, p.installed) < 0) {
        return failed(verb, op.name, 'E: Packages were downgraded and -y was used without --allow-downgrades.')
      }
      packages.set(op.name, { ...p, installed: to })
      return E.right(undefined)
    },
  }
}
