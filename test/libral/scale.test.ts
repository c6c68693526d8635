// Scale: 500 resources of one provider start it a bounded number of times: one list to observe
// them all, one update per changed resource, one list to verify. Prints the process count and time.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Discover from '../../src/interpreters/libral/discover.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import * as Changes from '../../src/interpreters/libral/protocol/Changes.js'
import * as Registry from '../../src/interpreters/libral/protocol/Registry.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import { cleanup, tempDir } from './support.js'

afterAll(cleanup)

describe('500 host entries', () => {
  it('observe, plan, apply and verify with one list, one update per change, one list', async () => {
    const n = 500
    const changed = 25
    const ip = (i: number, bump: number): string => `10.${bump}.${Math.floor(i / 250)}.${i % 250}`
    const root = tempDir()
    fs.mkdirSync(path.join(root, 'etc'))
    fs.writeFileSync(path.join(root, 'etc', 'hosts'), Array.from({ length: n }, (_, i) => `${ip(i, 0)}\thost${i} alias${i}\n`).join(''))
    // The desired state: the same entries, except the first `changed` get a new address.
    const desired = new Map(Array.from({ length: n }, (_, i) => [`host${i}`, { ip: ip(i, i < changed ? 1 : 0), aliases: [`alias${i}`] } as Resource.Attrs]))

    const started = performance.now()
    const s = Session.make({ root, hostEnv: { PATH: process.env['PATH'] } })
    const { registry, problems } = await Discover.discover(s.context, Discover.providerPath({ system: '/nonexistent' }))
    expect(problems.map(Diagnostic.render)).toEqual([])
    const p = Registry.resolve(registry, 'host')
    if (E.isLeft(p)) throw new Error(p.left)
    const t = p.right

    const observed = await s.observe(t, [...desired.keys()])
    if (E.isLeft(observed)) throw new Error(observed.left.description)
    const plans = [...desired].map(([name, d]) => ({ name, found: observed.right.get(name)!, changes: Changes.plan(t.meta, d, observed.right.get(name)!) }))
    const toChange = plans.filter((x) => x.changes.length > 0)
    expect(toChange.map((x) => x.name)).toEqual(Array.from({ length: changed }, (_, i) => `host${i}`))
    const planned = performance.now()

    for (const x of toChange) {
      const r = await s.update(t, x.found, x.changes, { noop: false })
      expect(E.isRight(r) && r.right._tag === 'Updated' && r.right.changes).toEqual(x.changes)
    }
    const verified = await s.observe(t, [...desired.keys()])
    if (E.isLeft(verified)) throw new Error(verified.left.description)
    for (const [name, d] of desired) expect(Changes.verify(t.meta, d, verified.right.get(name)!)).toEqual([])
    const done = performance.now()

    // Discovery describes the providers that have no .yaml (sysctl::file) once each.
    const all = s.invocations()
    expect(all.filter((i) => i.provider !== t.meta.qname).map((i) => i.action)).toEqual(['describe'])
    const actions = all.filter((i) => i.provider === t.meta.qname).map((i) => i.action)
    expect(actions).toEqual(['list', ...Array<string>(changed).fill('update'), 'list'])
    console.log(
      `libral scale: ${n} resources, ${changed} changed: ${all.length} provider processes (1 describe of another provider, 1 list + ${changed} updates + 1 list to verify); ` +
        `discover + observe + plan ${Math.round(planned - started)} ms, apply + verify ${Math.round(done - planned)} ms`,
    )
  })
})
