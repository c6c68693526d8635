// Both command runners pass the runner contract: posix with real processes (/bin/sh), memory from
// the contract's script. The memory runner stands in for posix in the exec tests and the laws.
import * as Memory from '../../src/interpreters/commands/memory.js'
import * as Posix from '../../src/interpreters/commands/posix.js'
import { runnerContract, script } from './runner.contract.js'

runnerContract('posix', () => Posix.make({ root: '/', env: { PATH: process.env['PATH'] } }))
runnerContract('memory', () => Memory.make(script))
