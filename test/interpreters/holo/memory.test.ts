// memory: the scripted Holo host answers like the real one: a plugin's entities sorted by ID, an
// entity changed once and then not changed, scripted outcomes, diffs and faults, every call recorded.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Fault from '../../../src/core/Fault.js'
import * as Memory from '../../../src/interpreters/holo/memory.js'
import * as Entity from '../../../src/interpreters/holo/protocol/Entity.js'
import * as Outcome from '../../../src/interpreters/holo/protocol/Outcome.js'
import * as Output from '../../../src/interpreters/holo/protocol/Output.js'

const entity = (id: string, plugin = 'files'): Entity.Entity => Entity.make({ plugin, id, actionVerb: 'Working on', actionReason: '', sources: [], info: [] })

describe('the memory Holo host', () => {
  it('scans sorted entities, applies once as changed and then as not changed, and records every call', async () => {
    const host = Memory.make([{ id: 'files', entities: [entity('file:/etc/b'), entity('file:/etc/a')] }])
    const scanned = await host.scan(host.plugins[0]!)()
    expect(E.map((s: { entities: ReadonlyArray<Entity.Entity> }) => s.entities.map((e) => e.id))(scanned)).toEqual(E.right(['file:/etc/a', 'file:/etc/b']))
    expect(await host.apply(entity('file:/etc/a'), false)()).toEqual(E.right({ outcome: Outcome.changed, output: Output.empty }))
    expect(await host.apply(entity('file:/etc/a'), true)()).toEqual(E.right({ outcome: Outcome.notChanged, output: Output.empty }))
    expect(await host.diff(entity('file:/etc/a'))()).toEqual(E.right({ _tag: 'NoDiff', output: Output.empty }))
    expect(E.isLeft(await host.apply(entity('file:/etc/z'), false)())).toBe(true)
    expect(host.calls()).toEqual(['scan files', 'apply file:/etc/a', 'force-apply file:/etc/a', 'diff file:/etc/a', 'apply file:/etc/z'])
  })

  it('answers with scripted outcomes, diffs and faults', async () => {
    const fault = Fault.make('TimedOut', 'holo', 'scan', 'slow', 'ran too long')
    const diff = { _tag: 'Files' as const, from: '/a', to: '/b', fromFile: '/a', toFile: '/dev/null', text: 'diff --holo /a /b\n', output: Output.empty }
    const host = Memory.make([
      { id: 'files', entities: [{ ...entity('file:/etc/x'), script: { apply: (force) => E.right({ outcome: force ? Outcome.changed : Outcome.overwrite, output: Output.empty }), diff: () => E.right(diff) } }] },
      { id: 'slow', entities: [], scanFault: fault },
    ])
    expect(await host.apply(entity('file:/etc/x'), false)()).toEqual(E.right({ outcome: Outcome.overwrite, output: Output.empty }))
    expect(await host.apply(entity('file:/etc/x'), true)()).toEqual(E.right({ outcome: Outcome.changed, output: Output.empty }))
    expect(await host.diff(entity('file:/etc/x'))()).toEqual(E.right(diff))
    expect(await host.scan(host.plugins[1]!)()).toEqual(E.left(fault))
  })
})
