// The laws of DESIGN.md, as properties over the memory interpreter: idempotence, noop purity,
// determinism and plan-file round trip, staleness, crash atomicity and rollback. Worlds mix files
// with services and packages on the memory service and package managers, and exec resources whose
// commands the memory runner gives declared effects on the machine (systems.ts); their steps are
// irreversible, so the crash and rollback laws expect them listed as ran and left as they are. Two
// restrictions, each commented where it applies and listed in docs/testing.md: an exec's guards are
// asked again at its turn, not checked for staleness; and a crashed run whose command changed the
// machine before a failing resource need not recover to the failing run's end.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type { Catalog } from '../../src/compiler/Catalog.js'
import type * as Plan from '../../src/core/Plan.js'
import type * as Apply from '../../src/executor/apply.js'
import type { Report } from '../../src/executor/Report.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import * as Coverage from '../support/Coverage.js'
import { apply as applyWith, managed } from '../support/run.js'
import * as Systems from './systems.js'

const universe = ['/a', '/a/f1', '/a/f2', '/a/d', '/a/d/f3', '/b', '/b/f4', '/c'] as const
const texts = ['', 'one\n', 'two\n', 'three\nlines\nhere\n'] as const
const modes = [0o644, 0o600, 0o755, 0o700] as const

// Leaves are mostly absent or files and sometimes directories; the directories the universe nests in
// are mostly directories (below). Conflicts (a directory where a file is wanted) still occur, and
// the laws check those refusals too, but most worlds can be planned and applied.
const nodeArb: fc.Arbitrary<Snapshot.Node | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.record({ text: fc.constantFrom(...texts), uid: fc.constantFrom(0, 1000), mode: fc.constantFrom(...modes) }).map(({ text, uid, mode }) => Snapshot.file(text, { uid, gid: uid, mode })) },
  { weight: 1, arbitrary: fc.record({ uid: fc.constantFrom(0, 1000), mode: fc.constantFrom(0o755, 0o700) }).map(({ uid, mode }) => Snapshot.directory({ uid, gid: uid, mode })) },
)

/** Directories the universe nests in are directories most of the time, so most worlds can be planned. */
const dirArb: fc.Arbitrary<Snapshot.Node | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ uid: fc.constantFrom(0, 1000), mode: fc.constantFrom(0o755, 0o700) }).map(({ uid, mode }) => Snapshot.directory({ uid, gid: uid, mode })) },
  { weight: 1, arbitrary: nodeArb },
)
const parents = new Set(['/a', '/a/d', '/b'])

// The exec resources' own paths (systems.ts) are beside the universe: absent or a file.
const machineArb: fc.Arbitrary<Snapshot.Snapshot> = fc
  .tuple(fc.tuple(...universe.map((p) => (parents.has(p) ? dirArb : nodeArb))), fc.tuple(...Systems.execPaths.map(() => Systems.execNodeArb)))
  .map(([nodes, execNodes]) => {
    const files: Record<string, Snapshot.Node> = {}
    universe.forEach((p, i) => {
      if (nodes[i] !== undefined) files[p] = nodes[i]
    })
    Systems.execPaths.forEach((p, i) => {
      if (execNodes[i] !== undefined) files[p] = execNodes[i]
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
      ensure: (parents.has(path) ? fc.constantFrom('directory', 'directory', 'directory', 'present', 'absent') : fc.constantFrom('present', 'present', 'present', 'absent', 'directory')) as fc.Arbitrary<FileSpec['ensure']>,
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

// Files, then services (some subscribing to one of the files) and packages (see systems.ts).
const catalogArb = fc
  .subarray([...universe], { minLength: 1, maxLength: 3 })
  .chain((paths) => fc.tuple(...paths.map(specArb)))
  .chain((specs) => Systems.mixedCatalogArb(specs))

const world = fc.record({ machine: machineArb, catalog: catalogArb, systems: Systems.systemsArb })

/** A plan, or the diagnostics that refused it (a directory in the way of a file, and so on). */
const tryPlan = async (catalog: Catalog, m: Memory.MemoryMachine, ms: Systems.Managers) => Systems.planE(catalog, m, ms)

/** A plan of the catalog on a fresh memory machine holding `machine`, with fresh managers. */
const planOn = (catalog: Catalog, machine: Snapshot.Snapshot, systems: Systems.Systems) => {
  return tryPlan(catalog, Memory.make(machine), Systems.managers(systems))
}

/** Applies with the run's service and package managers and its command runner. */
const apply = (m: Memory.MemoryMachine, ms: Systems.Managers, plan: Plan.Plan, options: Partial<Apply.Options> = {}) =>
  applyWith(m, plan, { ...options, services: ms.services, packages: ms.packages, runner: Systems.runnerOn(ms, m) })

/** Labels a planned world by the kinds it has steps of, so the floors can ask that services, packages and commands are really exercised. */
const labelKinds = (cov: Coverage.Coverage, plan: Plan.Plan, suffix: string): void => {
  for (const kind of ['service', 'package', 'exec']) if (plan.resources.some((r) => Systems.kindOf(r.id) === kind && r.steps.length > 0)) cov.label(`${kind} ${suffix}`)
}

/** A snapshot's files at the exec resources' own paths (what their commands change). */
const execFiles = (s: Snapshot.Snapshot): Readonly<Record<string, unknown>> => Object.fromEntries(Systems.execPaths.map((p) => [p, s.files[p]]))

/** A snapshot's managed files (state directory left out) without the exec resources' paths. */
const managedFiles = (s: Snapshot.Snapshot): Readonly<Record<string, unknown>> => Object.fromEntries(Object.entries(managed(s)).filter(([p]) => !(Systems.execPaths as ReadonlyArray<string>).includes(p)))

/** A refused plan is an answer too: it must say why, with the resource it concerns. */
const examineRefusal = (ds: ReadonlyArray<{ code: string; message: string; resource?: string }>): void => {
  expect(ds.length).toBeGreaterThan(0)
  for (const d of ds) expect(d.message.length).toBeGreaterThan(0)
}

/** A refused plan, labelled and examined (it is an answer too); false for a plan. */
const refused = <A>(cov: Coverage.Coverage, p: E.Either<ReadonlyArray<{ code: string; message: string }>, A>): p is E.Left<ReadonlyArray<{ code: string; message: string }>> => {
  if (E.isRight(p)) return false
  cov.label('plan refused')
  examineRefusal(p.left)
  return true
}

/**
 * A rerun refused because a service or package step of an earlier run was not undone (such steps
 * are irreversible: the report lists them as ran, and recovery leaves them): every diagnostic is
 * Stale, one names a service or package, and the managers are as the earlier run left them.
 * False (nothing asserted) when no such step changed anything the plan observed.
 */
const refusedForIrreversible = (
  cov: Coverage.Coverage,
  again: E.Either<ReadonlyArray<{ code: string; resource?: string }>, unknown>,
  ms: Systems.Managers,
  left: Systems.Systems,
  initial: Systems.Systems,
): boolean => {
  if (E.isRight(again) || Systems.actions(ms).length === 0 || JSON.stringify(left) === JSON.stringify(initial)) return false
  if (!again.left.some((x) => x.resource !== undefined && Systems.kindOf(x.resource) !== 'file')) return false
  expect(again.left.every((x) => x.code === 'Stale')).toBe(true)
  expect(Systems.state(ms)).toEqual(left)
  cov.label('irreversible step kept')
  return true
}

/**
 * An atomic run that failed lists each service, package or command step that ran as irreversible,
 * never as rolled back: a unit or package whose steps ran is as the uninterrupted run left it (the
 * steps before the failure are the same), one whose steps did not run is as it was. (Command paths
 * are checked by the caller: the injected failure may hit the command's own mutation.)
 */
const expectIrreversibleKept = (cov: Coverage.Coverage, report: Report, ms: Systems.Managers, fullMs: Systems.Managers, initial: Systems.Systems): void => {
  const ran = new Set(report.irreversible.map((x) => x.slice(0, x.indexOf(': '))))
  expect(report.irreversible.length).toBe(Systems.actions(ms).length)
  expect(report.rolledBack.filter((x) => Systems.kindOf(x) !== 'file')).toEqual([])
  for (const o of report.resources) if (ran.has(o.id)) expect(o.outcome).not.toBe('rolled back')
  const now = Systems.state(ms)
  const full = Systems.state(fullMs)
  for (const n of Systems.unitNames) expect(now.units[n]).toEqual((ran.has(`service#${n}`) ? full : initial).units[n])
  for (const n of Systems.packageNames) expect(now.packages[n]).toEqual((ran.has(`package#${n}`) ? full : initial).packages[n])
  if (ran.size > 0) cov.label('irreversible listed, not undone')
}

/**
 * Restricted (docs/testing.md): the uninterrupted run failed, and a command of the interrupted run
 * changed its path before it stopped. Commands are irreversible, so recovery keeps that change and
 * the rerun starts from another world (a `creates` that now exists skips a command that failed
 * before): it need not end as the failing run did. Only each command's path is checked: as the
 * interrupted run left it, as the uninterrupted run made it, or removed by a guarded `rm` that
 * runs in the other world. False (nothing asserted) otherwise.
 */
const rerunElsewhere = (
  cov: Coverage.Coverage,
  fullRun: Report,
  initial: Snapshot.Snapshot,
  left: Snapshot.Snapshot,
  rerun: Snapshot.Snapshot,
  full: Snapshot.Snapshot,
  ranInRerun: ReadonlySet<string>,
): boolean => {
  if (!fullRun.resources.some((x) => x.outcome === 'failed') || JSON.stringify(execFiles(left)) === JSON.stringify(execFiles(initial))) return false
  // as the interrupted run left it, as the uninterrupted run made it, or removed: from the other
  // world a guarded `rm` (onlyif the path exists) may run where it did not in the failing run; a
  // path whose command ran in the rerun is what that command makes there (the atomic failing run
  // stopped before it, and a guard now skips the command that failed: seed 1343206603)
  for (const path of Systems.execPaths) if (!ranInRerun.has(path)) expect([left.files[path], full.files[path], undefined]).toContainEqual(rerun.files[path])
  cov.label('full run failed after a command ran')
  return true
}

/** The paths of the commands a run logged after its first `from` commands (those of a rerun). */
const pathsOfCommands = (ms: Systems.Managers, from: number): ReadonlySet<string> =>
  new Set(Systems.commands(ms).slice(from).flatMap((c) => Systems.execPaths.filter((x) => c.split(' ').includes(x))))

const runs = { numRuns: Number(process.env["PLAIT_LAW_RUNS"] ?? 120) }

/** Runs a property, then checks that it checked enough (see Coverage). */
// Floors are about half the shares seen over many seeds (planned worlds are about 50% of runs, a
// failure injected into a step rather than into bookkeeping about 5%), far enough from the mean
// that a seed never trips them, close enough that a generator that stops producing them does.
const law = <Ts>(name: string, floors: Readonly<Record<string, number>>, property: (cov: Coverage.Coverage) => fc.IAsyncProperty<Ts>, numRuns = runs.numRuns) =>
  it(name, async () => {
    const cov = Coverage.make(name)
    await fc.assert(property(cov), { numRuns })
    const shares = cov.check(floors)
    if (process.env['PLAIT_LAW_STATS'] !== undefined) console.log(`${name.split(':')[0]}: ${Object.entries(shares).map(([k, v]) => `${k} ${Math.round(v * 100)}%`).join(', ')}`)
  }, 120_000)

describe('laws over the memory interpreter', () => {
  law('idempotence: after a successful apply, planning again finds nothing to do', { converged: 0.25, 'service converged': 0.05, 'package converged': 0.05, 'exec converged': 0.05, 'a command ran, then its guard held': 0.05 }, (cov) =>
    fc.asyncProperty(world, async ({ machine, catalog, systems }) => {
      cov.run()
      const m = Memory.make(machine)
      const ms = Systems.managers(systems)
      const p = await tryPlan(catalog, m, ms)
      if (refused(cov, p)) return
      const r = await apply(m, ms, p.right)
      expect(E.isRight(r)).toBe(true)
      if (E.isLeft(r)) return
      if (r.right.resources.some((x) => x.outcome === 'failed')) {
        // a failed resource was rolled back: planning again still plans it (nothing to assert as converged)
        cov.label('a resource failed')
        expect(r.right.resources.filter((x) => x.outcome === 'failed').every((x) => x.messages.length > 0)).toBe(true)
        return
      }
      const again = await tryPlan(catalog, m, ms)
      // A unit systemd does not know is planned only while an earlier resource of the run may install
      // it: once nothing changes, the plan says "service not found" for such units, and only them.
      const missing = p.right.resources.filter((x) => Systems.kindOf(x.id) === 'service' && x.observed?.summary === 'not found').map((x) => x.id)
      if (E.isLeft(again) && missing.length > 0) {
        // The first such unit is always refused; a later one may not be, when the refused one before
        // it counts as an earlier resource that may install it (seen with two missing units).
        expect(again.left.map((d) => [d.resource, d.message])).toContainEqual([missing[0], 'service not found'])
        for (const d of again.left) expect([d.resource, d.message]).toEqual([missing.find((id) => id === d.resource), 'service not found'])
        cov.label('a missing unit refused once nothing installs it')
        return
      }
      expect(E.isRight(again) && again.right.resources.filter((x) => x.steps.length > 0)).toEqual([])
      cov.label('converged')
      labelKinds(cov, p.right, 'converged')
      if (p.right.resources.some((x) => x.steps.some((s) => s.reason.startsWith('refresh')))) cov.label('a subscribed service refreshed')
      // A command that ran made its `creates` path or its guard's answer hold: the plan above has no step for it.
      if (Systems.commands(ms).length > 0) cov.label('a command ran, then its guard held')
    }),
  )

  law('noop purity: plan and apply --noop never change the machine', { 'noop applied': 0.25, 'service noop applied': 0.1, 'package noop applied': 0.1, 'exec noop applied': 0.1 }, (cov) =>
    fc.asyncProperty(world, async ({ machine, catalog, systems }) => {
      cov.run()
      const m = Memory.make(machine)
      const ms = Systems.managers(systems)
      const p = await tryPlan(catalog, m, ms)
      expect(m.mutations).toBe(0)
      expect(Systems.told(ms)).toEqual([])
      if (E.isLeft(p)) {
        cov.label('plan refused')
        examineRefusal(p.left)
        expect(m.snapshot()).toEqual(machine)
        return
      }
      await apply(m, ms, p.right, { noop: true })
      expect(m.snapshot()).toEqual(machine)
      expect(m.mutations).toBe(0)
      // services and packages are only asked, never told
      expect(Systems.told(ms)).toEqual([])
      expect(Systems.state(ms)).toEqual(systems)
      cov.label('noop applied')
      labelKinds(cov, p.right, 'noop applied')
    }),
  )

  law('determinism: equal machines give byte-identical plan files that round-trip', { 'round-tripped': 0.25, 'service round-tripped': 0.1, 'package round-tripped': 0.1, 'exec round-tripped': 0.1 }, (cov) =>
    fc.asyncProperty(world, async ({ machine, catalog, systems }) => {
      cov.run()
      const a = await planOn(catalog, machine, systems)
      const b = await planOn(catalog, machine, systems)
      if (E.isLeft(a)) {
        cov.label('plan refused')
        expect(b).toEqual(a) // refusals are deterministic too
        return
      }
      const text = PlanFile.serialize(a.right)
      expect(E.isRight(b) && PlanFile.serialize(b.right)).toBe(text)
      const back = PlanFile.parse('plan.json', text)
      expect(E.isRight(back) && PlanFile.serialize(back.right)).toBe(text)
      cov.label('round-tripped')
      labelKinds(cov, a.right, 'round-tripped')
    }),
  )

  law(
    'staleness: any change to an observed resource between plan and apply is refused, and nothing is changed',
    { 'refused as stale': 0.2, 'a directory drifted': 0.02, 'a service drifted': 0.03, 'a package drifted': 0.03, 'an exec drifted: decided at its turn': 0.03 },
    (cov) =>
      fc.asyncProperty(world, fc.nat(), fc.constantFrom('content', 'mode', 'delete', 'create'), async ({ machine, catalog, systems }, pick, how) => {
        cov.run()
        const m = Memory.make(machine)
        const p = await tryPlan(catalog, m, Systems.managers(systems))
        if (refused(cov, p)) return
        const chosen = p.right.resources[pick % p.right.resources.length]!
        const kind = Systems.kindOf(chosen.id)
        if (kind === 'exec') {
          // Restricted, by design (docs/testing.md): an exec resource observes nothing that the
          // staleness check compares. Its `creates` and guards are asked again at its turn (as
          // CCM does), so a change to its path is not refused: the saved plan then runs the command
          // exactly when a plan made now would, and ends with the same machine.
          const path = Systems.execPaths.find((x) => chosen.id === `exec#run${x.replaceAll('/', '-')}`)!
          const files: Record<string, Snapshot.Node> = { ...machine.files }
          if (files[path] === undefined) files[path] = Snapshot.file(how === 'content' ? 'drift\n' : '')
          else delete files[path]
          const drifted = Snapshot.make(files, machine)
          if (E.isLeft(drifted)) throw new Error(drifted.left)
          const d = Memory.make(drifted.right)
          const dm = Systems.managers(systems)
          const r = await apply(d, dm, p.right)
          const fresh = Memory.make(drifted.right)
          const fm = Systems.managers(systems)
          const q = await tryPlan(catalog, fresh, fm)
          expect(E.isRight(q)).toBe(true)
          if (E.isLeft(q)) return
          const s = await apply(fresh, fm, q.right)
          expect(E.isRight(r)).toBe(true)
          expect(E.isRight(s)).toBe(true)
          expect(Systems.commands(dm)).toEqual(Systems.commands(fm))
          expect(managed(d.snapshot())).toEqual(managed(fresh.snapshot()))
          if (E.isRight(r) && E.isRight(s)) expect(r.right.resources.find((x) => x.id === chosen.id)?.outcome).toBe(s.right.resources.find((x) => x.id === chosen.id)?.outcome)
          cov.label('an exec drifted: decided at its turn')
          return
        }
        if (kind !== 'file') {
          // A unit or package changed between plan and apply: refused, and nothing is changed or told.
          const d = Memory.make(machine)
          const dm = Systems.managers(Systems.drift(systems, chosen.id, how))
          const was = Systems.state(dm)
          const r = await apply(d, dm, p.right)
          expect(E.isLeft(r)).toBe(true)
          if (E.isLeft(r)) expect(r.left.some((x) => x.code === 'Stale' && x.resource === chosen.id)).toBe(true)
          expect(managed(d.snapshot())).toEqual(managed(machine))
          expect(Systems.told(dm)).toEqual([])
          expect(Systems.state(dm)).toEqual(was)
          cov.label(`a ${kind} drifted`)
          cov.label('refused as stale')
          return
        }
        const target = chosen.name
        const files: Record<string, Snapshot.Node> = { ...machine.files }
        const cur = files[target]
        if (how === 'delete' || how === 'create') {
          if (cur === undefined) {
            files[target] = Snapshot.file('surprise\n')
            // a new file needs its parents: make the missing ones directories
            for (let d = target.slice(0, target.lastIndexOf('/')); d !== ''; d = d.slice(0, d.lastIndexOf('/'))) files[d] ??= Snapshot.directory({ uid: 0, gid: 0, mode: 0o755 })
          } else if (cur.kind === 'directory') {
            // removing a directory removes what is below it too
            cov.label('a directory drifted')
            for (const k of Object.keys(files)) if (k === target || k.startsWith(target + '/')) delete files[k]
          } else delete files[target]
        } else if (cur?.kind === 'file') {
          files[target] = how === 'content' ? Snapshot.file('drift\n', cur) : { ...cur, mode: cur.mode === 0o640 ? 0o641 : 0o640 }
        } else if (cur?.kind === 'directory') {
          cov.label('a directory drifted')
          files[target] = { ...cur, mode: cur.mode === 0o711 ? 0o710 : 0o711 }
        } else {
          files[target] = Snapshot.file('surprise\n')
        }
        const drifted = Snapshot.make(files, machine)
        if (E.isLeft(drifted)) {
          // the parent of the target is a file: the drift cannot exist on a real machine
          cov.label('drift impossible')
          expect(drifted.left.length).toBeGreaterThan(0)
          return
        }
        const d = Memory.make(drifted.right)
        const dm = Systems.managers(systems)
        const before = d.snapshot()
        const r = await apply(d, dm, p.right)
        expect(E.isLeft(r)).toBe(true)
        expect(Systems.told(dm)).toEqual([])
        if (E.isLeft(r)) expect(r.left.some((x) => x.code === 'Stale' && (x.resource === `file#${target}` || (x.resource ?? '').startsWith(`file#${target}/`)))).toBe(true)
        expect(managed(d.snapshot())).toEqual(managed(before))
        cov.label('refused as stale')
      }),
  )

  law(
    'atomicity: a crash at any mutation leaves every managed path old or new, and recovery restores what it implies',
    { 'crashed and recovered': 0.2, 'irreversible step kept': 0.01, 'a command ran before the crash': 0.02 },
    (cov) =>
      fc.asyncProperty(world, fc.nat(), fc.boolean(), async ({ machine, catalog, systems }, at, atomic) => {
        cov.run()
        const probe = Memory.make(machine)
        const p = await tryPlan(catalog, probe, Systems.managers(systems))
        if (refused(cov, p)) return
        // The outcome of an uninterrupted run, and how many mutations it makes.
        const full = Memory.make(machine)
        const fullMs = Systems.managers(systems)
        const r = await apply(full, fullMs, p.right, { atomic })
        expect(E.isRight(r)).toBe(true)
        if (E.isLeft(r)) return
        const after = full.snapshot()
        if (full.mutations === 0) {
          cov.label('nothing to crash')
          expect(managed(after)).toEqual(managed(machine))
          return
        }
        const crashAt = 1 + (at % full.mutations)
        const m = Memory.make(machine, { crashAt })
        // the managers outlive the crash, as systemd and dpkg's database do
        const ms = Systems.managers(systems)
        await apply(m, ms, p.right, { atomic })
        expect(m.crashed).toBe(true)
        const crashed = m.snapshot()
        // each unit's and package's state is the old or the new one, field by field (a crash comes between verbs)
        const systemsCrashed = Systems.state(ms)
        const fullSystems = Systems.state(fullMs)
        for (const n of Systems.unitNames) {
          for (const f of ['active', 'unitFile'] as const) expect([systems.units[n]?.[f], fullSystems.units[n]?.[f]]).toContain(systemsCrashed.units[n]?.[f])
        }
        for (const n of Systems.packageNames) expect([systems.packages[n]?.installed, fullSystems.packages[n]?.installed]).toContain(systemsCrashed.packages[n]?.installed)
        const managedPaths = new Set(p.right.resources.map((x) => x.name))
        // A command's effect is one mutation: its path is as it was or as the finished run left it.
        for (const path of Systems.execPaths) expect([machine.files[path], after.files[path]]).toContainEqual(crashed.files[path])
        if (Systems.commands(ms).length > 0) cov.label('a command ran before the crash')
        const revived = m.revive()
        if (r.right.resources.some((x) => x.outcome === 'failed') && JSON.stringify(execFiles(crashed)) !== JSON.stringify(execFiles(machine))) {
          // Restricted (docs/testing.md): the uninterrupted run fails, and a command of the crashed
          // run already changed its path. Commands are irreversible, so recovery keeps that change
          // and the rerun starts from another world (a guard that now holds skips a command that
          // failed before): it need not end as the failing run did. Each command's path stays as
          // the crashed run left it or becomes what its command makes.
          // A command the failing run never reached (an atomic run stops at the failure) may run in
          // the rerun, once a guard skips the command that failed: its path is then what it makes
          // in this world, which neither run shows (seed 602459094).
          cov.label('full run failed after a command ran')
          const ranBefore = Systems.commands(ms).length
          await apply(revived, ms, p.right, { atomic })
          const rerun = pathsOfCommands(ms, ranBefore)
          for (const path of Systems.execPaths) if (!rerun.has(path)) expect([crashed.files[path], after.files[path]]).toContainEqual(revived.snapshot().files[path])
          return
        }
        if (r.right.resources.some((x) => x.outcome === 'failed')) {
          // The uninterrupted run fails (and undoes what it can): a crash may come between a step
          // and its undo, so only recovery is checked: an atomic run ends as the failing run does.
          cov.label('full run failed')
          const again = await apply(revived, ms, p.right, { atomic })
          if (refusedForIrreversible(cov, again, ms, systemsCrashed, systems)) return
          if (atomic) {
            expect(E.isRight(again)).toBe(true)
            expect(managed(revived.snapshot())).toEqual(managed(after))
          } else if (E.isLeft(again)) {
            // resources that ended before the crash keep their changes: the plan may be stale now
            expect(again.left.every((x) => x.code === 'Stale')).toBe(true)
          }
          return
        }
        // A path the plan replaces (what is in its way removed, then the file or directory made, as
        // CCM's table says) is absent between those two steps; recovery puts the old one back (below).
        const replaced = new Set(p.right.resources.filter((x) => x.steps[0]?._tag === 'file.remove' && x.steps.length > 1).map((x) => x.name))
        for (const path of managedPaths) expect([machine.files[path], after.files[path], ...(replaced.has(path) ? [undefined] : [])]).toContainEqual(crashed.files[path])
        // The restarted process finds the journal and rolls back what it implies.
        const again = await apply(revived, ms, p.right, { atomic })
        const recovered = revived.snapshot()
        if (atomic && !refusedForIrreversible(cov, again, ms, systemsCrashed, systems)) {
          // Everything the crashed run began was undone and the saved plan applied again; or the
          // crash came after the run committed, the machine is the finished run's, and the plan is stale.
          if (E.isRight(again)) expect(managed(recovered)).toEqual(managed(after))
          else {
            expect(again.left.every((x) => x.code === 'Stale')).toBe(true)
            expect(managed(recovered)).toEqual(managed(after))
          }
        }
        for (const path of managedPaths) expect([machine.files[path], after.files[path]]).toContainEqual(recovered.files[path])
        // No temp files or restore staging are left anywhere outside the state directory.
        expect(Object.keys(managed(recovered)).filter((x) => x.includes('.plait-'))).toEqual([])
        cov.label('crashed and recovered')
      }),
    // 400 runs: an irreversible step is kept in a few percent of worlds, too rare for 120 to meet its floor every time.
    400,
  )

  law('rollback: with --atomic, a failing step leaves the machine exactly as it was', { 'rolled back': 0.01, 'Left examined': 0.1, 'recovered after a journal failure': 0.02, 'irreversible listed, not undone': 0.01, 'a command ran, its effect kept': 0.01 }, (cov) =>
    fc.asyncProperty(world, fc.nat(), async ({ machine, catalog, systems }, at) => {
      cov.run()
      const probe = Memory.make(machine)
      const p = await tryPlan(catalog, probe, Systems.managers(systems))
      if (refused(cov, p)) return
      const full = Memory.make(machine)
      const fullMs = Systems.managers(systems)
      const ok = await apply(full, fullMs, p.right, { atomic: true })
      expect(E.isRight(ok)).toBe(true)
      if (full.mutations === 0 || E.isLeft(ok)) {
        cov.label('nothing to fail')
        return
      }
      // Fail one mutation of the run, wherever it falls: lock, journal, backup, step, cleanup.
      const m = Memory.make(machine, { failAt: { mutation: 1 + (at % full.mutations) } })
      const ms = Systems.managers(systems)
      const r = await apply(m, ms, p.right, { atomic: true })
      if (E.isLeft(r)) {
        cov.label('Left examined')
        expect(r.left.length).toBeGreaterThan(0)
        if (JSON.stringify(managed(m.snapshot())) !== JSON.stringify(managed(machine))) {
          // The journal could not be written after a step ran: the run stopped, saying that the
          // next apply rolls back what it began. It must: recovery, then the plan applies whole.
          expect(r.left.some((d) => d.message.includes('the next apply rolls back what it began'))).toBe(true)
          const revived = m.revive()
          const left = Systems.state(ms)
          const ranBefore = Systems.commands(ms).length
          const again = await apply(revived, ms, p.right, { atomic: true })
          if (rerunElsewhere(cov, ok.right, machine, m.snapshot(), revived.snapshot(), full.snapshot(), pathsOfCommands(ms, ranBefore))) return
          if (refusedForIrreversible(cov, again, ms, left, systems)) {
            // recovery undid every file step: only the irreversible steps remain (a command's path
            // is as it was or as its command left it)
            expect(managedFiles(revived.snapshot())).toEqual(managedFiles(machine))
            for (const path of Systems.execPaths) expect([machine.files[path], full.snapshot().files[path]]).toContainEqual(revived.snapshot().files[path])
            return
          }
          expect(E.isRight(again) && again.right.recovered.length).toBeGreaterThan(0)
          expect(managed(revived.snapshot())).toEqual(managed(full.snapshot()))
          cov.label('recovered after a journal failure')
        }
      } else if (r.right.resources.some((x) => x.messages.some((msg) => msg.startsWith('the rollback did not finish')))) {
        // the injected failure hit an undo: the journal and backups are kept, and the next apply
        // rolls back first, then applies the plan as an uninterrupted run does
        cov.label('undo failed, journal kept')
        const revived = m.revive()
        const left = Systems.state(ms)
        const ranBefore = Systems.commands(ms).length
        const again = await apply(revived, ms, p.right, { atomic: true })
        if (rerunElsewhere(cov, ok.right, machine, m.snapshot(), revived.snapshot(), full.snapshot(), pathsOfCommands(ms, ranBefore))) return
        if (refusedForIrreversible(cov, again, ms, left, systems)) return
        expect(E.isRight(again) && again.right.recovered.length).toBeGreaterThan(0)
        expect(managed(revived.snapshot())).toEqual(managed(full.snapshot()))
      } else if (r.right.resources.some((x) => x.outcome === 'failed')) {
        cov.label('rolled back')
        // Every file is as it was; a command that ran is irreversible: its path is as it was, or as the
        // command leaves it (the injected failure may have hit the command's own mutation).
        expect(managedFiles(m.snapshot())).toEqual(managedFiles(machine))
        for (const path of Systems.execPaths) expect([machine.files[path], full.snapshot().files[path]]).toContainEqual(m.snapshot().files[path])
        expectIrreversibleKept(cov, r.right, ms, fullMs, systems)
        if (Systems.commands(ms).length > 0) cov.label('a command ran, its effect kept')
      } else {
        // the failed mutation was one the run tolerates (cleanup of what is already gone): the run is whole
        cov.label('failure tolerated')
        expect(managed(m.snapshot())).toEqual(managed(full.snapshot()))
      }
    }),
    // 1,000 runs (about 1.5 s): a command that ran before the failing step is about 3% of worlds,
    // too few over 300 runs for its 1% floor (a seed gave 2 of 300); over 1,000 it is about 30
    1000,
  )
})
