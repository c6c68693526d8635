// Both service managers pass the service manager contract: systemctl (the real interpreter, its
// argv and process runtime) against a stand-in systemctl script, because systemd cannot run on
// this machine (it is not PID 1); and the memory manager of offline tests.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll } from 'vitest'
import * as Memory from '../../src/interpreters/services/memory.js'
import * as Systemctl from '../../src/interpreters/services/systemctl.js'
import { fakeSystemctl } from '../support/systemctl.js'
import { serviceManagerContract } from './services.contract.js'

const made: string[] = []
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
})

serviceManagerContract('systemctl (against a stand-in systemctl: systemd cannot run here)', async (units, options) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-systemctl-'))
  made.push(base)
  const fake = fakeSystemctl(base)
  for (const [name, u] of Object.entries(units)) fake.unit(name, u)
  fake.down(!options.running)
  // The calls as the contract writes them: the verb and the units, without systemctl's flags.
  const calls = () => fake.calls().map((c) => c.split(' ').filter((w) => !w.startsWith('-')).join(' '))
  return { manager: Systemctl.make({ path: fake.path }), units: fake.units, calls }
})

serviceManagerContract('memory', async (units, options) => {
  const m = Memory.make(units, { running: options.running })
  return { manager: m, units: m.units, calls: m.calls }
})
