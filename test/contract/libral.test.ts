// Both libral hosts pass the libral session contract: the real one running the `store` fixture
// provider (python3) below a temporary root, and the memory one with the same metadata.
import * as E from 'fp-ts/lib/Either.js'
import { afterAll } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Discover from '../../src/interpreters/libral/discover.js'
import * as MemoryHost from '../../src/interpreters/libral/memory.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import { cleanup, fixtureProvider, tempDir } from '../libral/support.js'
import { libralContract } from './libral.contract.js'

afterAll(cleanup)

const target = async (s: Session.Session) => {
  const p = await Discover.load(s.context, fixtureProvider('store'))
  if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
  return { meta: p.right.meta, path: p.right.path }
}

libralContract('real providers', async () => {
  const session = Session.make({ root: tempDir(), hostEnv: { PATH: process.env['PATH'], HOME: process.env['HOME'] } })
  return { session, target: await target(session) }
})

libralContract('memory host', async () => {
  // The metadata comes from the real provider's describe; the host never runs it again.
  const t = await target(Session.make({ root: tempDir(), hostEnv: { PATH: process.env['PATH'] } }))
  return { session: MemoryHost.make(), target: t }
})
