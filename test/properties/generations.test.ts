// The law of generations, over the memory interpreter and the posix one under a temp root: apply
// generations 1..k of random file manifests; then the plan of `rollback --to N`, saved and read
// back like any plan file and applied, leaves exactly the files (content, owner, mode, absence,
// directories) the machine had right after generation N. An apply that changes nothing records
// nothing.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Generations from '../../src/executor/generations.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Materialize from '../../src/interpreters/posix/materialize.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import * as Coverage from '../support/Coverage.js'
import { apply, catalogOf, managed, planE, stateDir } from '../support/run.js'
import { isRoot } from '../contract/machine.contract.js'

const files = ['/etc/f1', '/etc/f2', '/d/f3', '/d/f4', '/f5'] as const
const dirs = ['/d'] as const
const texts = ['', 'one\n', 'two\n', 'three\nlines\n'] as const
const modes = [0o644, 0o600, 0o755] as const
/** Owners by number: the memory machine's root and app, or only this process's user when it cannot chown. */
const uids = (posix: boolean): ReadonlyArray<number> => (!posix || isRoot ? [0, 1000] : [process.getuid!()])

const node = (posix: boolean): fc.Arbitrary<Snapshot.Node | undefined> =>
  fc.option(
    fc.record({ text: fc.constantFrom(...texts), uid: fc.constantFrom(...uids(posix)), mode: fc.constantFrom(...modes) }).map(({ text, uid, mode }) => Snapshot.file(text, { uid, gid: uid, mode })),
    { nil: undefined },
  )

/** A machine with /etc, maybe /d, and some of the files (those whose directory is there). */
const machineArb = (posix: boolean): fc.Arbitrary<Snapshot.Snapshot> =>
  fc.tuple(fc.boolean(), ...files.map(() => node(posix))).map(([hasD, ...nodes]) => {
    const owner = posix && !isRoot ? { uid: process.getuid!(), gid: process.getgid!() } : {}
    const tree: Record<string, Snapshot.Node> = { '/': Snapshot.directory(owner), '/etc': Snapshot.directory(owner), ...(hasD ? { '/d': Snapshot.directory(owner) } : {}) }
    files.forEach((p, i) => {
      if (nodes[i] !== undefined && (hasD || !p.startsWith('/d/'))) tree[p] = nodes[i]!
    })
    const s = Snapshot.make(tree)
    if (E.isLeft(s)) throw new Error(s.left)
    return s.right
  })

const at = { file: 'm.yaml', line: 1, col: 1 }

/** One manifest: maybe the directory /d (its mode may change), then some files present or absent. */
const manifestArb = (posix: boolean): fc.Arbitrary<ReadonlyArray<FileSpec>> =>
  fc
    .tuple(
      fc.option(fc.constantFrom(0o755, 0o700), { nil: undefined }),
      fc.subarray([...files], { minLength: 1 }).chain((ps) =>
        fc.tuple(
          ...ps.map((path) =>
            fc.record({ ensure: fc.constantFrom('present', 'present', 'absent'), text: fc.constantFrom(...texts), uid: fc.constantFrom(...uids(posix)), mode: fc.constantFrom(...modes) }).map(
              ({ ensure, text, uid, mode }): FileSpec =>
                ensure === 'absent'
                  ? { _tag: 'file', id: `file#${path}`, path, at, ensure: 'absent', content: { _tag: 'Unmanaged' }, force: false }
                  : { _tag: 'file', id: `file#${path}`, path, at, ensure: 'present', content: { _tag: 'Inline', text }, owner: String(uid), group: String(uid), mode, force: false },
            ),
          ),
        ),
      ),
    )
    .map(([dirMode, specs]) => {
      const owner = String(uids(posix)[0])
      const d: ReadonlyArray<FileSpec> = dirMode === undefined ? [] : dirs.map((path) => ({ _tag: 'file', id: `file#${path}`, path, at, ensure: 'directory', content: { _tag: 'Unmanaged' }, owner, group: owner, mode: dirMode, force: false }))
      return [...d, ...specs]
    })

// A world sometimes ends with its last manifest again (a fifth of them), so that an apply that
// changes nothing, and records nothing, is exercised whatever the seed.
const world = (posix: boolean) =>
  fc
    .record({ machine: machineArb(posix), manifests: fc.array(manifestArb(posix), { minLength: 1, maxLength: 4 }), repeat: fc.integer({ min: 0, max: 4 }), to: fc.nat() })
    .map(({ machine, manifests, repeat, to }) => ({ machine, manifests: repeat === 0 ? [...manifests, manifests.at(-1)!] : manifests, to }))

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  throw new Error(ds.map((d) => d.message).join('\n'))
}

/** A machine of the law: the interpreter, and what its managed files are now. */
interface Subject {
  readonly machine: Machine
  readonly files: () => Promise<Readonly<Record<string, unknown>>>
}

const records = async (m: Machine) => {
  const l = await Generations.list(m, stateDir)
  if (E.isLeft(l)) throw new Error(l.left.description)
  expect(l.right.problems).toEqual([])
  return l.right.records
}

/**
 * The law on one world: apply each manifest (one that cannot be planned, a parent missing say, is
 * passed over), noting the files after each generation; then roll back to a generation N and
 * compare. Labels what it exercised.
 */
const law = async (cov: Coverage.Coverage, s: Subject, manifests: ReadonlyArray<ReadonlyArray<FileSpec>>, pick: number): Promise<void> => {
  cov.run()
  const after = new Map<number, Readonly<Record<string, unknown>>>([[0, await s.files()]])
  for (const specs of manifests) {
    const p = await planE(catalogOf(specs), s.machine)
    // a resource that cannot be planned (its parent missing, say) refuses the plan, or stands in it as failed
    if (E.isLeft(p) || p.right.resources.some((r) => (r as { readonly failed?: unknown }).failed !== undefined)) {
      cov.label('manifest refused')
      continue
    }
    const before = (await records(s.machine)).length
    const r = await apply(s.machine, p.right)
    if (E.isLeft(r)) fail(r.left)
    const report = E.isRight(r) ? r.right : undefined
    expect(report!.resources.every((x) => x.outcome !== 'failed')).toBe(true)
    const changed = report!.resources.some((x) => x.outcome === 'changed')
    expect((await records(s.machine)).length).toBe(before + (changed ? 1 : 0))
    if (!changed) {
      cov.label('no change, nothing recorded')
      expect(report!.generation).toBeUndefined()
      continue
    }
    expect(report!.generation).toEqual({ number: before + 1 })
    after.set(before + 1, await s.files())
    // applying the same manifest again changes nothing, and records nothing
    const again = await planE(catalogOf(specs), s.machine)
    if (E.isLeft(again)) fail(again.left)
    const r2 = await apply(s.machine, (again as E.Right<Plan.Plan>).right)
    expect(E.isRight(r2) && r2.right.generation).toBeUndefined()
    expect((await records(s.machine)).length).toBe(before + 1)
  }
  const latest = (await records(s.machine)).length
  if (latest === 0) {
    cov.label('nothing to roll back')
    return
  }
  const to = pick % (latest + 1)
  if (to < latest - 1) cov.label('rolled back more than one generation')
  const made = await Generations.rollback(s.machine, stateDir, await records(s.machine), to, 'test')
  if (E.isLeft(made)) fail(made.left)
  const plan = (made as E.Right<Plan.Plan>).right
  // an ordinary plan: saved and read back like any plan file, then applied with the usual checks
  const read = PlanFile.parse('rollback.json', PlanFile.serialize(plan))
  expect(E.isRight(read)).toBe(true)
  const r = await apply(s.machine, (read as E.Right<Plan.Plan>).right)
  if (E.isLeft(r)) fail(r.left)
  expect(await s.files()).toEqual(after.get(to))
  cov.label(plan.resources.some((x) => x.steps.length > 0) ? 'rolled back' : 'rollback to the latest changes nothing')
}

const runs = Number(process.env['PLAIT_LAW_RUNS'] ?? 150)

describe('generations and rollback', () => {
  it('memory: rollback --to N gives exactly the files right after generation N', async () => {
    const cov = Coverage.make('rollback on memory')
    await fc.assert(
      fc.asyncProperty(world(false), async ({ machine, manifests, to }) => {
        const m = Memory.make(machine)
        await law(cov, { machine: m, files: async () => managed(m.snapshot()) }, manifests, to)
      }),
      { numRuns: runs },
    )
    cov.check({ 'rolled back': 0.4, 'rolled back more than one generation': 0.1, 'no change, nothing recorded': 0.02 })
  })

  it('posix under a temp root: the same law on the real file system', async () => {
    const cov = Coverage.make('rollback on posix')
    await fc.assert(
      fc.asyncProperty(world(true), async ({ machine, manifests, to }) => {
        const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-generations-'))
        try {
          expect(await Materialize.materialize(machine, root)()).toEqual(E.right(undefined))
          const m = Posix.make({ root })
          const files = async () => {
            const c = await Materialize.capture(root)()
            if (E.isLeft(c)) throw new Error(c.left.description)
            return managed(c.right)
          }
          await law(cov, { machine: m, files }, manifests, to)
        } finally {
          await fs.rm(root, { recursive: true, force: true })
        }
      }),
      { numRuns: Math.max(10, Math.floor(runs / 6)) },
    )
    cov.check({ 'rolled back': 0.3 })
  }, 120_000)
})
