import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as AccountsParser from '../../src/interpreters/posix/accounts.js'
import * as Materialize from '../../src/interpreters/posix/materialize.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import { describeMachineContract } from './machine.contract.js'

describeMachineContract('posix', async (snapshot) => {
  const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-contract-'))
  const written = await Materialize.materialize(snapshot, root)()
  if (E.isLeft(written)) throw new Error(`materialize: ${written.left.description}`)
  const machine = Posix.make({
    root,
    accounts: { passwd: AccountsParser.renderPasswd(snapshot.users), group: AccountsParser.renderGroup(snapshot.groups) },
  })
  return {
    machine,
    snapshot: async () => {
      const s = await Materialize.capture(root, snapshot)()
      if (E.isLeft(s)) throw new Error(`capture: ${s.left.description}`)
      return s.right
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  }
})
