// Interpreters agree: random runs of primitives give the same outcomes (fault tags included) and
// leave the same machine on posix (under a temp root) and memory.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect } from 'vitest'
import { fc, test as fcTest } from '@fast-check/vitest'
import type { Fault } from '../../src/core/Fault.js'
import type { Attrs, Machine } from '../../src/interpreters/Machine.js'
import * as MachineFile from '../../src/interpreters/memory/machineFile.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Materialize from '../../src/interpreters/posix/materialize.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { isRoot } from './machine.contract.js'

const start = (() => {
  const r = MachineFile.parse(`
files:
  /a/b/f: { content: "f" }
  /a/l: { type: symlink, target: b }
  /s: { type: symlink, target: a }
  /d: { type: symlink, target: nowhere }
  /loop: { type: symlink, target: loop }
  /e: { content: "e", mode: "0600" }
`)
  if (E.isLeft(r)) throw new Error(r.left)
  return r.right
})()

const paths = ['/', '/a', '/a/b', '/a/b/f', '/a/b/g', '/a/l', '/a/l/f', '/a/l/g', '/s', '/s/b', '/s/b/f', '/d', '/d/x', '/loop', '/loop/x', '/e', '/e/x', '/n', '/n/m', '/n/m/k']
const path = fc.constantFrom(...paths)
const content = fc.constantFrom('', 'x', 'hello\n').map((s) => new TextEncoder().encode(s))
const attrs: fc.Arbitrary<Attrs> = fc.record({
  uid: isRoot ? fc.constantFrom(0, 1000) : fc.constant(process.getuid!()),
  gid: isRoot ? fc.constantFrom(0, 1000) : fc.constant(process.getgid!()),
  mode: fc.constantFrom(0o600, 0o644, 0o755, 0o700),
})

type Op = { readonly show: string; readonly run: (m: Machine) => TE.TaskEither<Fault, unknown> }
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(path, content, attrs, fc.constantFrom('.t', 'f')).map(([p, c, a, t]) => ({ show: `write ${p} ${t}`, run: (m: Machine) => m.writeFileAtomic(p, c, a, t) })),
  fc.tuple(path, attrs).map(([p, a]) => ({ show: `mkdirp ${p}`, run: (m: Machine) => m.mkdirp(p, a) })),
  fc.tuple(path, attrs).map(([p, a]) => ({ show: `setAttrs ${p}`, run: (m: Machine) => m.setAttrs(p, a) })),
  fc.tuple(path, fc.boolean()).map(([p, r]) => ({ show: `remove ${p} ${r}`, run: (m: Machine) => m.remove(p, { recursive: r }) })),
  fc.tuple(path, path).map(([a, b]) => ({ show: `rename ${a} ${b}`, run: (m: Machine) => m.rename(a, b) })),
  fc.tuple(path, path).map(([a, b]) => ({ show: `copy ${a} ${b}`, run: (m: Machine) => m.copy(a, b) })),
  fc.tuple(path, content).map(([p, c]) => ({ show: `createExclusive ${p}`, run: (m: Machine) => m.createExclusive(p, c) })),
  fc.tuple(path, content).map(([p, c]) => ({ show: `append ${p}`, run: (m: Machine) => m.append(p, c) })),
  fc.tuple(path, fc.constantFrom(undefined, 'x')).map(([p, u]) => ({ show: `probe ${p}`, run: (m: Machine) => m.probe(p, u === undefined ? {} : { contentUnless: u }) })),
  path.map((p) => ({ show: `readFile ${p}`, run: (m: Machine) => m.readFile(p) })),
  path.map((p) => ({ show: `readdir ${p}`, run: (m: Machine) => m.readdir(p) })),
)

/** An outcome comparable across interpreters: the fault tag, or the value with bytes as arrays and directory sizes dropped. */
const outcome = (r: E.Either<Fault, unknown>): unknown => {
  if (E.isLeft(r)) return { fault: r.left._tag }
  return JSON.parse(
    JSON.stringify(r.right ?? null, (key, value: unknown) => (value instanceof Uint8Array ? [...value] : key === 'size' ? undefined : value)),
  )
}

// materialize chowns to root and app: only root can set up the posix side
describe.skipIf(!isRoot)('interpreters agree', () => {
  fcTest.prop([fc.array(op, { minLength: 1, maxLength: 12 })], { numRuns: Number(process.env['PLAIT_AGREEMENT_RUNS'] ?? 150) })('posix and memory give the same outcomes and machine', async (ops) => {
    const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-agree-'))
    try {
      const written = await Materialize.materialize(start, root)()
      expect(written).toEqual(E.right(undefined))
      const posix = Posix.make({ root })
      const memory = Memory.make(start)
      for (const o of ops) {
        const [p, m] = [await o.run(posix)(), await o.run(memory)()]
        expect([o.show, outcome(p)]).toEqual([o.show, outcome(m)])
      }
      const captured = await Materialize.capture(root, start)()
      expect(captured).toEqual(E.right(memory.snapshot() satisfies Snapshot.Snapshot))
    } finally {
      await fs.rm(root, { recursive: true, force: true })
    }
  })
})
