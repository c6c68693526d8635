// Group commit in apply: the journal reaches the disk once per step (with every record noted since
// the last time) and once at commit. These are the crash windows it makes, each crashed into on
// the memory machine (a crash there keeps exactly what the primitives completed, as a power loss
// after fsync does): after the durable point and before the step's mutation, after the mutation
// and before the next durable point (the resource's `end` is not on disk yet), and at commit.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Apply from '../../src/executor/apply.js'
import * as Journal from '../../src/executor/Journal.js'
import * as Recover from '../../src/executor/recover.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { observe } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { hostFiles } from '../support/run.js'

const stateDir = '/var/lib/plait'
const journalPath = `${stateDir}/journal`
const paths = ['/etc/a', '/etc/b', '/etc/c'] as const
const manifest = `ccm:\n  resources:\n    - file:\n${paths.map((p) => `        - ${p}:\n            content: "new"\n            owner: root\n            group: root\n            mode: "0644"\n`).join('')}`
/** /etc/b exists (its write replaces it, with a backup); /etc/a and /etc/c are new. */
const initial = { '/etc': Snapshot.directory(), '/etc/b': Snapshot.file('old', { mode: 0o600 }) }

const machine = (options: Memory.Options = {}) => {
  const s = Snapshot.make(initial)
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

const planOf = async (m: Machine): Promise<Plan.Plan> => {
  const c = compile('m.yaml', manifest, '/')
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const o = await observe(c.right, m, hostFiles({}))
  if (E.isLeft(o)) throw new Error(o.left.map(Diagnostic.render).join('\n'))
  const b = Planner.plan(c.right, o.right, { version: 'test', root: m.root })
  if (E.isLeft(b)) throw new Error(b.left.map(Diagnostic.render).join('\n'))
  return PlanFile.seal(b.right)
}

const apply = (m: Machine, plan: Plan.Plan, atomic: boolean) => Apply.apply(m, plan, { stateDir, atomic, noop: false })

const mutating = ['writeFileAtomic', 'mkdirp', 'setAttrs', 'remove', 'rename', 'copy', 'createExclusive', 'append'] as const

/** A machine that logs each mutating call (the memory machine counts the same calls as its mutations). */
const logging = (m: Machine): { machine: Machine; log: string[] } => {
  const log: string[] = []
  const wrapped = { ...m } as { -readonly [K in keyof Machine]: Machine[K] }
  for (const op of mutating) {
    const f = m[op] as (...args: never[]) => unknown
    ;(wrapped as Record<string, unknown>)[op] = (...args: never[]) => {
      const [path, data]: ReadonlyArray<unknown> = args
      log.push(op === 'append' && data instanceof Uint8Array ? `append ${new TextDecoder().decode(data)}` : `${op} ${String(path)}`)
      return f(...args)
    }
  }
  return { machine: wrapped, log }
}

/** The file's text in a snapshot, or undefined when absent. */
const content = (m: Memory.MemoryMachine, p: string): string | undefined => {
  const n = m.snapshot().files[p]
  return n !== undefined && n.kind === 'file' ? new TextDecoder().decode(Snapshot.bytes(n)) : undefined
}
const state = (m: Memory.MemoryMachine): Array<'old' | 'new'> =>
  paths.map((p) => (content(m, p) === 'new' ? 'new' : content(m, p) === (p === '/etc/b' ? 'old' : undefined) ? 'old' : (`neither: ${content(m, p)}` as never)))

describe('group commit: the journal reaches the disk once per step and once at commit', () => {
  it('makes one journal append per step and one for the commit, each before what it guards', async () => {
    const m = machine()
    const plan = await planOf(m)
    const l = logging(m)
    const r = await apply(l.machine, plan, false)
    expect(E.isRight(r)).toBe(true)
    const appends = l.log.filter((x) => x.startsWith('append '))
    expect(appends).toHaveLength(paths.length + 1)
    // each append ends with the record of the step that the next mutation of a managed path makes
    paths.forEach((p, i) => {
      const at = l.log.indexOf(appends[i]!)
      expect(appends[i]!.trimEnd().split('\n').at(-1)).toContain(`"_tag":"step","seq":${i + 1},"id":"file#${p}"`)
      expect(l.log.slice(at + 1).find((x) => x.startsWith('writeFileAtomic'))).toBe(`writeFileAtomic ${p}`)
      // the resource before it ended, and that reached the disk with this step's record
      if (i > 0) expect(appends[i]).toContain(`{"_tag":"end","id":"file#${paths[i - 1]}","ok":true}`)
    })
    expect(appends.at(-1)).toMatch(/"_tag":"commit"\}\n$/)
    expect(appends.at(-1)).toContain(`{"_tag":"end","id":"file#${paths.at(-1)}","ok":true}`)
  })

  it('writes no journal at all for a run with nothing to change', async () => {
    const m = machine()
    const plan = await planOf(m)
    expect(E.isRight(await apply(m, plan, false))).toBe(true)
    const l = logging(m)
    const again = await apply(l.machine, await planOf(m), false)
    expect(E.isRight(again) && again.right.resources.map((x) => x.outcome)).toEqual(['stable', 'stable', 'stable'])
    expect(l.log.filter((x) => x.startsWith('append '))).toEqual([])
    expect(m.snapshot().files[journalPath]).toBeUndefined()
  })

  for (const atomic of [false, true]) {
    it(`${atomic ? '--atomic: ' : ''}a crash after each durable point, before its step mutates: recovery undoes that step only${atomic ? ' and every step before it' : ''}`, async () => {
      const full = machine()
      const plan = await planOf(full)
      const l = logging(full)
      await apply(l.machine, plan, atomic)
      expect(l.log).toHaveLength(full.mutations)
      for (let k = 0; k < paths.length; k++) {
        const at = 1 + l.log.indexOf(`writeFileAtomic ${paths[k]}`) // crash instead of the write
        const m = machine({ crashAt: at })
        await apply(m, plan, atomic)
        expect(m.crashed).toBe(true)
        expect(state(m), `crash before write ${k + 1}`).toEqual(paths.map((_, i) => (i < k ? 'new' : 'old')))
        const text = content(m, journalPath) ?? ''
        const reading = Journal.read(text)
        expect(reading._tag).toBe('Unfinished')
        if (reading._tag !== 'Unfinished') return
        // non-atomic: the earlier resources' `end` records reached the disk with this step's record
        expect(reading.steps.map((s) => s.id)).toEqual(atomic ? paths.slice(0, k + 1).map((p) => `file#${p}`) : [`file#${paths[k]}`])
        const revived = m.revive()
        const again = await apply(revived, plan, atomic)
        if (atomic || k === 0) {
          expect(E.isRight(again) && again.right.recovered.length).toBe(atomic ? k + 1 : 1)
          expect(state(revived)).toEqual(['new', 'new', 'new'])
        } else {
          // the resources that ended keep their changes, so the saved plan is stale now: what recovery left is the proof
          expect(E.isLeft(again)).toBe(true)
          expect(state(revived)).toEqual(paths.map((_, i) => (i < k ? 'new' : 'old')))
        }
      }
    })
  }

  it('a crash after a step mutated and before the next durable point: that resource is rolled back to old, the ones whose end reached the disk stay new', async () => {
    const full = machine()
    const plan = await planOf(full)
    const l = logging(full)
    await apply(l.machine, plan, false)
    for (let k = 0; k < paths.length; k++) {
      // the first journal append after this step's write: it would carry the resource's `end`
      const write = l.log.indexOf(`writeFileAtomic ${paths[k]}`)
      const at = 1 + write + 1 + l.log.slice(write + 1).findIndex((x) => x.startsWith('append '))
      const m = machine({ crashAt: at })
      await apply(m, plan, false)
      expect(m.crashed).toBe(true)
      expect(state(m), `crash after write ${k + 1}`).toEqual(paths.map((_, i) => (i <= k ? 'new' : 'old')))
      const revived = m.revive()
      // its end record was lost with the crash: recovery rolls it back, like a resource that had not ended
      const undone = await Recover.recover(revived, stateDir)
      expect(undone).toEqual(E.right([`file#${paths[k]}: undid write ${paths[k]} (3 bytes, root:root 0644)`]))
      expect(state(revived)).toEqual(paths.map((_, i) => (i < k ? 'new' : 'old')))
      // and a fresh plan then completes the run
      const m2 = revived.revive()
      const last = await apply(m2, await planOf(m2), false)
      expect(E.isRight(last)).toBe(true)
      expect(state(m2)).toEqual(['new', 'new', 'new'])
      // (what stays in the state directory is the generation the completing run recorded: docs/generations.md)
      expect(Object.keys(m2.snapshot().files).filter((p) => p.includes('.plait-') || (p.startsWith(`${stateDir}/`) && !p.startsWith(`${stateDir}/generations`)))).toEqual([])
    }
  })
})
