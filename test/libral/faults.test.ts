// A provider's output that breaks the protocol is a ProtocolViolation naming the provider (its full
// name and file) and the action, with the parser's message in its description. Runs the real
// `misbehave` fixture in a temporary sandbox passed as PLAIT_ROOT_DIR.
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Discover from '../../src/interpreters/libral/discover.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import { cleanup, fixtureProvider, tempDir } from './support.js'

afterAll(cleanup)

describe('protocol violations', () => {
  it.each([
    ['garbage', 'unreadable output: the first line is'],
    ['noeom', 'unreadable output: ral_error on line'],
  ])('%s output of list is a ProtocolViolation naming the provider', async (mode, start) => {
    const s = Session.make({ root: tempDir(), hostEnv: { PATH: process.env['PATH'], HOME: process.env['HOME'], PLAIT_FIXTURE_MODE: mode } })
    const p = await Discover.load(s.context, fixtureProvider('misbehave'))
    if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
    const r = await s.list(p.right)
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left).toMatchObject({ _tag: 'ProtocolViolation', module: 'libral', op: 'list', subject: `misbehave::misbehave (${fixtureProvider('misbehave')})` })
    expect(r.left.description.startsWith(start)).toBe(true)
  })
})
