import * as Memory from '../../src/interpreters/memory/memory.js'
import { describeMachineContract } from './machine.contract.js'

describeMachineContract('memory', async (snapshot) => {
  const machine = Memory.make(snapshot)
  return { machine, snapshot: async () => machine.snapshot(), cleanup: async () => undefined }
})
