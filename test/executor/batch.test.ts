// Batches in apply (docs/apply.md, "Batches"): consecutive independent file writes share one
// durable point, their temp files are written before any rename, the renames go in plan order,
// and each directory is fsynced once, before any later record reaches the disk. Crashes inside a
// batch, on the memory machine (a crash keeps what the primitives completed, as a process crash).
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
/** Five writes in two directories: /etc/b and /srv/e exist (replaced, with backups), the rest are new. */
const paths = ['/etc/a', '/etc/b', '/srv/c', '/etc/d', '/srv/e'] as const
const existing = new Set<string>(['/etc/b', '/srv/e'])
const manifest = (ps: ReadonlyArray<string>) =>
  `ccm:\n  resources:\n    - file:\n${ps.map((p) => `        - ${p}:\n            content: "new"\n            owner: root\n            group: root\n            mode: "0644"\n`).join('')}`
const initial = { '/etc': Snapshot.directory(), '/srv': Snapshot.directory(), '/etc/b': Snapshot.file('old', { mode: 0o600 }), '/srv/e': Snapshot.file('old') }

const machine = (options: Memory.Options = {}) => {
  const s = Snapshot.make(initial)
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

const planOf = (m: Machine, ps: ReadonlyArray<string> = paths): Promise<Plan.Plan> => planText(m, manifest(ps))

/** The sealed plan of a manifest's text against a machine. */
const planText = async (m: Machine, text: string): Promise<Plan.Plan> => {
  const c = compile('m.yaml', text, '/')
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const o = await observe(c.right, m, hostFiles({}))
  if (E.isLeft(o)) throw new Error(o.left.map(Diagnostic.render).join('\n'))
  const b = Planner.plan(c.right, o.right, { version: 'test', root: m.root })
  if (E.isLeft(b)) throw new Error(b.left.map(Diagnostic.render).join('\n'))
  return PlanFile.seal(b.right)
}

const apply = (m: Machine, plan: Plan.Plan, options: Partial<Apply.Options> = {}) => Apply.apply(m, plan, { stateDir, atomic: false, noop: false, batch: 64, ...options })

/** A machine that logs each call that changes something (what the memory machine counts as mutations), an append with whether it fsyncs. */
const logging = (m: Machine): { machine: Machine; log: string[] } => {
  const log: string[] = []
  const wrapped = { ...m } as Record<string, unknown>
  for (const op of ['writeFileAtomic', 'writeTemp', 'renameTemp', 'syncDirectory', 'mkdirp', 'setAttrs', 'remove', 'rename', 'copy', 'createExclusive', 'append'] as const) {
    const f = m[op] as (...args: never[]) => unknown
    wrapped[op] = (...args: never[]) => {
      const [path, data, options]: ReadonlyArray<unknown> = args
      log.push(op === 'append' ? `append${(options as { sync?: boolean } | undefined)?.sync === false ? ' unsynced' : ''} ${new TextDecoder().decode(data as Uint8Array)}` : `${op} ${String(path)}`)
      return f(...args)
    }
  }
  return { machine: wrapped as unknown as Machine, log }
}

const content = (m: Memory.MemoryMachine, p: string): string | undefined => {
  const n = m.snapshot().files[p]
  return n !== undefined && n.kind === 'file' ? new TextDecoder().decode(Snapshot.bytes(n)) : undefined
}
/** Each path old (as it was) or new, or what else it is. */
const state = (m: Memory.MemoryMachine): string[] => paths.map((p) => (content(m, p) === 'new' ? 'new' : content(m, p) === (existing.has(p) ? 'old' : undefined) ? 'old' : `neither: ${content(m, p)}`))
/** The machine without the state directory (whose generation records the time it was made). */
const managed = (m: Memory.MemoryMachine) => Object.fromEntries(Object.entries(m.snapshot().files).filter(([p]) => !p.startsWith(`${stateDir}/`)))
const leftovers = (m: Memory.MemoryMachine): string[] => Object.keys(m.snapshot().files).filter((p) => p.includes('.plait-'))

describe('a batch of writes', () => {
  it('reaches the disk in one durable append for its step records and one for the commit; temp files first, renames in plan order, each directory fsynced once before the commit', async () => {
    const m = machine()
    const plan = await planOf(m)
    const l = logging(m)
    const r = await apply(l.machine, plan)
    expect(E.isRight(r) && r.right.resources.map((x) => x.outcome)).toEqual(Array(paths.length).fill('changed'))
    expect(state(m)).toEqual(Array(paths.length).fill('new'))
    const synced = l.log.filter((x) => x.startsWith('append {'))
    expect(synced).toHaveLength(2)
    // the first durable append holds every step record of the batch, marked as a batch's
    const steps = synced[0]!.slice('append '.length).trimEnd().split('\n').map((x) => JSON.parse(x) as Journal.Record).filter((x) => x._tag === 'step')
    expect(steps.map((s) => [s._tag === 'step' && s.id, s._tag === 'step' && s.batch])).toEqual(paths.map((p) => [`file#${p}`, true]))
    const at = (x: string) => l.log.indexOf(x)
    // nothing is written before the step records are durable; every temp file before the first rename
    expect(l.log.findIndex((x) => x.startsWith('writeTemp'))).toBeGreaterThan(at(synced[0]!))
    expect(Math.max(...paths.map((p) => at(`writeTemp ${p}`)))).toBeLessThan(Math.min(...paths.map((p) => at(`renameTemp ${p}`))))
    expect(l.log.filter((x) => x.startsWith('renameTemp'))).toEqual(paths.map((p) => `renameTemp ${p}`))
    expect(l.log.filter((x) => paths.some((p) => x === `writeFileAtomic ${p}`))).toEqual([])
    // the `begin` records reach the journal file (not fsynced) before the first rename
    const begins = l.log.findIndex((x) => x.startsWith('append unsynced') && x.includes('"_tag":"begin"'))
    expect(begins).toBeGreaterThan(-1)
    expect(begins).toBeLessThan(at(`renameTemp ${paths[0]}`))
    // each directory once, after the last rename, before the commit's append
    expect(l.log.filter((x) => x.startsWith('syncDirectory')).sort()).toEqual(['syncDirectory /etc', 'syncDirectory /srv'])
    for (const d of ['/etc', '/srv']) {
      expect(at(`syncDirectory ${d}`)).toBeGreaterThan(at(`renameTemp ${paths.at(-1)}`))
      expect(at(`syncDirectory ${d}`)).toBeLessThan(at(synced[1]!))
    }
    expect(synced[1]).toMatch(/"_tag":"commit"\}\n$/)
    expect(leftovers(m)).toEqual([])
  })

  it('gives the same report and machine as the same plan run step by step', async () => {
    const a = machine()
    const b = machine()
    const plan = await planOf(a)
    const batched = await apply(a, plan)
    const alone = await apply(b, plan, { batch: 1 })
    expect(batched).toEqual(alone)
    expect(managed(a)).toEqual(managed(b))
  })

  it('a write that fails (its parent is missing) fails alone; with --atomic everything is rolled back and the rest skipped, as step by step', async () => {
    const ps = ['/etc/a', '/nope/x', '/etc/d']
    for (const atomic of [false, true]) {
      const s = Snapshot.make({ ...initial, '/nope': Snapshot.directory() })
      if (E.isLeft(s)) throw new Error(s.left)
      const plan = await planOf(Memory.make(s.right), ps)
      const a = machine()
      const b = machine()
      const batched = await apply(a, plan, { atomic })
      const alone = await apply(b, plan, { atomic, batch: 1 })
      expect(batched).toEqual(alone)
      expect(E.isRight(batched) && batched.right.resources.map((x) => x.outcome)).toEqual(atomic ? ['rolled back', 'failed', 'skipped'] : ['changed', 'failed', 'changed'])
      expect(managed(a)).toEqual(managed(b))
      expect(leftovers(a)).toEqual([])
    }
  })
})

describe('a batch and requirements', () => {
  /** A directory, then files in it that each require it, the way manifests name a package or a directory. */
  const star = `ccm:\n  resources:\n    - file:\n        - /srv/app:\n            ensure: directory\n            owner: root\n            group: root\n            mode: "0755"\n${['a', 'b', 'c', 'd']
    .map((f) => `        - /srv/app/${f}:\n            content: "new"\n            owner: root\n            group: root\n            mode: "0644"\n            require: [file#/srv/app]\n`)
    .join('')}`
  const planStar = (m: Machine): Promise<Plan.Plan> => planText(m, star)

  it('files that require a resource that has ended run as a batch; the first, which met it still waiting, has it run first and starts the batch', async () => {
    const m = machine()
    const plan = await planStar(m)
    const l = logging(m)
    const batched = await apply(l.machine, plan)
    expect(E.isRight(batched) && batched.right.resources.map((x) => x.outcome)).toEqual(Array(5).fill('changed'))
    // /srv/app/a met /srv/app still waiting in a batch: that batch ran first (the directory, alone), then a, b, c and d ran as one
    expect(l.log.filter((x) => x.startsWith('writeFileAtomic /srv/app/'))).toEqual([])
    expect(l.log.filter((x) => x.startsWith('mkdirp /srv') || x.startsWith('renameTemp'))).toEqual(['mkdirp /srv/app', 'renameTemp /srv/app/a', 'renameTemp /srv/app/b', 'renameTemp /srv/app/c', 'renameTemp /srv/app/d'])
    const b = machine()
    expect(batched).toEqual(await apply(b, plan, { batch: 1 }))
    expect(managed(m)).toEqual(managed(b))
  })

  it('files that require a failed resource are skipped, as step by step, and never join a batch', async () => {
    for (const atomic of [false, true]) {
      const plan = await planStar(machine())
      const a = machine({ denied: ['/srv/app'] })
      const b = machine({ denied: ['/srv/app'] })
      const batched = await apply(a, plan, { atomic })
      expect(batched).toEqual(await apply(b, plan, { atomic, batch: 1 }))
      expect(E.isRight(batched) && batched.right.resources.map((x) => x.outcome)).toEqual(['failed', 'skipped', 'skipped', 'skipped', 'skipped'])
      expect(managed(a)).toEqual(managed(b))
    }
  })
})

describe('a batch that a failure stops (--atomic)', () => {
  it('removes the temp files of the steps that will not run before it rolls back a directory that holds one', async () => {
    // /srv/new is made alone; then the writes of /etc/a and /srv/new/f gather in a batch, /etc/a's is denied
    const text = `ccm:\n  resources:\n    - file:\n        - /srv/new:\n            ensure: directory\n            owner: root\n            group: root\n            mode: "0755"\n${['/etc/a', '/srv/new/f'].map((p) => `        - ${p}:\n            content: "new"\n            owner: root\n            group: root\n            mode: "0644"\n`).join('')}`
    const plan = await planText(machine(), text)
    const a = machine({ denied: ['/etc/a'] })
    const b = machine({ denied: ['/etc/a'] })
    const batched = await apply(a, plan, { atomic: true })
    expect(batched).toEqual(await apply(b, plan, { atomic: true, batch: 1 }))
    expect(E.isRight(batched) && batched.right.resources.map((x) => [x.outcome, x.messages.filter((msg) => msg.includes('could not undo'))])).toEqual([
      ['rolled back', []],
      ['failed', []],
      ['skipped', []],
    ])
    expect(managed(a)).toEqual(managed(b))
    expect(leftovers(a)).toEqual([])
  })

  it('reports a resource with nothing to do after the failure skipped, as step by step, not stable', async () => {
    const text = `ccm:\n  resources:\n    - file:\n${['/etc/a', '/etc/b'].map((p, i) => `        - ${p}:\n            content: "${i === 0 ? 'new' : 'old'}"\n            owner: root\n            group: root\n            mode: "${i === 0 ? '0644' : '0600'}"\n`).join('')}`
    const plan = await planText(machine(), text)
    const batched = await apply(machine({ denied: ['/etc/a'] }), plan, { atomic: true })
    expect(batched).toEqual(await apply(machine({ denied: ['/etc/a'] }), plan, { atomic: true, batch: 1 }))
    expect(E.isRight(batched) && batched.right.resources.map((x) => x.outcome)).toEqual(['failed', 'skipped'])
  })
})

describe('the directories a batch fsyncs', () => {
  it('leave out a directory where no step ran: each temp file there failed to be written', async () => {
    const m = machine({ denied: ['/etc'] })
    const plan = await planOf(machine())
    const l = logging(m)
    const r = await apply(l.machine, plan)
    expect(E.isRight(r) && r.right.resources.map((x) => x.outcome)).toEqual(['failed', 'failed', 'changed', 'failed', 'changed'])
    expect(l.log.filter((x) => x.startsWith('syncDirectory'))).toEqual(['syncDirectory /srv'])
    expect(leftovers(m)).toEqual([])
  })
})

describe('a crash inside a batch', () => {
  for (const atomic of [false, true]) {
    it(`${atomic ? '--atomic: ' : ''}at any mutation: every path old or new, recovery leaves no temp file and every path old, and the plan then applies`, async () => {
      const full = machine()
      const plan = await planOf(full)
      await apply(full, plan, { atomic })
      for (let at = 1; at <= full.mutations; at++) {
        const m = machine({ crashAt: at })
        await apply(m, plan, { atomic })
        expect(m.crashed).toBe(true)
        expect(state(m).every((x) => x === 'old' || x === 'new'), `crash at mutation ${at}: ${state(m)}`).toBe(true)
        const revived = m.revive()
        const undone = await Recover.recover(revived, stateDir)
        expect(E.isRight(undone)).toBe(true)
        // one batch, one group: no resource of it ended before the crash unless the run committed
        // (or the journal is gone: the crash came after the commit, while the state directory was cleared)
        const committed = Journal.read(content(m, journalPath) ?? '')._tag !== 'Unfinished' && state(m).every((x) => x === 'new')
        expect(state(revived), `recovered after a crash at mutation ${at}`).toEqual(Array(paths.length).fill(committed ? 'new' : 'old'))
        expect(leftovers(revived)).toEqual([])
        // what recovery reports is what it changed: one line for each path that had become new
        const changed = state(m).filter((x, i) => x === 'new' && !committed && state(revived)[i] === 'old').length
        expect(E.isRight(undone) && undone.right.length).toBe(changed)
        if (!committed) {
          const again = revived.revive()
          const r = await apply(again, plan, { atomic })
          expect(E.isRight(r), `the saved plan applies after recovery (crash at ${at})`).toBe(true)
          expect(state(again)).toEqual(Array(paths.length).fill('new'))
        }
      }
    })
  }

  it('after some renames, before the directory fsyncs: the journal names the begun steps, and recovery undoes each renamed one, telling it', async () => {
    const full = machine()
    const plan = await planOf(full)
    const l = logging(full)
    await apply(l.machine, plan)
    // the mutation the first directory fsync is: crash there
    const at = 1 + l.log.findIndex((x) => x.startsWith('syncDirectory'))
    const m = machine({ crashAt: at })
    await apply(m, plan)
    expect(m.crashed).toBe(true)
    expect(state(m)).toEqual(Array(paths.length).fill('new'))
    const reading = Journal.read(content(m, journalPath)!)
    expect(reading._tag === 'Unfinished' && reading.steps.map((s) => s.id)).toEqual(paths.map((p) => `file#${p}`))
    expect(reading._tag === 'Unfinished' && reading.unbegun).toBeUndefined()
    const revived = m.revive()
    const undone = await Recover.recover(revived, stateDir)
    expect(undone).toEqual(E.right([...paths].reverse().map((p) => `file#${p}: undid write ${p} (3 bytes, root:root 0644)`)))
    expect(state(revived)).toEqual(Array(paths.length).fill('old'))
  })

  it('after the step records, before any step began: recovery removes the temp files and tells nothing', async () => {
    const full = machine()
    const plan = await planOf(full)
    const l = logging(full)
    await apply(l.machine, plan)
    // crash instead of the append that carries the `begin` records: every temp file is written
    const at = 1 + l.log.findIndex((x) => x.startsWith('append unsynced'))
    const m = machine({ crashAt: at })
    await apply(m, plan)
    expect(leftovers(m)).toHaveLength(paths.length)
    const reading = Journal.read(content(m, journalPath)!)
    expect(reading._tag === 'Unfinished' && [reading.steps.length, reading.unbegun?.length]).toEqual([0, paths.length])
    const revived = m.revive()
    expect(await Recover.recover(revived, stateDir)).toEqual(E.right([]))
    expect(leftovers(revived)).toEqual([])
    expect(state(revived)).toEqual(Array(paths.length).fill('old'))
  })
})
