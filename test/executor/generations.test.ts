// generations, in process on the memory machine: what an apply records at commit (before-images
// from its backups, attributes, absence, the budget, what is irreversible), what it never records
// (no change, a rolled-back run), listing, pruning, and the rollback plan made from the records.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Digest from '../../src/core/Digest.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Apply from '../../src/executor/apply.js'
import * as Generations from '../../src/executor/generations.js'
import * as Record from '../../src/generations/Record.js'
import * as Lock from '../../src/executor/lock.js'
import * as Recover from '../../src/executor/recover.js'
import * as MemoryRunner from '../../src/interpreters/commands/memory.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { observe } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { hostFiles } from '../support/run.js'

const stateDir = '/var/lib/plait'
const gens = `${stateDir}/generations`
const attrs = (mode = '0644') => `            owner: root\n            group: root\n            mode: "${mode}"\n`
const file = (path: string, content: string, mode = '0644'): string => `    - file:\n        - ${path}:\n            content: "${content}"\n${attrs(mode)}`
const absent = (path: string): string => `    - file:\n        - ${path}:\n            ensure: absent\n`
const exec = (command: string): string => `    - exec:\n        - ${command}:\n            command: ${command}\n`
const manifest = (...rs: string[]): string => `ccm:\n  resources:\n${rs.join('')}`

const machine = (files: Record<string, Snapshot.Node> = {}, options: Memory.Options = {}) => {
  const s = Snapshot.make({ '/etc': Snapshot.directory(), ...files })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

const runner = () => MemoryRunner.make((line) => (line === '/bin/true' ? { exit: 0 } : line === '/bin/false' ? { exit: 1 } : undefined))

const planOf = async (m: Memory.MemoryMachine, text: string): Promise<Plan.Plan> => {
  const c = compile('m.yaml', text, '/')
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const o = await observe(c.right, m, hostFiles({}), undefined, runner())
  if (E.isLeft(o)) throw new Error(o.left.map(Diagnostic.render).join('\n'))
  const b = Planner.plan(c.right, o.right, { version: 'test', root: m.root })
  if (E.isLeft(b)) throw new Error(b.left.map(Diagnostic.render).join('\n'))
  return PlanFile.seal(b.right)
}

let tick = 0
const settings: Generations.Settings = { clock: () => `2026-11-25T12:00:${String(tick++ % 60).padStart(2, '0')}Z` }

const applyPlan = async (m: Memory.MemoryMachine, plan: Plan.Plan, options: Partial<Apply.Options> = {}) => {
  const r = await Apply.apply(m, plan, { stateDir, atomic: false, noop: false, runner: runner(), generations: settings, ...options })
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}

const applyText = async (m: Memory.MemoryMachine, text: string, options: Partial<Apply.Options> = {}) => applyPlan(m, await planOf(m, text), options)

const records = async (m: Memory.MemoryMachine) => {
  const l = await Generations.list(m, stateDir)
  if (E.isLeft(l)) throw new Error(l.left.description)
  return l.right
}

const text = (m: Memory.MemoryMachine, path: string): string | undefined => Snapshot.text(m.snapshot(), path)

describe('recording a generation at commit', () => {
  it('records the plan, the manifest, the time, the resources changed and each file as it was before', async () => {
    const m = machine({ '/etc/a': Snapshot.file('old a', { mode: 0o600, uid: 1000, gid: 1000 }) })
    const plan = await planOf(m, manifest(file('/etc/a', 'new a'), file('/etc/b', 'new b')))
    const report = await applyPlan(m, plan)
    expect(report.generation).toEqual({ number: 1 })
    const { records: [g], problems } = await records(m)
    expect(problems).toEqual([])
    expect(g).toMatchObject({ number: 1, time: '2026-11-25T12:00:00Z', plan: plan.hash, manifest: plan.inputs.manifest, resources: ['file#/etc/a', 'file#/etc/b'], irreversible: [], kept: 5 })
    const sha = Digest.sha256('old a')
    expect(g!.files).toEqual([
      { path: '/etc/a', id: 'file#/etc/a', image: { _tag: 'File', sha256: sha, size: 5, uid: 1000, gid: 1000, mode: 0o600 } },
      { path: '/etc/b', id: 'file#/etc/b', image: { _tag: 'Absent' } },
    ])
    // the before-image is the apply's own backup, moved beside the record; the backups are gone
    expect(text(m, `${gens}/1/${sha}`)).toBe('old a')
    expect(Object.keys(m.snapshot().files).filter((p) => p.startsWith(`${stateDir}/backups`) || p.includes('.tmp'))).toEqual([])
    expect(text(m, `${gens}/latest`)).toBe('1\n')
  })

  it('keeps generation files private: the directory 0700, the record 0600', async () => {
    const m = machine({ '/etc/a': Snapshot.file('x') })
    await applyText(m, manifest(file('/etc/a', 'y')))
    const s = m.snapshot().files
    expect([s[gens], s[`${gens}/1`], s[`${gens}/1/generation.json`]].map((n) => n !== undefined && 'mode' in n && n.mode)).toEqual([0o700, 0o700, 0o600])
  })

  it('numbers generations 1, 2, 3 and records nothing for an apply that changes nothing', async () => {
    const m = machine()
    const text1 = manifest(file('/etc/a', 'one'))
    await applyText(m, text1)
    const again = await applyText(m, text1)
    expect(again.generation).toBeUndefined()
    expect((await records(m)).records.map((r) => r.number)).toEqual([1])
    await applyText(m, manifest(file('/etc/a', 'two')))
    await applyText(m, manifest(file('/etc/a', 'three')))
    expect((await records(m)).records.map((r) => r.number)).toEqual([1, 2, 3])
  })

  it('numbers a generation after more kept ones than a call takes arguments (200,000)', async () => {
    const m = machine()
    await applyText(m, manifest(file('/etc/a', 'one')))
    // the generations directory as listed after years of applies, never pruned: the numbers up to 200,000
    const many = Array.from({ length: 200_000 }, (_, i) => String(i + 1))
    const listing: Memory.MemoryMachine = { ...m, readdir: (path) => (path === gens ? TE.right(many) : m.readdir(path)) }
    const r = await applyPlan(listing, await planOf(m, manifest(file('/etc/a', 'two'))))
    expect(r.generation).toEqual({ number: 200_001 })
  })

  it('records no generation, and says why, when recording meets a bug: the committed apply stands', async () => {
    const m = machine()
    const broken: Memory.MemoryMachine = { ...m, readdir: (path) => (path === gens ? () => Promise.reject(new Error('a bug in listing')) : m.readdir(path)) }
    const r = await applyPlan(broken, await planOf(m, manifest(file('/etc/a', 'one'))))
    expect(r.generation).toEqual({ problem: 'no generation was recorded: internal error: a bug in listing' })
    expect(text(m, '/etc/a')).toBe('one')
  })

  it('images an attributes-only change with the bytes that were there and the old owner and mode', async () => {
    const m = machine({ '/etc/a': Snapshot.file('same', { mode: 0o600 }) })
    await applyText(m, manifest(file('/etc/a', 'same', '0644')))
    const [g] = (await records(m)).records
    expect(g!.files).toEqual([{ path: '/etc/a', id: 'file#/etc/a', image: { _tag: 'File', sha256: Digest.sha256('same'), size: 4, uid: 0, gid: 0, mode: 0o600 } }])
    expect(text(m, `${gens}/1/${Digest.sha256('same')}`)).toBe('same')
  })

  it('keeps no bytes beyond the budget, and says so', async () => {
    const m = machine({ '/etc/big': Snapshot.file('0123456789'), '/etc/small': Snapshot.file('ab') })
    await applyText(m, manifest(file('/etc/big', 'x'), file('/etc/small', 'y')), { generations: { ...settings, budget: 5 } })
    const [g] = (await records(m)).records
    expect(g!.files.map((f) => [f.path, f.image._tag])).toEqual([
      ['/etc/big', 'Unkept'],
      ['/etc/small', 'File'],
    ])
    expect(g!.files[0]!.image).toEqual({ _tag: 'Unkept', reason: "over the size budget (10 bytes; 5 of the generation's 5 left)" })
    expect(g!.kept).toBe(2)
  })

  it('lists what ran and cannot be undone', async () => {
    const m = machine()
    await applyText(m, manifest(exec('/bin/true'), file('/etc/a', 'x')))
    const [g] = (await records(m)).records
    expect(g!.irreversible).toEqual([expect.stringContaining('exec#/bin/true')])
  })

  it('records nothing for a run whose every change was rolled back', async () => {
    const m = machine()
    const r = await applyText(m, manifest(file('/etc/a', 'x'), exec('/bin/false')), { atomic: true })
    expect(r.resources.map((x) => x.outcome)).toEqual(['rolled back', 'failed'])
    expect(r.generation).toBeUndefined()
    expect((await records(m)).records).toEqual([])
  })

  it('records what stayed changed when a later resource failed (not --atomic)', async () => {
    const m = machine()
    const r = await applyText(m, manifest(file('/etc/a', 'x'), exec('/bin/false')))
    expect(r.resources.map((x) => x.outcome)).toEqual(['changed', 'failed'])
    const [g] = (await records(m)).records
    expect(g!.resources).toEqual(['file#/etc/a'])
  })

  it('never fails the apply when the generation cannot be written: the report says why', async () => {
    const m = machine({}, { denied: [gens] })
    const r = await applyText(m, manifest(file('/etc/a', 'x')))
    expect(r.resources.map((x) => x.outcome)).toEqual(['changed'])
    expect(r.generation).toEqual({ problem: expect.stringContaining('no generation was recorded') })
    expect(text(m, '/etc/a')).toBe('x')
  })

  it('a crash at any mutation leaves no generation or a whole one, and the next recording clears what it left', async () => {
    const initial = { '/etc/a': Snapshot.file('old a'), '/etc/b': Snapshot.file('old b') }
    const text1 = manifest(file('/etc/a', 'new a'), file('/etc/b', 'new b', '0600'), file('/etc/c', 'new c'))
    const full = machine(initial)
    await applyText(full, text1)
    let whole = 0
    for (let at = 1; at <= full.mutations; at++) {
      const m = machine(initial, { crashAt: at })
      await Apply.apply(m, await planOf(machine(initial), text1), { stateDir, atomic: false, noop: false, runner: runner(), generations: settings })
      expect(m.crashed).toBe(true)
      const revived = m.revive()
      const { records: rs, problems } = await records(revived)
      expect(problems).toEqual([])
      for (const r of rs) {
        whole += 1
        expect(r.files.map((f) => f.path)).toEqual(['/etc/a', '/etc/b', '/etc/c'])
        for (const sha of Record.blobs(r)) expect(revived.snapshot().files[`${gens}/${r.number}/${sha}`]).toBeDefined()
      }
      // the next run that changes something records the next generation, and no staging is left
      expect(E.isRight(await Recover.recover(revived, stateDir))).toBe(true)
      await applyText(revived, manifest(file('/etc/a', 'newer a')))
      expect((await records(revived)).records.map((r) => r.number)).toEqual([...rs.map((r) => r.number), rs.length + 1])
      expect(Object.keys(revived.snapshot().files).filter((p) => p.startsWith(`${gens}/.`))).toEqual([])
    }
    // the crashes after the generation was in place found it whole
    expect(whole).toBeGreaterThan(0)
  })

  it('refuses a bad $PLAIT_GENERATION_BUDGET in words, and reads a good one', () => {
    expect(Generations.budgetOf(undefined)).toEqual(E.right(64 * 1024 * 1024))
    expect(Generations.budgetOf('1024')).toEqual(E.right(1024))
    expect(Generations.budgetOf('1k')).toEqual(E.left('PLAIT_GENERATION_BUDGET=1k is not a number of bytes'))
  })
})

describe('listing and pruning', () => {
  it('reports an unreadable record as a problem and lists the rest', async () => {
    const m = machine()
    await applyText(m, manifest(file('/etc/a', 'one')))
    await applyText(m, manifest(file('/etc/a', 'two')))
    await m.writeFileAtomic(`${gens}/1/generation.json`, new TextEncoder().encode('{"format":"plait.generation/1"}'), { uid: 0, gid: 0, mode: 0o600 }, 'x.tmp')()
    const l = await records(m)
    expect(l.records.map((r) => r.number)).toEqual([2])
    expect(l.problems).toEqual([expect.stringMatching(/^generation 1: .*generation\.json: malformed record/)])
  })

  it('prunes all but the newest KEEP, with their before-images', async () => {
    const m = machine()
    for (const c of ['one', 'two', 'three', 'four']) await applyText(m, manifest(file('/etc/a', c)))
    expect(await Generations.prune(m, stateDir, 2)).toEqual(E.right([1, 2]))
    expect((await records(m)).records.map((r) => r.number)).toEqual([3, 4])
    expect(Object.keys(m.snapshot().files).filter((p) => p.startsWith(`${gens}/1`) || p.startsWith(`${gens}/2`))).toEqual([])
    // numbering goes on from the newest, even when every generation was pruned
    await applyText(m, manifest(file('/etc/a', 'five')))
    expect((await records(m)).records.map((r) => r.number)).toEqual([3, 4, 5])
    expect(await Generations.prune(m, stateDir, 0)).toEqual(E.right([3, 4, 5]))
    await applyText(m, manifest(file('/etc/a', 'six')))
    expect((await records(m)).records.map((r) => r.number)).toEqual([6])
    // it took the run lock and released it
    expect(m.snapshot().files[`${stateDir}/lock`]).toBeUndefined()
  })

  it('does not prune while another run holds the lock', async () => {
    const m = machine()
    await applyText(m, manifest(file('/etc/a', 'one')))
    const held = await Lock.acquire(m, `${stateDir}/lock`)
    expect(E.isRight(held)).toBe(true)
    const r = await Generations.prune(Memory.make(m.snapshot(), { pid: 7, processes: { 4242: '1000' } }), stateDir, 0)
    expect(E.isLeft(r) && r.left.code).toBe('Locked')
  })
})

describe('the rollback plan', () => {
  const rollbackPlan = async (m: Memory.MemoryMachine, to: number) => {
    const r = await Generations.rollback(m, stateDir, (await records(m)).records, to, 'test')
    if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
    return r.right
  }

  it('is an ordinary plan that puts back content, mode and absence, and applies with the usual checks', async () => {
    const m = machine({ '/etc/a': Snapshot.file('a0', { mode: 0o600 }) })
    await applyText(m, manifest(file('/etc/a', 'a1'), file('/etc/b', 'b1')))
    await applyText(m, manifest(file('/etc/a', 'a2'), absent('/etc/b'), file('/etc/c', 'c2')))
    const to1 = await rollbackPlan(m, 1)
    // it round-trips through the plan file like any plan
    expect(PlanFile.parse('r.json', PlanFile.serialize(to1))).toEqual(E.right(to1))
    expect(to1.inputs.manifest.path).toBe('plait rollback --to 1')
    expect(to1.resources.map((r) => [r.id, r.action])).toEqual([
      ['file#/etc/a', 'update'],
      ['file#/etc/b', 'create'],
      ['file#/etc/c', 'delete'],
    ])
    await applyPlan(m, to1)
    expect([text(m, '/etc/a'), text(m, '/etc/b'), text(m, '/etc/c')]).toEqual(['a1', 'b1', undefined])
    // the rollback is a generation too, and going back to 0 restores the machine before the first
    expect((await records(m)).records.map((r) => r.number)).toEqual([1, 2, 3])
    await applyPlan(m, await rollbackPlan(m, 0))
    expect([text(m, '/etc/a'), text(m, '/etc/b'), text(m, '/etc/c')]).toEqual(['a0', undefined, undefined])
    const a = m.snapshot().files['/etc/a']
    expect(a !== undefined && 'mode' in a && a.mode).toBe(0o600)
  })

  it('to the latest generation changes nothing', async () => {
    const m = machine()
    await applyText(m, manifest(file('/etc/a', 'x')))
    const p = await rollbackPlan(m, 1)
    expect(p.resources).toEqual([])
  })

  it('is refused when the machine drifted after it was made (the usual staleness check)', async () => {
    const m = machine()
    await applyText(m, manifest(file('/etc/a', 'x')))
    const p = await rollbackPlan(m, 0)
    await m.writeFileAtomic('/etc/a', new TextEncoder().encode('drift'), { uid: 0, gid: 0, mode: 0o644 }, 't.tmp')()
    const r = await Apply.apply(m, p, { stateDir, atomic: false, noop: false, generations: settings })
    expect(E.isLeft(r) && r.left.map((d) => d.code)).toContain('Stale')
  })

  it('lists what it cannot restore in the message shown before it is applied', async () => {
    const m = machine({ '/etc/big': Snapshot.file('0123456789') })
    await applyText(m, manifest(file('/etc/big', 'x'), exec('/bin/true')), { generations: { ...settings, budget: 4 } })
    const p = await rollbackPlan(m, 0)
    expect(p.resources).toEqual([])
    expect(p.preMessage).toContain('Rolling back to generation 0 cannot restore 2 things:')
    expect(p.preMessage).toContain('/etc/big: over the size budget')
    expect(p.preMessage).toMatch(/exec#\/bin\/true: .* ran in generation 1 and cannot be undone/)
  })

  it('refuses a before-image whose bytes no longer match their digest', async () => {
    const m = machine({ '/etc/a': Snapshot.file('old') })
    await applyText(m, manifest(file('/etc/a', 'new')))
    await m.writeFileAtomic(`${gens}/1/${Digest.sha256('old')}`, new TextEncoder().encode('evil'), { uid: 0, gid: 0, mode: 0o600 }, 'x.tmp')()
    const r = await Generations.rollback(m, stateDir, (await records(m)).records, 0, 'test')
    expect(E.isLeft(r) && r.left.map((d) => d.message).join('\n')).toMatch(/before-image is damaged/)
  })

  it('is refused whole when a path cannot be planned back (a directory with files in it where the file was)', async () => {
    const m = machine({ '/etc/a': Snapshot.file('old') })
    await applyText(m, manifest(absent('/etc/a')))
    await m.mkdirp('/etc/a', { uid: 0, gid: 0, mode: 0o755 })()
    await m.writeFileAtomic('/etc/a/mine', new TextEncoder().encode('kept'), { uid: 0, gid: 0, mode: 0o644 }, 't.tmp')()
    const r = await Generations.rollback(m, stateDir, (await records(m)).records, 0, 'test')
    expect(E.isLeft(r) && r.left.map((d) => [d.resource, d.message])).toEqual([['file#/etc/a', expect.stringMatching(/\/etc\/a is a (non-empty )?directory/)]])
    expect(Snapshot.text(m.snapshot(), '/etc/a/mine')).toBe('kept')
  })

  it('shows no diff of a file whose content now holds a sensitive value (the newest generation wrote one there)', async () => {
    const m = machine({ '/etc/a': Snapshot.file('old\n') })
    await applyText(m, manifest(file('/etc/a', 'plain\\n')))
    await applyText(m, manifest(file('/etc/a', 'pw=hunter2\\n')))
    const rs = (await records(m)).records
    // as it is recorded: the plan's diff would show what is there now
    expect(PlanFile.serialize(await rollbackPlan(m, 1))).toContain('hunter2')
    // as it is recorded when generation 2's plan carried a redaction marker at the path
    const flagged = rs.map((r) => (r.number === 2 ? { ...r, files: r.files.map((f) => ({ ...f, sensitive: true })) } : r))
    const p = await Generations.rollback(m, stateDir, flagged, 1, 'test')
    if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
    expect(p.right.resources.map((r) => r.steps.map((x) => x._tag))).toEqual([['file.write']])
    expect(PlanFile.serialize(p.right)).not.toContain('hunter2')
    await applyPlan(m, p.right)
    expect(text(m, '/etc/a')).toBe('plain\n')
  })

  it('never carries bytes from before plait that a generation wrote a secret over: --to 0 lists the file instead', async () => {
    const m = machine({ '/etc/a': Snapshot.file('pw=former\n') })
    await applyText(m, manifest(file('/etc/a', 'pw=hunter2\\n')))
    const flagged = (await records(m)).records.map((r) => ({ ...r, files: r.files.map((f) => ({ ...f, sensitive: true })) }))
    const p = await Generations.rollback(m, stateDir, flagged, 0, 'test')
    if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
    expect(p.right.resources).toEqual([])
    expect(p.right.preMessage).toContain('/etc/a: its content from before plait changed it may hold a sensitive value (generation 1 wrote one over it)')
    expect(PlanFile.serialize(p.right)).not.toMatch(/former|hunter2/)
  })

  it('refuses a generation that is not there, in words', async () => {
    const m = machine()
    const none = await Generations.rollback(m, stateDir, [], 0, 'test')
    expect(E.isLeft(none) && none.left[0]!.message).toBe('there are no generations yet: an apply that changes something records one')
    await applyText(m, manifest(file('/etc/a', 'x')))
    const bad = await Generations.rollback(m, stateDir, (await records(m)).records, 2, 'test')
    expect(E.isLeft(bad) && bad.left[0]!.message).toBe('--to 2: choose a generation from 0 to 1')
  })
})
