// An exec's guards as an observation: a guard that cannot run is a fault of its kind (the command
// runner's fault is its cause), a non-zero exit is an answer. The runner is the memory double:
// these tests are about the faults, not about running real programs.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Commands from '../../../src/interpreters/commands/memory.js'
import * as Families from '../../../src/interpreters/families.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import { run } from '../../../src/observe/run.js'
import * as Guards from '../../../src/types/exec/guards.js'
import type * as Step from '../../../src/types/exec/Step.js'

const command = (...argv: string[]): Step.CommandC => ({ argv, environment: [], timeoutMs: 1000 })
const script = (line: string): Commands.Scripted | undefined => (line === '/bin/yes' ? { exit: 0 } : line === '/bin/no' ? { exit: 1 } : line === '/bin/hang' ? { hangs: true } : undefined)
const families = () => Families.requests({ machine: Memory.make(), runner: async () => Commands.make(script) })

describe('Guards.evaluate', () => {
  it('answers with what the guards said; a non-zero exit is an answer, not a fault', async () => {
    expect(await run(Guards.evaluate({ onlyif: command('/bin/yes'), unless: command('/bin/no') }), families())).toEqual(E.right({ onlyif: true, unless: false }))
  })

  it('is NotFound when a guard cannot start, with the sentence the report shows and the runner fault as its cause', async () => {
    const r = await run(Guards.evaluate({ onlyif: command('/bin/yes'), unless: command('/bin/missing') }), families())
    expect(E.isLeft(r) && r.left).toMatchObject({
      _tag: 'NotFound',
      module: 'exec',
      op: 'unless',
      subject: '/bin/missing',
      description: 'the unless guard could not run: run /bin/missing: could not start: no such file',
      cause: { _tag: 'NotFound', op: 'run', subject: '/bin/missing' },
    })
  })

  it('is TimedOut when a guard outlives its timeout', async () => {
    const r = await run(Guards.evaluate({ onlyif: command('/bin/hang') }), families())
    expect(E.isLeft(r) && r.left._tag).toBe('TimedOut')
    expect(E.isLeft(r) && r.left.description).toMatch(/^the onlyif guard could not run: run \/bin\/hang: ran longer than/)
  })

  it("keeps the kind of a creates path that cannot be checked, with the probe's fault as its cause", async () => {
    const r = await run(Guards.evaluate({ creates: 'not/absolute' }), families())
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left).toMatchObject({ module: 'exec', op: 'creates', subject: 'not/absolute' })
    expect(r.left._tag).toBe((r.left.cause as { _tag: string })._tag)
    expect(r.left.description).toMatch(/^cannot check creates not\/absolute: /)
  })
})
