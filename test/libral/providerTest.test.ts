// `plait provider test` on fixture providers: a json-convention one that passes, a broken one
// whose failure is shrunk to its counterexample, one whose metadata is bad.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as ProviderTest from '../../src/interpreters/libral/providerTest.js'
import { cleanup, fixtureProvider, tempDir } from './support.js'

afterAll(cleanup)

const hostEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'] }

const run = (p: string, runs: number, extra: Partial<ProviderTest.Options> = {}): Promise<ProviderTest.Report> =>
  ProviderTest.testProvider({ path: p, runs, steps: 3, seed: 42, hostEnv, ...extra }).then((r) => {
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    return r.right
  })

describe('plait provider test', () => {
  it('passes a json-convention provider', async () => {
    const r = await run(fixtureProvider('store'), 1, { steps: 2 })
    expect(r.failure).toBeUndefined()
  })

  it('finds a broken provider and prints the shrunk counterexample', async () => {
    const r = await run(fixtureProvider('forgetful'), 30, { steps: 2 })
    expect(r.failure).toBeDefined()
    const f = r.failure!
    expect(f.message).toContain('after the update, find does not show the desired values')
    // Shrunk to one step whose value is one character too long for the provider's 3.
    expect(f.counterexample).toHaveLength(1)
    expect(String(f.counterexample[0]!.attrs['value'])).toHaveLength(4)
    const text = ProviderTest.renderReport(r)
    expect(text).toContain('FAILED')
    expect(text).toMatch(/1\. plait ral kv::forgetful [a-z]+ value=[a-z]{4}\b/)
    expect(text).toContain('--seed 42 --steps 2 --replay-path ')
  })

  it('refuses to test a provider whose metadata is bad', async () => {
    const dir = tempDir()
    const p = path.join(dir, 'bad.prov')
    fs.writeFileSync(p, '#!/bin/bash\necho "provider: {}"\n', { mode: 0o755 })
    const r = await ProviderTest.testProvider({ path: p, hostEnv })
    expect(E.isLeft(r) && r.left.map(Diagnostic.render).join('\n')).toContain(`${p} (ral_action=describe)`)
  })
})
