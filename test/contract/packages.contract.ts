// The package manager contract: what every interpreter of packages (apt, run for real below a
// temporary root, and the memory manager of offline tests) must do: answer a batch of packages
// with a bounded number of queries whatever its size (installed version and candidate, in the
// order asked), install the newest, a candidate or an exact version (down too), remove, fail
// with apt's words, and fail everything with "no suitable package provider" where apt is missing.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Manager } from '../../src/interpreters/packages/Manager.js'
import * as Observed from '../../src/types/package/Observed.js'

/** A package as a test sets it up: the version installed (if any) and those offered. */
export interface Setup {
  readonly installed?: string
  readonly available: ReadonlyArray<string>
}

/** A manager under test, with a view of what is installed and of the queries it ran (one entry per process or memory query). */
export interface Subject {
  readonly manager: Manager
  readonly installed: (names: ReadonlyArray<string>) => Promise<ReadonlyArray<string | undefined>>
  readonly queries: () => number
}

export type Make = (packages: Readonly<Record<string, Setup>>, options: { readonly suitable: boolean }) => Promise<Subject>

export const fleet: Readonly<Record<string, Setup>> = {
  'pc-web': { installed: '1.0-1', available: ['1.0-1', '1.1-1'] },
  'pc-db': { available: ['2.0-1', '1:0.5-1'] },
  'pc-old': { installed: '0.9-1', available: ['0.9-1'] },
}

export const packageManagerContract = (name: string, make: Make, timeout = 5000): void => {
  describe(`the package manager contract: ${name}`, () => {
    it('answers a batch in the order asked with what is installed and the candidate, with as many queries for three packages as for one', async () => {
      const s = await make(fleet, { suitable: true })
      const before = s.queries()
      expect(await s.manager.status(['pc-web'])).toEqual(E.right([Observed.of('1.0-1', '1.1-1')]))
      const one = s.queries() - before
      expect(await s.manager.status(['pc-db', 'pc-nothere', 'pc-web', 'pc-old'])).toEqual(
        E.right([Observed.of(undefined, '1:0.5-1'), Observed.of(undefined, undefined), Observed.of('1.0-1', '1.1-1'), Observed.of('0.9-1', '0.9-1')]),
      )
      expect(s.queries() - before).toBe(2 * one)
      expect(await s.manager.status([])).toEqual(E.right([]))
      expect(s.queries() - before).toBe(2 * one)
    }, timeout)

    it('installs the newest, upgrades to a candidate, goes down to an exact version, and removes', async () => {
      const s = await make(fleet, { suitable: true })
      expect(await s.manager.act({ _tag: 'Install', name: 'pc-db', target: { _tag: 'Newest' } })).toEqual(E.right(undefined))
      expect(await s.manager.act({ _tag: 'Install', name: 'pc-web', target: { _tag: 'Latest', version: '1.1-1' } })).toEqual(E.right(undefined))
      expect(await s.installed(['pc-db', 'pc-web'])).toEqual(['1:0.5-1', '1.1-1'])
      expect(await s.manager.act({ _tag: 'Install', name: 'pc-web', target: { _tag: 'Exact', version: '1.0-1' } })).toEqual(E.right(undefined))
      expect(await s.manager.act({ _tag: 'Remove', name: 'pc-old' })).toEqual(E.right(undefined))
      expect(await s.installed(['pc-web', 'pc-old'])).toEqual(['1.0-1', undefined])
      // removing what is not installed is no error
      expect(await s.manager.act({ _tag: 'Remove', name: 'pc-old' })).toEqual(E.right(undefined))
    }, timeout * 3)

    it("fails with apt's words: a package no repository offers, a version it does not offer, a candidate below what is installed", async () => {
      const s = await make(fleet, { suitable: true })
      const unknown = await s.manager.act({ _tag: 'Install', name: 'pc-nothere', target: { _tag: 'Newest' } })
      expect(E.isLeft(unknown) && [unknown.left._tag, unknown.left.description]).toEqual(['Failed', expect.stringMatching(/^apt-get install exited 100: .*E: Unable to locate package pc-nothere/)])
      const version = await s.manager.act({ _tag: 'Install', name: 'pc-web', target: { _tag: 'Exact', version: '9.9-9' } })
      expect(E.isLeft(version) && version.left.description).toMatch(/^apt-get install exited 100: .*E: Version '9\.9-9' for 'pc-web' was not found/)
      await s.manager.act({ _tag: 'Install', name: 'pc-web', target: { _tag: 'Latest', version: '1.1-1' } })
      const down = await s.manager.act({ _tag: 'Install', name: 'pc-web', target: { _tag: 'Latest', version: '1.0-1' } })
      expect(E.isLeft(down) && down.left.description).toMatch(/^apt-get install exited 100: .*E: Packages were downgraded and -y was used without --allow-downgrades\./)
      expect(await s.installed(['pc-web'])).toEqual(['1.1-1'])
    }, timeout * 3)

    it('fails everything with "no suitable package provider" where apt is missing, and changes nothing', async () => {
      const s = await make(fleet, { suitable: false })
      for (const r of [await s.manager.status(['pc-web']), await s.manager.act({ _tag: 'Remove', name: 'pc-web' })]) {
        expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['NotFound', expect.stringMatching(/^no suitable package provider: apt needs apt-get, apt-cache and dpkg-query/)])
      }
    }, timeout)
  })
}
