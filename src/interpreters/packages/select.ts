// select: the package Manager a run uses: it asks the provider each request names, and picks one
// by suitability where none is named (`auto`): apt where apt-get, apt-cache and dpkg-query are
// found, else dnf where dnf and rpm are found. apt comes first because a machine that has apt is a
// Debian one, whose dnf and rpm (Debian packages) manage other roots, not the host; a manifest
// names `provider: dnf` to use them. Each provider is made once, on first use, with its own lock.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Invalid from '../../types/package/Invalid.js'
import * as Name from '../../types/package/Name.js'
import * as Apt from './apt.js'
import * as Dnf from './dnf.js'
import { notSuitable, type Manager, type Provider } from './Manager.js'
import * as Tools from './tools.js'

export type Options = Tools.Options

/** The provider `auto` stands for on a machine with this PATH (undefined: neither is suitable). */
export const pick = (searchPath: string): 'apt' | 'dnf' | undefined => (Apt.suitable(searchPath) ? 'apt' : Dnf.suitable(searchPath) ? 'dnf' : undefined)

/** The package Manager that dispatches to apt or dnf. */
export const make = (o: Options): Manager => {
  const searchPath = Tools.searchPath(o.path ?? process.env['PATH'] ?? '/usr/bin:/bin')
  const made: Partial<Record<'apt' | 'dnf', Manager>> = {}
  const manager = (p: 'apt' | 'dnf'): Manager => (made[p] ??= (p === 'apt' ? Apt.make : Dnf.make)(o))
  const resolve = (provider: Provider, op: string): E.Either<Fault.Fault, 'apt' | 'dnf'> => {
    if (provider !== 'auto') return E.right(provider)
    const p = pick(searchPath)
    return p === undefined ? E.left(Fault.make('NotFound', 'package', op, 'package', notSuitable)) : E.right(p)
  }
  return {
    status: async (names, provider = 'auto') => {
      if (names.length === 0) return E.right([])
      const p = resolve(provider, 'status')
      if (E.isLeft(p)) return p
      // a name that only dnf takes (no provider named) is not asked of apt
      for (const n of names) {
        const checked = Name.checkFor(p.right, n)
        if (E.isLeft(checked)) return E.left(Fault.make('Failed', 'package', 'status', n, `${Invalid.message(checked.left)}: ${p.right} cannot be asked of it`))
      }
      return manager(p.right).status(names)
    },
    act: async (op) => {
      const p = resolve(op.provider ?? 'auto', op._tag === 'Remove' ? 'remove' : 'install')
      return E.isLeft(p) ? p : manager(p.right).act(op)
    },
  }
}
