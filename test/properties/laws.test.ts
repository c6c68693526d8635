// The laws of DESIGN.md, as properties over the memory interpreter: idempotence, noop purity,
// determinism and plan-file round trip, staleness, crash atomicity and rollback.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import { apply, catalogOf, managed, planE } from '../support/run.js'

const universe = ['/a', '/a/f1', '/a/f2', '/a/d', '/a/d/f3', '/b', '/b/f4', '/c'] as const
const texts = ['', 'one\n', 'two\n', 'three\nlines\nhere\n'] as const
const modes = [0o644, 0o600, 0o755, 0o700] as const

const nodeArb: fc.Arbitrary<Snapshot.Node | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ text: fc.constantFrom(...texts), uid: fc.constantFrom(0, 1000), mode: fc.constantFrom(...modes) }).map(({ text, uid, mode }) => Snapshot.file(text, { uid, gid: uid, mode })),
  fc.record({ uid: fc.constantFrom(0, 1000), mode: fc.constantFrom(0o755, 0o700) }).map(({ uid, mode }) => Snapshot.directory({ uid, gid: uid, mode })),
)

const machineArb: fc.Arbitrary<Snapshot.Snapshot> = fc
  .tuple(...universe.map(() => nodeArb))
  .map((nodes) => {
    const files: Record<string, Snapshot.Node> = {}
    universe.forEach((p, i) => {
      if (nodes[i] !== undefined) files[p] = nodes[i]
    })
    // Drop nodes whose ancestor is not a directory, so the machine is well formed.
    for (const p of Object.keys(files)) {
      for (const q of Object.keys(files)) if (p !== q && p.startsWith(q + '/') && files[q]!.kind !== 'directory') delete files[p]
    }
    const s = Snapshot.make(files)
    if (E.isLeft(s)) throw new Error(s.left)
    return s.right
  })

const specArb = (path: string): fc.Arbitrary<FileSpec> =>
  fc
    .record({
      ensure: fc.constantFrom('present', 'present', 'absent', 'directory') as fc.Arbitrary<FileSpec['ensure']>,
      text: fc.option(fc.constantFrom(...texts), { nil: undefined }),
      owner: fc.constantFrom('root', 'app'),
      mode: fc.constantFrom(...modes),
      force: fc.boolean(),
    })
    .map(({ ensure, text, owner, mode, force }) => ({
      _tag: 'file' as const,
      id: `file#${path}`,
      path,
      at: { file: 'm.yaml', line: 1, col: 1 },
      ensure,
      content: ensure === 'present' && text !== undefined ? { _tag: 'Inline' as const, text } : { _tag: 'Unmanaged' as const },
      owner,
      group: owner,
      mode,
      force: ensure === 'absent' && force,
    }))

const catalogArb = fc
  .subarray([...universe], { minLength: 1 })
  .chain((paths) => fc.tuple(...paths.map(specArb)))
  .map((specs) => catalogOf(specs))

const world = fc.record({ machine: machineArb, catalog: catalogArb })

/** Plans, or undefined when the plan is refused (a directory in the way of a file, and so on). */
const tryPlan = async (catalog: ReturnType<typeof catalogOf>, m: Memory.MemoryMachine) => {
  const p = await planE(catalog, m)
  return E.isRight(p) ? p.right : undefined
}

const runs = { numRuns: 120 }

describe('laws over the memory interpreter', () => {
  fcTest.prop([world], runs)('idempotence: after a successful apply, planning again finds nothing to do', async ({ machine, catalog }) => {
    const m = Memory.make(machine)
    const p = await tryPlan(catalog, m)
    fc.pre(p !== undefined)
    const r = await apply(m, p!)
    expect(E.isRight(r)).toBe(true)
    if (E.isLeft(r) || r.right.resources.some((x) => x.outcome === 'failed')) return
    const again = await tryPlan(catalog, m)
    expect(again?.resources.filter((x) => x.steps.length > 0)).toEqual([])
  })

  fcTest.prop([world], runs)('noop purity: plan and apply --noop never change the machine', async ({ machine, catalog }) => {
    const m = Memory.make(machine)
    const p = await tryPlan(catalog, m)
    fc.pre(p !== undefined)
    await apply(m, p!, { noop: true })
    expect(m.snapshot()).toEqual(machine)
    expect(m.mutations).toBe(0)
  })

  fcTest.prop([world], runs)('determinism: equal machines give byte-identical plan files that round-trip', async ({ machine, catalog }) => {
    const a = await tryPlan(catalog, Memory.make(machine))
    const b = await tryPlan(catalog, Memory.make(machine))
    fc.pre(a !== undefined)
    const text = PlanFile.serialize(a!)
    expect(PlanFile.serialize(b!)).toBe(text)
    const back = PlanFile.parse('plan.json', text)
    expect(E.isRight(back) && PlanFile.serialize(back.right)).toBe(text)
  })

  fcTest.prop([world, fc.nat(), fc.constantFrom('content', 'mode', 'delete', 'create')], runs)(
    'staleness: any change to an observed resource between plan and apply is refused, and nothing is changed',
    async ({ machine, catalog }, pick, how) => {
      const m = Memory.make(machine)
      const p = await tryPlan(catalog, m)
      fc.pre(p !== undefined)
      const target = p!.resources[pick % p!.resources.length]!.name
      const files: Record<string, Snapshot.Node> = { ...machine.files }
      const cur = files[target]
      if (how === 'delete' || how === 'create') {
        if (cur === undefined) files[target] = Snapshot.file('surprise\n')
        else if (cur.kind === 'directory') return // removing a directory drops its children too; covered by the others
        else delete files[target]
      } else if (cur?.kind === 'file') {
        files[target] = how === 'content' ? Snapshot.file('drift\n', cur) : { ...cur, mode: cur.mode === 0o640 ? 0o641 : 0o640 }
      } else if (cur?.kind === 'directory') {
        files[target] = { ...cur, mode: cur.mode === 0o711 ? 0o710 : 0o711 }
      } else {
        files[target] = Snapshot.file('surprise\n')
      }
      const drifted = Snapshot.make(files, machine)
      fc.pre(E.isRight(drifted))
      const d = Memory.make(E.isRight(drifted) ? drifted.right : machine)
      const before = d.snapshot()
      const r = await apply(d, p!)
      expect(E.isLeft(r)).toBe(true)
      if (E.isLeft(r)) expect(r.left.some((x) => x.code === 'Stale' && x.resource === `file#${target}`)).toBe(true)
      expect(managed(d.snapshot())).toEqual(managed(before))
    },
  )

  fcTest.prop([world, fc.nat(), fc.boolean()], runs)(
    'atomicity: a crash at any mutation leaves every managed path old or new, and recovery restores what it implies',
    async ({ machine, catalog }, at, atomic) => {
      const probe = Memory.make(machine)
      const p = await tryPlan(catalog, probe)
      fc.pre(p !== undefined)
      // The outcome of an uninterrupted run, and how many mutations it makes.
      const full = Memory.make(machine)
      const r = await apply(full, p!, { atomic })
      fc.pre(E.isRight(r) && r.right.resources.every((x) => x.outcome !== 'failed'))
      const after = full.snapshot()
      const crashAt = 1 + (at % full.mutations)
      const m = Memory.make(machine, { crashAt })
      await apply(m, p!, { atomic })
      expect(m.crashed).toBe(true)
      const crashed = m.snapshot()
      const managedPaths = new Set(p!.resources.map((x) => x.name))
      for (const path of managedPaths) {
        const now = crashed.files[path]
        expect([machine.files[path], after.files[path]]).toContainEqual(now)
      }
      // The restarted process finds the journal and rolls back what it implies.
      const revived = m.revive()
      const again = await apply(revived, p!, { atomic })
      const recovered = revived.snapshot()
      if (atomic) {
        // Everything the crashed run began was undone; the saved plan then applied cleanly, or was
        // refused as stale if the crash came after the last resource committed.
        if (E.isRight(again)) expect(managed(recovered)).toEqual(managed(after))
      }
      for (const path of managedPaths) expect([machine.files[path], after.files[path]]).toContainEqual(recovered.files[path])
      // No temp files or restore staging are left anywhere outside the state directory.
      expect(Object.keys(managed(recovered)).filter((x) => x.includes('.plait-'))).toEqual([])
    },
  )

  fcTest.prop([world, fc.nat()], runs)('rollback: with --atomic, a failing step leaves the machine exactly as it was', async ({ machine, catalog }, at) => {
    const probe = Memory.make(machine)
    const p = await tryPlan(catalog, probe)
    fc.pre(p !== undefined && p.resources.some((x) => x.steps.length > 0))
    const full = Memory.make(machine)
    const ok = await apply(full, p!, { atomic: true })
    fc.pre(E.isRight(ok) && ok.right.resources.every((x) => x.outcome !== 'failed'))
    // Fail one of the mutations made after the lock and journal are set up (the first few are those).
    const m = Memory.make(machine, { failAt: { mutation: 1 + (at % full.mutations) } })
    const r = await apply(m, p!, { atomic: true })
    if (E.isRight(r) && r.right.resources.some((x) => x.outcome === 'failed')) {
      expect(managed(m.snapshot())).toEqual(managed(machine))
    }
  })
})
