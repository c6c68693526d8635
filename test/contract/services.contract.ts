// The service manager contract: what every interpreter of services (systemctl, run against a
// stand-in because systemd cannot run here, and the memory manager of offline tests) must do:
// answer a batch of units in one query with systemd's words, move units between states with each
// verb, fail a job with systemd's words, and fail everything with "no suitable provider: systemd
// is not running" when no manager runs, never with a misread answer.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Manager } from '../../src/interpreters/services/Manager.js'

/** A unit as a test sets it up: systemd's words, and how it behaves when started. */
export interface Setup {
  readonly active: string
  readonly unitFile: string
  readonly behaviour?: 'ok' | 'fails' | 'dies'
}

/** A manager under test, with a view of its units and of the queries and verbs it was asked (`show a b`, `start a`, `daemon-reload`). */
export interface Subject {
  readonly manager: Manager
  readonly units: () => Readonly<Record<string, { readonly active: string; readonly unitFile: string }>>
  readonly calls: () => ReadonlyArray<string>
}

export type Make = (units: Readonly<Record<string, Setup>>, options: { readonly running: boolean }) => Promise<Subject>

const fleet: Readonly<Record<string, Setup>> = {
  web: { active: 'active', unitFile: 'enabled' },
  db: { active: 'inactive', unitFile: 'disabled' },
  cron: { active: 'failed', unitFile: 'static' },
  broken: { active: 'inactive', unitFile: 'disabled', behaviour: 'fails' },
  flaky: { active: 'inactive', unitFile: 'disabled', behaviour: 'dies' },
  hidden: { active: 'inactive', unitFile: 'masked' },
}

export const serviceManagerContract = (name: string, make: Make): void => {
  describe(`the service manager contract: ${name}`, () => {
    it('answers a batch of units with one query, in the order asked, with systemd words; an unknown unit is not-found', async () => {
      const s = await make(fleet, { running: true })
      const r = await s.manager.status(['db', 'web', 'nothere', 'cron'])
      expect(r).toEqual(
        E.right([
          { load: 'loaded', active: 'inactive', unitFile: 'disabled' },
          { load: 'loaded', active: 'active', unitFile: 'enabled' },
          { load: 'not-found', active: 'inactive', unitFile: '' },
          { load: 'loaded', active: 'failed', unitFile: 'static' },
        ]),
      )
      expect(s.calls()).toEqual(['show db web nothere cron'])
    })

    it('asks nothing for an empty batch', async () => {
      const s = await make(fleet, { running: true })
      expect(await s.manager.status([])).toEqual(E.right([]))
      expect(s.calls()).toEqual([])
    })

    it('starts, stops, restarts, enables and disables a unit', async () => {
      const s = await make(fleet, { running: true })
      expect(await s.manager.act('start', 'db')).toEqual(E.right(undefined))
      expect(s.units()['db']).toMatchObject({ active: 'active', unitFile: 'disabled' })
      expect(await s.manager.act('enable', 'db')).toEqual(E.right(undefined))
      expect(s.units()['db']).toMatchObject({ active: 'active', unitFile: 'enabled' })
      expect(await s.manager.act('stop', 'web')).toEqual(E.right(undefined))
      expect(await s.manager.act('disable', 'web')).toEqual(E.right(undefined))
      expect(s.units()['web']).toMatchObject({ active: 'inactive', unitFile: 'disabled' })
      expect(await s.manager.act('restart', 'cron')).toEqual(E.right(undefined))
      expect(s.units()['cron']).toMatchObject({ active: 'active', unitFile: 'static' })
      expect(await s.manager.reload()).toEqual(E.right(undefined))
      expect(s.calls()).toEqual(['start db', 'enable db', 'stop web', 'disable web', 'restart cron', 'daemon-reload'])
    })

    it('fails a start whose job fails with systemd words, and the unit is failed', async () => {
      const s = await make(fleet, { running: true })
      const r = await s.manager.act('start', 'broken')
      expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['Failed', expect.stringMatching(/^systemctl start exited 1: .*Job for broken\.service failed because the control process exited with error code\./)])
      expect(s.units()['broken']).toMatchObject({ active: 'failed' })
    })

    it('succeeds starting a unit whose process dies at once, which is then inactive (only verification can tell)', async () => {
      const s = await make(fleet, { running: true })
      expect(await s.manager.act('start', 'flaky')).toEqual(E.right(undefined))
      expect(await s.manager.status(['flaky'])).toEqual(E.right([{ load: 'loaded', active: 'inactive', unitFile: 'disabled' }]))
    })

    it('refuses to enable a masked unit, and to act on a unit it does not know', async () => {
      const s = await make(fleet, { running: true })
      const masked = await s.manager.act('enable', 'hidden')
      expect(E.isLeft(masked) && masked.left.description).toMatch(/^systemctl enable exited 1: .*is masked\./)
      const unknown = await s.manager.act('start', 'nothere')
      expect(E.isLeft(unknown) && unknown.left.description).toMatch(/^systemctl start exited \d: .*Unit nothere\.service not found\./)
    })

    it('fails everything with "no suitable provider: systemd is not running" when no manager runs, the same way each time', async () => {
      const s = await make(fleet, { running: false })
      for (const r of [await s.manager.status(['web', 'db']), await s.manager.act('start', 'db'), await s.manager.reload()]) {
        expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['Failed', 'no suitable provider: systemd is not running'])
      }
      expect(s.units()['db']).toMatchObject({ active: 'inactive' })
    })
  })
}
